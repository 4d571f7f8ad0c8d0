package io.tarn.storage.fs.s3;

import java.util.Locale;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A path of an object store, {@code scheme://bucket/key}, as a bucket and a key. The key has no
 * leading slash; the bucket's root has the empty key.
 */
record S3Location(String scheme, String bucket, String key)
{
    static final Set<String> SCHEMES = Set.of("s3", "s3a", "s3n", "oss");

    S3Location
    {
        requireNonNull(scheme, "scheme is null");
        requireNonNull(bucket, "bucket is null");
        requireNonNull(key, "key is null");
    }

    /**
     * @throws IllegalArgumentException if {@code path} is not an object-store path
     */
    static S3Location parse(String path)
    {
        requireNonNull(path, "path is null");
        int schemeEnd = path.indexOf("://");
        if (schemeEnd <= 0 || !SCHEMES.contains(path.substring(0, schemeEnd).toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("Not an object-store path (s3://bucket/key): " + path);
        }
        String rest = path.substring(schemeEnd + 3);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("No bucket in object-store path: " + path);
        }
        String key = slash < 0 ? "" : rest.substring(slash + 1);
        while (key.endsWith("/")) {
            key = key.substring(0, key.length() - 1);
        }
        return new S3Location(path.substring(0, schemeEnd), bucket, key);
    }

    static boolean isObjectStorePath(String path)
    {
        int schemeEnd = path.indexOf("://");
        return schemeEnd > 0 && SCHEMES.contains(path.substring(0, schemeEnd).toLowerCase(Locale.ROOT));
    }

    /**
     * The key prefix of the objects below this location, as a directory: empty at the bucket's
     * root, else the key and a slash.
     */
    String directoryPrefix()
    {
        return key.isEmpty() ? "" : key + "/";
    }

    @Override
    public String toString()
    {
        return scheme + "://" + bucket + "/" + key;
    }
}
