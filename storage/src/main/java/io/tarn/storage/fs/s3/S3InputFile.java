package io.tarn.storage.fs.s3;

import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.RandomAccessInput;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

import java.io.ByteArrayInputStream;
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
 * <p>
 * An object opened with the length the table's metadata records needs no request to learn it:
 * at most {@link S3Settings#smallObjectThreshold} long, its first read fetches it whole, one
 * request, and every later read is served from memory (it is then not {@link #remote()});
 * longer, a read within its last {@link #TAIL_BYTES} fetches that tail by an explicit range, and
 * other reads their own ranges. Each fetch checks the object has the length recorded.
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
    // whether the first read fetches the whole object, of a length known in advance
    private final boolean fetchWhole;
    private long length = -1;
    // the object's last bytes (all of them, if held whole), or null before they are fetched
    // volatile: the fetches ahead of a reader run on other threads, and may find it set
    private volatile byte[] tail;

    S3InputFile(S3FileIO fileIO, String path, S3Location location)
    {
        this.fileIO = fileIO;
        this.path = path;
        this.location = location;
        this.fetchWhole = false;
    }

    /**
     * An object whose length is known to be {@code length}, fetched whole by its first read when
     * {@code fetchWhole}.
     */
    S3InputFile(S3FileIO fileIO, String path, S3Location location, long length, boolean fetchWhole)
    {
        if (length < 0) {
            throw new IllegalArgumentException("Negative length " + length + " of " + path);
        }
        this.fileIO = fileIO;
        this.path = path;
        this.location = location;
        this.length = length;
        this.fetchWhole = fetchWhole;
        if (length == 0) {
            // nothing to fetch
            tail = new byte[0];
        }
    }

    @Override
    public String path()
    {
        return path;
    }

    @Override
    public boolean remote()
    {
        return !fetchWhole;
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

    /**
     * Fetches bytes {@code [start, length)} of an object whose length is known, as its tail,
     * checking the store holds exactly that many.
     */
    private void loadKnownTail(long start)
            throws IOException
    {
        fileIO.withBodyRetries(path, () -> {
            GetObjectRequest range = request().range("bytes=%d-%d".formatted(start, length - 1)).build();
            try (ResponseInputStream<GetObjectResponse> body = fileIO.call(path, "read", () -> fileIO.client().getObject(range))) {
                // one byte more than asked for tells an object longer than recorded, from a store that ignores ranges
                byte[] bytes = body.readNBytes((int) (length - start) + 1);
                fileIO.countBytesRead(bytes.length);
                String contentRange = body.response().contentRange();
                Matcher matcher = contentRange == null ? null : CONTENT_RANGE.matcher(contentRange);
                // a store that ignores the range sends the whole object, without Content-Range
                long stored = matcher != null && matcher.matches() ? Long.parseLong(matcher.group(3)) : start + bytes.length;
                if (stored != length || bytes.length != length - start) {
                    throw new EOFException("Cannot read %s: the table's metadata records %d bytes, but the store answered bytes %d-%d with %d bytes (Content-Range %s)"
                            .formatted(path, length, start, length - 1, bytes.length, contentRange));
                }
                tail = bytes;
            }
            return null;
        });
    }

    @Override
    public InputStream newStream()
            throws IOException
    {
        if (fetchWhole) {
            loadWholeIfNeeded();
            return new ByteArrayInputStream(tail);
        }
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
        if (fetchWhole) {
            loadWholeIfNeeded();
            return tail.clone();
        }
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
        if (position + count > length) {
            throw new EOFException("%s ends before byte %d: it has %d bytes (reading %d bytes at %d)".formatted(path, position + count, length, count, position));
        }
        if (fetchWhole) {
            loadWholeIfNeeded();
        }
        else if (tail == null && position >= Math.max(0, length - TAIL_BYTES)) {
            // a footer: its tail serves the reads near it that follow
            loadKnownTail(Math.max(0, length - TAIL_BYTES));
        }
        byte[] held = tail;
        long tailStart = held == null ? length : length - held.length;
        if (position >= tailStart && position + count <= length) {
            System.arraycopy(held, (int) (position - tailStart), buffer, offset, count);
            return;
        }
        fileIO.withBodyRetries(path, () -> {
            readRange(position, buffer, offset, count);
            return null;
        });
    }

    @Override
    public long heldBytes()
    {
        byte[] held = tail;
        return held == null ? 0 : held.length;
    }

    @Override
    public long fetchAheadBytes()
    {
        if (tail != null) {
            return 0;
        }
        if (length < 0) {
            return TAIL_BYTES;
        }
        return fetchWhole ? length : Math.min(length, TAIL_BYTES);
    }

    @Override
    public void fetchAhead()
            throws IOException
    {
        if (tail != null) {
            return;
        }
        if (length < 0) {
            loadTail();
        }
        else {
            // the same fetch as the first read's: the whole object, or the tail holding the footer
            loadKnownTail(fetchWhole ? 0 : Math.max(0, length - TAIL_BYTES));
        }
    }

    private void loadWholeIfNeeded()
            throws IOException
    {
        if (tail == null) {
            loadKnownTail(0);
        }
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
