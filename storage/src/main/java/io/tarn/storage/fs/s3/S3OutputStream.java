package io.tarn.storage.fs.s3;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static java.util.Objects.checkFromIndexSize;

/**
 * Writes an object: one PUT when it fits in a part, else a multipart upload of parts of
 * {@link #PART_SIZE} bytes, so that at most one part is held in memory. Nothing is visible before
 * {@link #close()} completes; a failed upload is aborted, so that the store keeps no parts.
 */
final class S3OutputStream
        extends OutputStream
{
    // S3's smallest part is 5 MiB; larger parts mean fewer requests for a data file
    static final int PART_SIZE = 16 << 20;

    private final S3FileIO fileIO;
    private final String path;
    private final S3Location location;
    private final List<CompletedPart> parts = new ArrayList<>();
    private byte[] buffer = new byte[64 << 10];
    private int size;
    private long written;
    private String uploadId;
    private boolean closed;
    private boolean failed;

    S3OutputStream(S3FileIO fileIO, String path, S3Location location)
    {
        this.fileIO = fileIO;
        this.path = path;
        this.location = location;
    }

    @Override
    public void write(int value)
            throws IOException
    {
        write(new byte[] {(byte) value}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length)
            throws IOException
    {
        checkFromIndexSize(offset, length, bytes.length);
        ensureOpen();
        while (length > 0) {
            int chunk = Math.min(length, PART_SIZE - size);
            if (size + chunk > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.min(PART_SIZE, Math.max(size + chunk, buffer.length * 2)));
            }
            System.arraycopy(bytes, offset, buffer, size, chunk);
            size += chunk;
            written += chunk;
            offset += chunk;
            length -= chunk;
            if (size == PART_SIZE) {
                uploadPart();
            }
        }
    }

    @Override
    public void close()
            throws IOException
    {
        if (closed) {
            return;
        }
        closed = true;
        if (failed) {
            abort();
            return;
        }
        try {
            if (uploadId == null) {
                // an object created here must not replace one that appeared meanwhile
                if (!fileIO.putIfAbsent(path, location, Arrays.copyOf(buffer, size))) {
                    throw new FileAlreadyExistsException(path);
                }
                return;
            }
            if (size > 0) {
                uploadPart();
            }
            complete();
        }
        catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    private void complete()
            throws IOException
    {
        CompletedMultipartUpload upload = CompletedMultipartUpload.builder().parts(parts).build();
        try {
            fileIO.call(path, "write", () -> fileIO.client().completeMultipartUpload(request -> request.bucket(location.bucket()).key(location.key()).uploadId(uploadId).multipartUpload(upload)));
        }
        catch (S3ObjectMissingException e) {
            // 404 NoSuchUpload: the upload is gone. When the SDK retried a completion whose answer
            // was lost, it is gone because it completed; the object then has every byte written
            if (fileIO.objectLength(path, location) != written) {
                throw new IOException("Cannot write %s: the store no longer knows its multipart upload %s".formatted(path, uploadId), e);
            }
        }
    }

    private void uploadPart()
            throws IOException
    {
        try {
            if (uploadId == null) {
                CreateMultipartUploadRequest create = CreateMultipartUploadRequest.builder().bucket(location.bucket()).key(location.key()).build();
                uploadId = fileIO.call(path, "write", () -> fileIO.client().createMultipartUpload(create)).uploadId();
            }
            int partNumber = parts.size() + 1;
            UploadPartRequest request = UploadPartRequest.builder()
                    .bucket(location.bucket())
                    .key(location.key())
                    .uploadId(uploadId)
                    .partNumber(partNumber)
                    .contentLength((long) size)
                    .build();
            byte[] part = Arrays.copyOf(buffer, size);
            String eTag = fileIO.call(path, "write", () -> fileIO.client().uploadPart(request, RequestBody.fromBytes(part))).eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
            size = 0;
        }
        catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    private void abort()
    {
        if (uploadId == null) {
            return;
        }
        try {
            AbortMultipartUploadRequest request = AbortMultipartUploadRequest.builder().bucket(location.bucket()).key(location.key()).uploadId(uploadId).build();
            fileIO.call(path, "abort the upload of", () -> fileIO.client().abortMultipartUpload(request));
        }
        catch (IOException e) {
            // the store expires incomplete uploads by its lifecycle rules; the caller's failure matters more
        }
    }

    private void ensureOpen()
            throws IOException
    {
        if (closed) {
            throw new IOException("Stream to " + path + " is closed");
        }
        if (failed) {
            throw new IOException("An earlier part of " + path + " failed to upload");
        }
    }
}
