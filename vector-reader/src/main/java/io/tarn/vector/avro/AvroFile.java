package io.tarn.vector.avro;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import org.apache.avro.NameValidator;
import org.apache.avro.Schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What an {@link AvroReader} learns of a file before reading rows, shared by the readers that
 * {@link AvroReader#reopen reopen} it: the schema, the codec, the sync marker and where every
 * block lies.
 * <p>
 * An Avro object container file is the magic {@code Obj\1}, a metadata map (Avro
 * {@code map<bytes>}: blocks of entries, each a string key and a bytes value, ended by a zero
 * count; {@code avro.schema} holds the writer's schema as JSON, {@code avro.codec} the codec),
 * a 16-byte sync marker, then blocks: a long count of records, a long byte size, that many
 * (compressed) bytes of records, and the sync marker again. Nothing states the number of records
 * or blocks, so finding them walks the block headers, reading the file in large windows
 * ({@link FileWindow}). A file no larger than one window is kept in memory whole, so that its
 * rows are read without a second read.
 * <p>
 * Trust contract: the magic, every length and count, and every block's sync marker are checked
 * before use; a block must end inside the file; the header may take at most
 * {@link #MAX_HEADER_BYTES}.
 */
final class AvroFile
{
    static final int WINDOW_BYTES = 1 << 20;
    static final int MAX_HEADER_BYTES = 16 << 20;
    private static final byte[] MAGIC = {'O', 'b', 'j', 1};
    private static final int SYNC_BYTES = 16;
    // a block's count and size: two varints of at most 10 bytes each
    private static final int MAX_BLOCK_HEADER_BYTES = 20;

    private final String name;
    private final long length;
    private final Schema schema;
    private final BlockCodec codec;
    private final byte[] sync;
    // by block: where its (compressed) records start, their byte size, their count, and the
    // file position of its first record
    private final long[] blockStarts;
    private final int[] blockSizes;
    private final long[] blockRows;
    private final long[] firstRows;
    private final long rowCount;
    private final Optional<byte[]> contents;
    private final long metadataBytesRead;
    private final int readBytes;

    private AvroFile(String name, long length, Schema schema, BlockCodec codec, byte[] sync, long[] blockStarts, int[] blockSizes, long[] blockRows, long[] firstRows,
            long rowCount, Optional<byte[]> contents, long metadataBytesRead, int readBytes)
    {
        this.name = requireNonNull(name, "name is null");
        this.length = length;
        this.schema = requireNonNull(schema, "schema is null");
        this.codec = requireNonNull(codec, "codec is null");
        this.sync = sync.clone();
        this.blockStarts = blockStarts;
        this.blockSizes = blockSizes;
        this.blockRows = blockRows;
        this.firstRows = firstRows;
        this.rowCount = rowCount;
        this.contents = requireNonNull(contents, "contents is null");
        this.metadataBytesRead = metadataBytesRead;
        this.readBytes = readBytes;
    }

    /**
     * Reads and checks the header and walks the block headers of {@code input}.
     */
    static AvroFile read(DataFileInput input)
            throws IOException
    {
        return read(input, WINDOW_BYTES);
    }

    /**
     * {@link #read(DataFileInput)} reading at least {@code readBytes} at a time, and its blocks
     * in runs of about that size.
     */
    static AvroFile read(DataFileInput input, int readBytes)
            throws IOException
    {
        String name = input.name();
        long length = input.length();
        if (length < MAGIC.length + 1 + SYNC_BYTES) {
            throw new DataFileCorruptionException("File " + name + " of " + length + " bytes is too short for an Avro header");
        }
        FileWindow window = new FileWindow(input, length, readBytes);
        AvroInput cursor = new AvroInput();
        Header header = readHeader(name, length, readBytes, window, cursor);
        Schema schema = parseSchema(name, header.metadata());
        byte[] codecName = header.metadata().get("avro.codec");
        BlockCodec codec = codecName == null ? BlockCodec.NULL : BlockCodec.forName(new String(codecName, StandardCharsets.UTF_8), name);

        int capacity = 16;
        long[] starts = new long[capacity];
        int[] sizes = new int[capacity];
        long[] rows = new long[capacity];
        long[] firsts = new long[capacity];
        int blocks = 0;
        long rowCount = 0;
        long position = header.end();
        while (position < length) {
            window.ensure(position, (int) Math.min(MAX_BLOCK_HEADER_BYTES, length - position));
            window.point(cursor, position);
            long count;
            long size;
            try {
                count = cursor.readLong();
                size = cursor.readLong();
            }
            catch (CorruptDataException e) {
                throw new DataFileCorruptionException("File " + name + " has a corrupt Avro block header at offset " + position + ": " + e.getMessage(), e);
            }
            long start = window.offsetOf(cursor);
            if (count < 0 || size < 0) {
                throw new DataFileCorruptionException("File " + name + " has an Avro block at offset " + position + " with " + count + " records in " + size + " bytes");
            }
            if (size > length - start - SYNC_BYTES) {
                throw new DataFileCorruptionException("File " + name + " has an Avro block at offset " + position + " of " + size + " bytes, which runs past the end of the file ("
                        + length + " bytes) and its sync marker");
            }
            if (size > BlockDecompressor.MAX_BLOCK_BYTES) {
                throw new DataFileUnsupportedException("File " + name + " has an Avro block of " + size + " bytes, more than the " + BlockDecompressor.MAX_BLOCK_BYTES
                        + " Tarn reads at once");
            }
            long syncAt = start + size;
            window.ensure(syncAt, SYNC_BYTES);
            int syncOffset = (int) (syncAt - window.start());
            if (!Arrays.equals(window.bytes(), syncOffset, syncOffset + SYNC_BYTES, header.sync(), 0, SYNC_BYTES)) {
                throw new DataFileCorruptionException("File " + name + " has an Avro block at offset " + position + " that is not followed by the file's sync marker (at offset "
                        + syncAt + ")");
            }
            // a block of records takes at least a byte per record once decompressed, and no
            // block decompresses to more than the limit: a larger count is corrupt
            if (count > BlockDecompressor.MAX_BLOCK_BYTES) {
                throw new DataFileCorruptionException("File " + name + " has an Avro block at offset " + position + " that claims " + count + " records");
            }
            if (blocks == capacity) {
                capacity *= 2;
                starts = Arrays.copyOf(starts, capacity);
                sizes = Arrays.copyOf(sizes, capacity);
                rows = Arrays.copyOf(rows, capacity);
                firsts = Arrays.copyOf(firsts, capacity);
            }
            starts[blocks] = start;
            sizes[blocks] = (int) size;
            rows[blocks] = count;
            firsts[blocks] = rowCount;
            blocks++;
            rowCount += count;
            position = syncAt + SYNC_BYTES;
        }
        Optional<byte[]> contents = Optional.empty();
        if (window.start() == 0 && window.length() == length) {
            contents = Optional.of(Arrays.copyOf(window.bytes(), (int) length));
        }
        return new AvroFile(name, length, schema, codec, header.sync(), Arrays.copyOf(starts, blocks), Arrays.copyOf(sizes, blocks), Arrays.copyOf(rows, blocks),
                Arrays.copyOf(firsts, blocks), rowCount, contents, window.bytesRead(), readBytes);
    }

    private static Header readHeader(String name, long length, int readBytes, FileWindow window, AvroInput cursor)
            throws IOException
    {
        long limit = Math.min(length, MAX_HEADER_BYTES);
        // the first window: a small file is then read whole, at once
        int size = (int) Math.min(limit, readBytes);
        while (true) {
            window.ensure(0, size);
            window.point(cursor, 0);
            try {
                return parseHeader(name, cursor, window);
            }
            catch (CorruptDataException e) {
                if (size < limit) {
                    // the header may just be larger than what was read: read more
                    size = (int) Math.min(limit, size * 4L);
                    continue;
                }
                throw new DataFileCorruptionException("File " + name + " has a corrupt Avro header: " + e.getMessage(), e);
            }
        }
    }

    private static Header parseHeader(String name, AvroInput cursor, FileWindow window)
            throws DataFileCorruptionException
    {
        cursor.require(MAGIC.length, "the magic");
        if (!Arrays.equals(cursor.buffer(), cursor.position(), cursor.position() + MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new DataFileCorruptionException("File " + name + " is not an Avro object container file: its magic is not 'Obj' 1");
        }
        cursor.skip(MAGIC.length);
        Map<String, byte[]> metadata = new HashMap<>();
        while (true) {
            long count = cursor.readBlockCount(2);
            if (count == 0) {
                break;
            }
            for (long i = 0; i < count; i++) {
                int keyLength = cursor.readLength();
                String key = new String(cursor.buffer(), cursor.position(), keyLength, StandardCharsets.UTF_8);
                cursor.skip(keyLength);
                int valueLength = cursor.readLength();
                byte[] value = Arrays.copyOfRange(cursor.buffer(), cursor.position(), cursor.position() + valueLength);
                cursor.skip(valueLength);
                metadata.put(key, value);
            }
        }
        cursor.require(SYNC_BYTES, "the sync marker");
        byte[] sync = Arrays.copyOfRange(cursor.buffer(), cursor.position(), cursor.position() + SYNC_BYTES);
        cursor.skip(SYNC_BYTES);
        return new Header(Map.copyOf(metadata), sync, window.offsetOf(cursor));
    }

    private static Schema parseSchema(String name, Map<String, byte[]> metadata)
            throws DataFileCorruptionException
    {
        byte[] json = metadata.get("avro.schema");
        if (json == null) {
            throw new DataFileCorruptionException("File " + name + " has no avro.schema in its Avro header");
        }
        try {
            // Paimon names Avro fields after its columns, which need not be valid Avro names
            return new Schema.Parser(NameValidator.NO_VALIDATION)
                    .setValidateDefaults(false)
                    .parse(new String(json, StandardCharsets.UTF_8));
        }
        catch (RuntimeException e) {
            throw new DataFileCorruptionException("File " + name + " has an Avro schema that cannot be parsed: " + e.getMessage(), e);
        }
    }

    String name()
    {
        return name;
    }

    long length()
    {
        return length;
    }

    Schema schema()
    {
        return schema;
    }

    BlockCodec codec()
    {
        return codec;
    }

    int blockCount()
    {
        return blockStarts.length;
    }

    long blockStart(int block)
    {
        return blockStarts[block];
    }

    int blockSize(int block)
    {
        return blockSizes[block];
    }

    long blockRows(int block)
    {
        return blockRows[block];
    }

    long firstRow(int block)
    {
        return firstRows[block];
    }

    /**
     * Whether the 16 bytes at {@code bytes[offset]} are the file's sync marker.
     */
    boolean isSync(byte[] bytes, int offset)
    {
        return Arrays.equals(bytes, offset, offset + SYNC_BYTES, sync, 0, SYNC_BYTES);
    }

    static int syncBytes()
    {
        return SYNC_BYTES;
    }

    long rowCount()
    {
        return rowCount;
    }

    /**
     * The whole file, when it was small enough to keep from the walk over its blocks.
     */
    Optional<byte[]> contents()
    {
        return contents;
    }

    /**
     * The bytes read to parse the header and walk the blocks.
     */
    long metadataBytesRead()
    {
        return metadataBytesRead;
    }

    /**
     * How many bytes the readers of this file read at least at a time (but at the file's end).
     */
    int readBytes()
    {
        return readBytes;
    }

    /**
     * The heap this object holds: the block table and the kept contents.
     */
    long retainedBytes()
    {
        return blockStarts.length * 28L + contents.map(bytes -> (long) bytes.length).orElse(0L);
    }

    private record Header(Map<String, byte[]> metadata, byte[] sync, long end) {}
}
