package io.tarn.storage.fs.s3;

import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.RandomAccessInput;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import static java.util.Objects.checkFromIndexSize;

/**
 * An object read by GET requests: a range per {@link #readFully}, the whole body per stream. The
 * length is asked for once (HEAD) and kept, since objects are never changed in place.
 */
final class S3InputFile
        implements InputFile
{
    private final S3FileIO fileIO;
    private final String path;
    private final S3Location location;
    private long length = -1;

    S3InputFile(S3FileIO fileIO, String path, S3Location location)
    {
        this.fileIO = fileIO;
        this.path = path;
        this.location = location;
    }

    @Override
    public String path()
    {
        return path;
    }

    @Override
    public long length()
            throws IOException
    {
        if (length < 0) {
            long found = fileIO.objectLength(path, location);
            if (found < 0) {
                throw new S3ObjectMissingException(path);
            }
            length = found;
        }
        return length;
    }

    @Override
    public InputStream newStream()
            throws IOException
    {
        ResponseInputStream<GetObjectResponse> body = fileIO.call(path, "read", () -> fileIO.client().getObject(request().build()));
        return new FilterInputStream(body)
        {
            @Override
            public int read()
                    throws IOException
            {
                int value = super.read();
                if (value >= 0) {
                    fileIO.countBytesRead(1);
                }
                return value;
            }

            @Override
            public int read(byte[] buffer, int offset, int count)
                    throws IOException
            {
                int read = super.read(buffer, offset, count);
                if (read > 0) {
                    fileIO.countBytesRead(read);
                }
                return read;
            }
        };
    }

    @Override
    public byte[] readAllBytes()
            throws IOException
    {
        try (InputStream in = newStream()) {
            return in.readAllBytes();
        }
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int count)
            throws IOException
    {
        checkFromIndexSize(offset, count, buffer.length);
        if (position < 0) {
            throw new IllegalArgumentException("Negative position " + position + " in " + path);
        }
        if (count == 0) {
            return;
        }
        GetObjectRequest range = request().range("bytes=%d-%d".formatted(position, position + count - 1)).build();
        try (ResponseInputStream<GetObjectResponse> body = fileIO.call(path, "read", () -> fileIO.client().getObject(range))) {
            int read = body.readNBytes(buffer, offset, count);
            fileIO.countBytesRead(read);
            if (read < count) {
                throw new EOFException("%s ends before byte %d: read %d of %d bytes at %d".formatted(path, position + count, read, count, position));
            }
        }
        catch (IOException e) {
            if (e instanceof S3ObjectMissingException || e instanceof EOFException) {
                throw e;
            }
            // a range that starts at or beyond the end answers 416
            if (e.getMessage() != null && e.getMessage().contains("HTTP 416")) {
                throw new EOFException("%s ends before byte %d (reading %d bytes at %d)".formatted(path, position + count, count, position));
            }
            throw e;
        }
    }

    @Override
    public RandomAccessInput openRandomAccess()
    {
        // every read is its own request already: nothing to hold open
        return new RandomAccessInput()
        {
            @Override
            public long length()
                    throws IOException
            {
                return S3InputFile.this.length();
            }

            @Override
            public void readFully(long position, byte[] buffer, int offset, int count)
                    throws IOException
            {
                S3InputFile.this.readFully(position, buffer, offset, count);
            }

            @Override
            public void close() {}
        };
    }

    private GetObjectRequest.Builder request()
    {
        return GetObjectRequest.builder().bucket(location.bucket()).key(location.key());
    }
}
