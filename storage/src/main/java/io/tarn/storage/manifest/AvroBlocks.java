package io.tarn.storage.manifest;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Walks the blocks of an Avro object container file held in memory: magic {@code Obj\1}, a
 * metadata map ({@code avro.schema}, {@code avro.codec}), a 16-byte sync marker, then blocks of
 * {@code count, size, bytes, sync}. Every length and count is checked against the bytes that remain
 * before anything is allocated for it, each sync marker is compared, and each block is decompressed
 * (codecs {@code null}, {@code deflate}, {@code zstandard} and {@code snappy}; at most 256 MB per block) and handed
 * to a {@link BlockReader} made for the file's writer schema. Varints are read with Avro's
 * {@link BinaryDecoder}. Writer schemas nested deeper than 64 levels (recursive ones among them),
 * or with arrays or maps whose items can take no bytes, are refused: their values could exhaust
 * the stack, or the heap, from a few bytes.
 * <p>
 * Avro's own {@code DataFileStream} is not used because, in Avro 1.12.1 (the release Tarn builds
 * with), it is not safe on untrusted bytes: it allocates a block's buffer at the size the block
 * header claims (up to 2 GB) before reading it, allocates metadata values likewise, and its codecs
 * decompress without any bound. Avro's main branch bounds all three since (AVRO-4323, AVRO-4241,
 * AVRO-4247), in no release yet; once Tarn builds with one that has them, this walk can give way to
 * {@code DataFileStream}. Snappy blocks are decompressed by aircompressor's snappy, not by
 * snappy-java, which is not on Tarn's class path.
 */
final class AvroBlocks
{
    private static final byte[] MAGIC = {'O', 'b', 'j', 1};
    private static final int SYNC_SIZE = 16;
    // Writers cut blocks at about 64 kB (Avro's default sync interval); anything far larger is corrupt.
    private static final int MAX_BLOCK_SIZE = 256 * 1024 * 1024;
    private static final int MAX_NESTING = 64;

    // every manifest of a table carries the same few schemas, and parsing one costs about a tenth
    // of planning a scan; parsed schemas are not changed by the readers, so they can be shared
    private static final int CACHED_SCHEMAS = 64;
    private static final Map<String, Schema> SCHEMAS = new LinkedHashMap<>(CACHED_SCHEMAS, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Schema> eldest)
        {
            return size() > CACHED_SCHEMAS;
        }
    };

    private AvroBlocks() {}

    /** Makes the reader of the blocks of a file from the file's writer schema. */
    interface BlockReaderFactory
    {
        BlockReader create(Schema writerSchema)
                throws IOException;
    }

    /** Reads the records of one decompressed block; they must take exactly its bytes. */
    interface BlockReader
    {
        /**
         * @param bytes valid only during the call: the buffer is reused for the next block
         * @param firstIndex the index in the file of the block's first record
         */
        void read(byte[] bytes, int offset, int length, long count, long firstIndex)
                throws IOException;
    }

    /**
     * Hands every block of an Avro container file to the reader {@code readers} makes for the
     * file's writer schema. A reader reports an invalid row by throwing {@link InvalidRowException},
     * whose error is rethrown as is; every other failure is reported as a corrupt file.
     *
     * @throws CorruptFileException naming {@code fileName} when the bytes are not a valid container
     * @throws UnsupportedTableFeatureException when the file uses a codec Tarn cannot decompress
     */
    static void read(byte[] file, String fileName, BlockReaderFactory readers)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        requireNonNull(file, "file is null");
        requireNonNull(fileName, "fileName is null");
        requireNonNull(readers, "readers is null");
        Decompressor decompressor = null;
        try {
            BinaryDecoder in = DecoderFactory.get().binaryDecoder(file, null);
            byte[] magic = new byte[MAGIC.length];
            readFixed(in, magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new CorruptFileException("Missing the Avro magic bytes");
            }
            Map<String, byte[]> metadata = readMetadata(in);
            byte[] sync = new byte[SYNC_SIZE];
            readFixed(in, sync);
            byte[] schemaJson = metadata.get("avro.schema");
            if (schemaJson == null) {
                throw new CorruptFileException("No avro.schema in the header");
            }
            Schema schema = parseSchema(new String(schemaJson, UTF_8));
            byte[] codecName = metadata.get("avro.codec");
            String codec = codec(codecName == null ? "null" : new String(codecName, UTF_8), fileName);
            if (schema.getType() != Schema.Type.RECORD) {
                throw new CorruptFileException("The Avro schema is not a record but " + schema.getType());
            }
            if (canBeEmpty(schema)) {
                throw new CorruptFileException("Avro records that take no bytes: " + schema);
            }
            BlockReader reader = readers.create(schema);

            byte[] blockSync = new byte[SYNC_SIZE];
            long index = 0;
            while (!in.isEnd()) {
                long count = in.readLong();
                long size = in.readLong();
                int remaining = remaining(in);
                if (count < 0 || size < 0 || size > remaining) {
                    throw new CorruptFileException("Block of " + count + " records and " + size
                            + " bytes at offset " + (file.length - remaining) + ", but only " + remaining + " bytes remain");
                }
                int blockStart = file.length - remaining;
                in.skipFixed((int) size);
                readFixed(in, blockSync);
                if (!Arrays.equals(sync, blockSync)) {
                    throw new CorruptFileException("Bad sync marker after the block ending at offset " + (blockStart + size));
                }
                byte[] block = file;
                int offset = blockStart;
                int length = (int) size;
                if (!codec.equals("null")) {
                    if (decompressor == null) {
                        decompressor = new Decompressor();
                    }
                    length = switch (codec) {
                        case "zstandard" -> decompressor.unzstd(file, blockStart, length);
                        case "snappy" -> decompressor.unsnappy(file, blockStart, length);
                        default -> decompressor.inflate(file, blockStart, length);
                    };
                    block = decompressor.buffer();
                    offset = 0;
                }
                // every record takes at least a byte: see canBeEmpty above
                if (count > length) {
                    throw new CorruptFileException("Block of " + count + " records in only " + length + " bytes");
                }
                reader.read(block, offset, length, count, index);
                index += count;
            }
        }
        catch (UnsupportedTableFeatureException e) {
            throw e;
        }
        catch (InvalidRowException e) {
            throw e.error();
        }
        catch (IOException | RuntimeException e) {
            throw new CorruptFileException("Avro file " + fileName + " is corrupt: " + e.getMessage(), e);
        }
        finally {
            if (decompressor != null) {
                decompressor.close();
            }
        }
    }

    /** A row that is valid Avro but not a valid row of the file's kind. */
    static final class InvalidRowException
            extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        private final CorruptFileException error;

        InvalidRowException(CorruptFileException error)
        {
            super(error.getMessage(), error);
            this.error = error;
        }

        CorruptFileException error()
        {
            return error;
        }
    }

    private static Schema parseSchema(String json)
            throws CorruptFileException
    {
        synchronized (SCHEMAS) {
            Schema schema = SCHEMAS.get(json);
            if (schema != null) {
                return schema;
            }
        }
        Schema schema = new Schema.Parser().parse(json);
        checkSchema(schema, 0, Collections.newSetFromMap(new IdentityHashMap<>()));
        synchronized (SCHEMAS) {
            SCHEMAS.put(json, schema);
        }
        return schema;
    }

    /**
     * @param checked the records found valid, so that a record used in many places is checked once
     */
    private static void checkSchema(Schema schema, int depth, Set<Schema> checked)
            throws CorruptFileException
    {
        if (depth > MAX_NESTING) {
            // a recursive schema ends here too: its records nest without end
            throw new CorruptFileException("Avro schema nested deeper than " + MAX_NESTING + " levels");
        }
        switch (schema.getType()) {
            case RECORD -> {
                if (!checked.contains(schema)) {
                    for (Schema.Field field : schema.getFields()) {
                        checkSchema(field.schema(), depth + 1, checked);
                    }
                    checked.add(schema);
                }
            }
            case UNION -> {
                for (Schema branch : schema.getTypes()) {
                    checkSchema(branch, depth + 1, checked);
                }
            }
            case ARRAY -> checkItems(schema.getElementType(), depth, checked);
            case MAP -> checkItems(schema.getValueType(), depth, checked);
            default -> {}
        }
    }

    private static void checkItems(Schema items, int depth, Set<Schema> checked)
            throws CorruptFileException
    {
        checkSchema(items, depth + 1, checked);
        if (canBeEmpty(items)) {
            throw new CorruptFileException("Avro collection of items that take no bytes: " + items);
        }
    }

    /** Whether a value of {@code schema} can be encoded in no bytes; the schema is not recursive. */
    private static boolean canBeEmpty(Schema schema)
    {
        return switch (schema.getType()) {
            case NULL -> true;
            case FIXED -> schema.getFixedSize() == 0;
            case RECORD -> schema.getFields().stream().allMatch(field -> canBeEmpty(field.schema()));
            default -> false;
        };
    }

    private static String codec(String name, String fileName)
            throws UnsupportedTableFeatureException
    {
        if (name.equals("null") || name.equals("deflate") || name.equals("zstandard") || name.equals("snappy")) {
            return name;
        }
        throw new UnsupportedTableFeatureException("Avro file " + fileName + " uses the unsupported codec " + name);
    }

    private static Map<String, byte[]> readMetadata(BinaryDecoder in)
            throws IOException
    {
        Map<String, byte[]> metadata = new HashMap<>();
        for (long count = checkCount(in, in.readMapStart()); count != 0; count = checkCount(in, in.mapNext())) {
            for (long i = 0; i < count; i++) {
                String key = new String(readLengthPrefixed(in), UTF_8);
                metadata.put(key, readLengthPrefixed(in));
            }
        }
        return metadata;
    }

    private static long checkCount(BinaryDecoder in, long count)
            throws IOException
    {
        // every entry of the metadata map takes at least two bytes (its key and value lengths)
        if (count > remaining(in)) {
            throw new CorruptFileException("Avro metadata of " + count + " entries in only " + remaining(in) + " bytes");
        }
        return count;
    }

    private static byte[] readLengthPrefixed(BinaryDecoder in)
            throws IOException
    {
        long length = in.readLong();
        if (length < 0 || length > remaining(in)) {
            throw new CorruptFileException("Avro metadata value of " + length + " bytes, but only " + remaining(in) + " bytes remain");
        }
        byte[] bytes = new byte[(int) length];
        in.readFixed(bytes);
        return bytes;
    }

    private static void readFixed(BinaryDecoder in, byte[] bytes)
            throws IOException
    {
        if (bytes.length > remaining(in)) {
            throw new CorruptFileException("Avro file ends " + (bytes.length - remaining(in)) + " bytes early");
        }
        in.readFixed(bytes);
    }

    /** The bytes left to read: the decoder reads straight from the array, so its stream knows them. */
    private static int remaining(BinaryDecoder in)
            throws IOException
    {
        return in.inputStream().available();
    }

    /**
     * A zstd decompression context, an inflater and an output buffer, reused across the blocks of
     * one file: making a context per block was a measurable share of reading a manifest. The buffer
     * grows by doubling, never past the bound, as a few compressed bytes can claim gigabytes.
     */
    private static final class Decompressor
    {
        private ZstdDecompressCtx zstd;
        private Inflater inflater;
        private byte[] buffer = new byte[0];

        void close()
        {
            if (zstd != null) {
                zstd.close();
            }
            if (inflater != null) {
                inflater.end();
            }
        }

        /** The decompressed bytes of the last block, valid until the next call. */
        byte[] buffer()
        {
            return buffer;
        }

        /**
         * Decompresses a zstd block into {@link #buffer()} and returns its length.
         */
        int unzstd(byte[] file, int offset, int length)
                throws CorruptFileException
        {
            if (zstd == null) {
                zstd = new ZstdDecompressCtx();
            }
            // Avro's writer streams, so frames rarely declare their size: start from a guess and grow
            ensureCapacity(Math.min((long) length * 8, MAX_BLOCK_SIZE));
            while (true) {
                try {
                    return zstd.decompressByteArray(buffer, 0, buffer.length, file, offset, length);
                }
                catch (ZstdException e) {
                    zstd.reset();
                    if (e.getErrorCode() != Zstd.errDstSizeTooSmall()) {
                        throw new CorruptFileException("Invalid zstd block: " + e.getMessage(), e);
                    }
                    grow();
                }
            }
        }

        /**
         * Decompresses a snappy block into {@link #buffer()} and returns its length. Avro's snappy
         * codec follows the raw snappy bytes with the CRC-32 of the decompressed bytes, big-endian.
         */
        int unsnappy(byte[] file, int offset, int length)
                throws CorruptFileException
        {
            if (length < Integer.BYTES) {
                throw new CorruptFileException("Snappy block of " + length + " bytes has no checksum");
            }
            int compressed = length - Integer.BYTES;
            int declared;
            try {
                declared = SnappyDecompressor.getUncompressedLength(file, offset);
            }
            catch (RuntimeException e) {
                throw new CorruptFileException("Invalid snappy block: " + e.getMessage(), e);
            }
            if (declared < 0 || declared > MAX_BLOCK_SIZE) {
                throw new CorruptFileException("Snappy block declares " + declared + " bytes, beyond the bound of " + MAX_BLOCK_SIZE);
            }
            ensureCapacity(declared);
            int size;
            try {
                size = new SnappyDecompressor().decompress(file, offset, compressed, buffer, 0, buffer.length);
            }
            catch (RuntimeException e) {
                throw new CorruptFileException("Invalid snappy block: " + e.getMessage(), e);
            }
            CRC32 crc = new CRC32();
            crc.update(buffer, 0, size);
            int expected = ByteBuffer.wrap(file, offset + compressed, Integer.BYTES).getInt();
            if ((int) crc.getValue() != expected) {
                throw new CorruptFileException("Snappy block fails its checksum");
            }
            return size;
        }

        /**
         * Decompresses a deflate block (raw, without zlib header, as Avro writes it) into
         * {@link #buffer()} and returns its length.
         */
        int inflate(byte[] file, int offset, int length)
                throws CorruptFileException
        {
            if (inflater == null) {
                inflater = new Inflater(true);
            }
            inflater.reset();
            inflater.setInput(file, offset, length);
            ensureCapacity(Math.min((long) length * 4, MAX_BLOCK_SIZE));
            int size = 0;
            try {
                while (!inflater.finished()) {
                    if (size == buffer.length) {
                        grow();
                    }
                    int count = inflater.inflate(buffer, size, buffer.length - size);
                    if (count == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        throw new CorruptFileException("Truncated deflate block");
                    }
                    size += count;
                }
            }
            catch (DataFormatException e) {
                throw new CorruptFileException("Invalid deflate block: " + e.getMessage(), e);
            }
            return size;
        }

        private void ensureCapacity(long capacity)
        {
            if (buffer.length < capacity) {
                buffer = new byte[(int) Math.max(capacity, 64 * 1024)];
            }
        }

        private void grow()
                throws CorruptFileException
        {
            if (buffer.length >= MAX_BLOCK_SIZE) {
                throw new CorruptFileException("Avro block decompresses to more than " + MAX_BLOCK_SIZE + " bytes");
            }
            buffer = Arrays.copyOf(buffer, (int) Math.min(2L * buffer.length, MAX_BLOCK_SIZE));
        }
    }
}
