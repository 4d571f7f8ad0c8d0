package io.tarn.storage.fs.s3;

import io.tarn.storage.fs.FileStatus;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The listings of {@link S3FileIO}: a directory's children page by page, one page of every key
 * under a prefix, and the raw pages that existence checks and deletes look at.
 */
final class S3Listings
{
    // S3's largest listing page
    private static final int PAGE = 1000;

    private final S3FileIO fileIO;

    S3Listings(S3FileIO fileIO)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
    }

    /**
     * The direct children of {@code directory}, files and directories (common prefixes), over as
     * many pages as it takes.
     */
    List<FileStatus> directory(String directory)
            throws IOException
    {
        S3Location location = S3Location.parse(directory);
        String base = directory.endsWith("/") ? directory.substring(0, directory.length() - 1) : directory;
        String prefix = location.directoryPrefix();
        List<FileStatus> entries = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Response page = page(location, PAGE, token);
            for (S3Object object : page.contents()) {
                String name = object.key().substring(prefix.length());
                if (!name.isEmpty()) {
                    entries.add(new FileStatus(base + "/" + name, object.size(), modified(object), false));
                }
            }
            for (CommonPrefix common : page.commonPrefixes()) {
                String name = common.prefix().substring(prefix.length());
                if (name.endsWith("/")) {
                    name = name.substring(0, name.length() - 1);
                }
                if (!name.isEmpty()) {
                    entries.add(new FileStatus(base + "/" + name, 0, 0, true));
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        }
        while (token != null);
        return entries;
    }

    /**
     * Every key that starts with {@code pathPrefix}, with its ETag, from one request of up to
     * {@value #PAGE} keys without a delimiter; empty when more keys start with the prefix.
     */
    Optional<List<FileStatus>> filesInOnePage(String pathPrefix)
            throws IOException
    {
        S3Location location = S3Location.parse(pathPrefix);
        ListObjectsV2Request request = ListObjectsV2Request.builder()
                .bucket(location.bucket())
                .prefix(location.key())
                .maxKeys(PAGE)
                .build();
        ListObjectsV2Response page = list(location, request);
        if (Boolean.TRUE.equals(page.isTruncated())) {
            return Optional.empty();
        }
        String base = location.scheme() + "://" + location.bucket() + "/";
        List<FileStatus> files = new ArrayList<>(page.contents().size());
        for (S3Object object : page.contents()) {
            files.add(new FileStatus(base + object.key(), object.size(), modified(object), false, false, Optional.ofNullable(object.eTag())));
        }
        return Optional.of(files);
    }

    /**
     * One page of the children of {@code location} as a directory (delimiter {@code /}).
     */
    ListObjectsV2Response page(S3Location location, int maxKeys, String continuationToken)
            throws IOException
    {
        ListObjectsV2Request.Builder request = ListObjectsV2Request.builder()
                .bucket(location.bucket())
                .prefix(location.directoryPrefix())
                .delimiter("/")
                .maxKeys(maxKeys);
        if (continuationToken != null) {
            request.continuationToken(continuationToken);
        }
        return list(location, request.build());
    }

    private ListObjectsV2Response list(S3Location location, ListObjectsV2Request request)
            throws IOException
    {
        try {
            return fileIO.call(location.toString(), "list", () -> fileIO.client().listObjectsV2(request));
        }
        catch (S3ObjectMissingException e) {
            throw new IOException("Cannot list %s: the bucket %s does not exist".formatted(location, location.bucket()), e);
        }
    }

    private static long modified(S3Object object)
    {
        return object.lastModified() == null ? 0 : object.lastModified().toEpochMilli();
    }
}
