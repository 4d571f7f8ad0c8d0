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
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.checkFromIndexSize;

/**
 * An object read by GET requests: a range per {@link #readFully}, the whole body per stream.
 * <p>
 * Readers of Parquet start at the end: the length, the last 8 bytes, then the footer before them.
 * So the first positioned read or length asked for fetches the object's last {@link #TAIL_BYTES}
 * in one suffix-range GET, whose answer also gives the length; later reads that fall in that tail
 * are served from it. A small object thus costs one request whatever is read of it, and a large
 * one a request for its footer and one per range outside it. Objects are never changed in place,
 * so the tail stays valid.
 */
final class S3InputFile
        implements InputFile
{
    // most footers fit, and a request costs about what 64 kB take to transfer
    static final int TAIL_BYTES = 64 * 1024;
    private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+)");

    private final S3FileIO fileIO;
    private final String path;
    private final S3Location location;
    private long length = -1;
    private byte[] tail;

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
    public boolean remote()
    {
        return true;
    }

    @Override
    public long length()
            throws IOException
    {
        if (length < 0) {
            loadTail();
        }
        return length;
    }

    /**
     * Fetches the object's last {@link #TAIL_BYTES} (all of it, if smaller) and its length.
     */
    private void loadTail()
            throws IOException
    {
        fileIO.withBodyRetries(path, () -> {
            fetchTail();
            return null;
        });
    }

    private void fetchTail()
            throws IOException
    {
        GetObjectRequest suffix = request().range("bytes=-" + TAIL_BYTES).build();
        try (ResponseInputStream<GetObjectResponse> body = fileIO.call(path, "read", () -> fileIO.client().getObject(suffix))) {
            byte[] bytes = body.readAllBytes();
            fileIO.countBytesRead(bytes.length);
            String contentRange = body.response().contentRange();
            Matcher range = contentRange == null ? null : CONTENT_RANGE.matcher(contentRange);
            if (range != null && range.matches()) {
                length = Long.parseLong(range.group(3));
            }
            else if (contentRange == null && bytes.length < TAIL_BYTES) {
                // a store that ignores the range sends the whole object
                length = bytes.length;
            }
            else {
                throw new IOException("Cannot read %s: the store answered a suffix range with Content-Range %s".formatted(path, contentRange));
            }
            if (bytes.length > length) {
                throw new IOException("Cannot read %s: the store sent %d bytes of an object of %d".formatted(path, bytes.length, length));
            }
            tail = bytes.length <= TAIL_BYTES ? bytes : Arrays.copyOfRange(bytes, bytes.length - TAIL_BYTES, bytes.length);
        }
        catch (IOException e) {
            if (S3FileIO.status(e) != 416) {
                throw e;
            }
            // an empty object has no suffix to send
            long found = fileIO.objectLength(path, location);
            if (found < 0) {
                throw new S3ObjectMissingException(path);
            }
            length = found;
            tail = new byte[0];
        }
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
        return fileIO.withBodyRetries(path, () -> {
            try (InputStream in = newStream()) {
                return in.readAllBytes();
            }
        });
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
        if (length < 0) {
            loadTail();
        }
        long tailStart = length - tail.length;
        if (position >= tailStart && position + count <= length) {
            System.arraycopy(tail, (int) (position - tailStart), buffer, offset, count);
            return;
        }
        if (position + count > length) {
            throw new EOFException("%s ends before byte %d: it has %d bytes (reading %d bytes at %d)".formatted(path, position + count, length, count, position));
        }
        fileIO.withBodyRetries(path, () -> {
            readRange(position, buffer, offset, count);
            return null;
        });
    }

    private void readRange(long position, byte[] buffer, int offset, int count)
            throws IOException
    {
        GetObjectRequest range = request().range("bytes=%d-%d".formatted(position, position + count - 1)).build();
        try (ResponseInputStream<GetObjectResponse> body = fileIO.call(path, "read", () -> fileIO.client().getObject(range))) {
            int read = body.readNBytes(buffer, offset, count);
            fileIO.countBytesRead(read);
            if (read < count) {
                throw new EOFException("%s ends before byte %d: read %d of %d bytes at %d".formatted(path, position + count, read, count, position));
            }
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
