package io.tarn.storage.manifest;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Reads and writes Avro object container files holding manifest rows.
 * <p>
 * Reading does not use Avro's decoders, which allocate whatever a length prefix asks for: the
 * container (magic {@code Obj\1}, metadata map, 16-byte sync marker, then blocks of
 * {@code count, size, bytes, sync}) is walked here with every length and count checked against
 * the bytes that remain, each block is decompressed (codecs {@code null}, {@code deflate},
 * {@code zstandard}, the latter with one decompression context and buffer per file; at most 256 MB
 * per block) and its records are decoded against the file's own writer schema, either into
 * {@link GenericRecord}s whose fields the callers pick by name, or by a caller's
 * {@link RecordDecoder} planned from that schema (as {@link ManifestEntryDecoder} does for data
 * manifests). Avro itself is used to parse the schema and to write files.
 */
final class AvroContainer
{
    private static final byte[] MAGIC = {'O', 'b', 'j', 1};
    private static final int SYNC_SIZE = 16;
    private static final int MAX_NESTING = 64;
    private static final int ZSTD_LEVEL = 1;
    // Writers cut blocks at about 64 kB (Avro's default sync interval); anything far larger is corrupt.
    private static final int MAX_BLOCK_SIZE = 256 * 1024 * 1024;

    private AvroContainer() {}

    // every manifest of a table carries the same few schemas, and parsing one costs about a tenth
    // of planning a scan; parsed schemas are not changed by the decoders, so they can be shared
    private static final int CACHED_SCHEMAS = 64;
    private static final Map<String, Schema> SCHEMAS = new LinkedHashMap<>(CACHED_SCHEMAS, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Schema> eldest)
        {
            return size() > CACHED_SCHEMAS;
        }
    };

    private static Schema parseSchema(String json)
    {
        synchronized (SCHEMAS) {
            Schema schema = SCHEMAS.get(json);
            if (schema != null) {
                return schema;
            }
        }
        Schema schema = new Schema.Parser().parse(json);
        synchronized (SCHEMAS) {
            SCHEMAS.put(json, schema);
        }
        return schema;
    }

    /**
     * Decodes every record of an Avro container file.
     *
     * @throws CorruptFileException naming {@code fileName} when the bytes are not a valid container
     * @throws UnsupportedTableFeatureException when the file uses a codec Tarn cannot decompress
     */
    static List<GenericRecord> read(byte[] file, String fileName)
            throws IOException
    {
        List<GenericRecord> records = new ArrayList<>();
        read(file, fileName, schema -> (cursor, index) -> records.add((GenericRecord) decode(schema, cursor, 0)));
        return records;
    }

    /**
     * Walks the records of an Avro container file, handing each to the decoder {@code decoders}
     * makes for the file's writer schema; the decoder must consume exactly the record's bytes.
     * Decoders report an invalid row by throwing {@link InvalidRowException}, whose error is
     * rethrown as is; every other failure is reported as a corrupt file.
     *
     * @throws CorruptFileException naming {@code fileName} when the bytes are not a valid container
     * @throws UnsupportedTableFeatureException when the file uses a codec Tarn cannot decompress
     */
    static void read(byte[] file, String fileName, RecordDecoderFactory decoders)
            throws IOException
    {
        requireNonNull(file, "file is null");
        requireNonNull(fileName, "fileName is null");
        requireNonNull(decoders, "decoders is null");
        Decompressor decompressor = null;
        try {
            AvroCursor cursor = new AvroCursor(file, 0, file.length);
            for (byte b : MAGIC) {
                if (cursor.remaining() < 1 || cursor.readByte() != b) {
                    throw new CorruptFileException("Missing the Avro magic bytes");
                }
            }
            Map<String, byte[]> metadata = readMetadata(cursor);
            byte[] sync = cursor.readFixed(SYNC_SIZE);
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
            RecordDecoder decoder = decoders.create(schema);

            long index = 0;
            while (cursor.remaining() > 0) {
                long count = cursor.readLong();
                long size = cursor.readLong();
                if (count < 0 || size < 0 || size > cursor.remaining()) {
                    throw new CorruptFileException("Block of " + count + " records and " + size
                            + " bytes at offset " + cursor.position() + ", but only " + cursor.remaining() + " bytes remain");
                }
                int blockStart = cursor.skipFixed((int) size);
                if (!Arrays.equals(sync, 0, SYNC_SIZE, file, cursor.skipFixed(SYNC_SIZE), cursor.position())) {
                    throw new CorruptFileException("Bad sync marker after the block ending at offset " + (cursor.position() - SYNC_SIZE));
                }
                AvroCursor block;
                if (codec.equals("zstandard")) {
                    if (decompressor == null) {
                        decompressor = new Decompressor();
                    }
                    block = decompressor.unzstd(file, blockStart, (int) size);
                }
                else {
                    block = decompress(codec, Arrays.copyOfRange(file, blockStart, blockStart + (int) size));
                }
                if (count > block.remaining()) {
                    throw new CorruptFileException("Block of " + count + " records in only " + block.remaining() + " bytes");
                }
                for (long i = 0; i < count; i++) {
                    decoder.decode(block, index++);
                }
                if (block.remaining() != 0) {
                    throw new CorruptFileException(block.remaining() + " undecoded bytes at the end of a block");
                }
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

    /** Makes the decoder of the records of a file from the file's writer schema. */
    interface RecordDecoderFactory
    {
        RecordDecoder create(Schema writerSchema)
                throws IOException;
    }

    /** Decodes one record, consuming exactly its bytes. */
    interface RecordDecoder
    {
        void decode(AvroCursor cursor, long index)
                throws IOException;
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

    /**
     * Writes {@code records} as an Avro container file with Paimon's codec naming:
     * {@code zstd} (Paimon's default, level 1), {@code none}, or any Avro codec name.
     */
    static byte[] write(Schema schema, List<GenericRecord> records, String compression)
    {
        requireNonNull(schema, "schema is null");
        requireNonNull(records, "records is null");
        CodecFactory codecFactory = codecFactory(requireNonNull(compression, "compression is null"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
            writer.setCodec(codecFactory);
            writer.create(schema, out);
            for (GenericRecord record : records) {
                writer.append(record);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static CodecFactory codecFactory(String compression)
    {
        String name = compression.toLowerCase(Locale.ROOT);
        try {
            return switch (name) {
                case "zstd", "zstandard" -> CodecFactory.zstandardCodec(ZSTD_LEVEL);
                case "none", "null", "uncompressed" -> CodecFactory.nullCodec();
                default -> CodecFactory.fromString(name);
            };
        }
        catch (RuntimeException e) {
            throw new IllegalArgumentException("Unsupported manifest compression: " + compression, e);
        }
    }

    private static String codec(String name, String fileName)
            throws UnsupportedTableFeatureException
    {
        if (name.equals("null") || name.equals("deflate") || name.equals("zstandard")) {
            return name;
        }
        throw new UnsupportedTableFeatureException("Avro file " + fileName + " uses the unsupported codec " + name);
    }

    private static AvroCursor decompress(String codec, byte[] compressed)
            throws IOException
    {
        byte[] bytes = switch (codec) {
            case "null" -> compressed;
            case "deflate" -> inflate(compressed);
            default -> throw new IllegalStateException("Unexpected codec " + codec);
        };
        return new AvroCursor(bytes, 0, bytes.length);
    }

    private static byte[] inflate(byte[] compressed)
            throws CorruptFileException
    {
        Inflater inflater = new Inflater(true);
        try {
            inflater.setInput(compressed);
            ByteArrayOutputStream out = new ByteArrayOutputStream(compressed.length * 4);
            byte[] chunk = new byte[64 * 1024];
            while (!inflater.finished()) {
                int count = inflater.inflate(chunk);
                if (count == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new CorruptFileException("Truncated deflate block");
                }
                out.write(chunk, 0, count);
                checkBlockSize(out.size());
            }
            return out.toByteArray();
        }
        catch (DataFormatException e) {
            throw new CorruptFileException("Invalid deflate block: " + e.getMessage(), e);
        }
        finally {
            inflater.end();
        }
    }

    private static void checkBlockSize(int size)
            throws CorruptFileException
    {
        if (size > MAX_BLOCK_SIZE) {
            throw new CorruptFileException("Avro block decompresses to more than " + MAX_BLOCK_SIZE + " bytes");
        }
    }

    private static Map<String, byte[]> readMetadata(AvroCursor cursor)
            throws CorruptFileException
    {
        Map<String, byte[]> metadata = new HashMap<>();
        while (true) {
            long count = cursor.readLong();
            if (count == 0) {
                return metadata;
            }
            if (count < 0) {
                count = -count;
                cursor.readLong();
            }
            checkCount(count, cursor);
            for (long i = 0; i < count; i++) {
                metadata.put(cursor.readString(), cursor.readBytes());
            }
        }
    }

    static Object decode(Schema schema, AvroCursor cursor, int depth)
            throws CorruptFileException
    {
        if (depth > MAX_NESTING) {
            throw new CorruptFileException("Avro value nested deeper than " + MAX_NESTING + " levels");
        }
        switch (schema.getType()) {
            case NULL:
                return null;
            case BOOLEAN: {
                byte value = cursor.readByte();
                if (value != 0 && value != 1) {
                    throw new CorruptFileException("Invalid Avro boolean " + value);
                }
                return value == 1;
            }
            case INT:
                return cursor.readInt();
            case LONG:
                return cursor.readLong();
            case FLOAT:
                return Float.intBitsToFloat(ByteBuffer.wrap(cursor.readFixed(4)).order(ByteOrder.LITTLE_ENDIAN).getInt());
            case DOUBLE:
                return Double.longBitsToDouble(ByteBuffer.wrap(cursor.readFixed(8)).order(ByteOrder.LITTLE_ENDIAN).getLong());
            case STRING:
                return cursor.readString();
            case BYTES:
                return cursor.readBytes();
            case FIXED:
                return cursor.readFixed(schema.getFixedSize());
            case ENUM: {
                int index = cursor.readInt();
                if (index < 0 || index >= schema.getEnumSymbols().size()) {
                    throw new CorruptFileException("Invalid Avro enum index " + index);
                }
                return new GenericData.EnumSymbol(schema, schema.getEnumSymbols().get(index));
            }
            case UNION: {
                long index = cursor.readLong();
                if (index < 0 || index >= schema.getTypes().size()) {
                    throw new CorruptFileException("Invalid Avro union branch " + index + " for " + schema);
                }
                return decode(schema.getTypes().get((int) index), cursor, depth + 1);
            }
            case RECORD: {
                GenericData.Record record = new GenericData.Record(schema);
                for (Schema.Field field : schema.getFields()) {
                    record.put(field.pos(), decode(field.schema(), cursor, depth + 1));
                }
                return record;
            }
            case ARRAY: {
                List<Object> items = new ArrayList<>();
                for (long count = blockCount(cursor); count != 0; count = blockCount(cursor)) {
                    for (long i = 0; i < count; i++) {
                        items.add(decode(schema.getElementType(), cursor, depth + 1));
                    }
                }
                return items;
            }
            case MAP: {
                Map<String, Object> map = new LinkedHashMap<>();
                for (long count = blockCount(cursor); count != 0; count = blockCount(cursor)) {
                    for (long i = 0; i < count; i++) {
                        map.put(cursor.readString(), decode(schema.getValueType(), cursor, depth + 1));
                    }
                }
                return map;
            }
        }
        throw new CorruptFileException("Unsupported Avro type " + schema.getType());
    }

    /**
     * Skips a value with the same checks {@link #decode} makes, without building it.
     */
    static void skip(Schema schema, AvroCursor cursor, int depth)
            throws CorruptFileException
    {
        if (depth > MAX_NESTING) {
            throw new CorruptFileException("Avro value nested deeper than " + MAX_NESTING + " levels");
        }
        switch (schema.getType()) {
            case NULL:
                return;
            case BOOLEAN: {
                byte value = cursor.readByte();
                if (value != 0 && value != 1) {
                    throw new CorruptFileException("Invalid Avro boolean " + value);
                }
                return;
            }
            case INT:
                cursor.readInt();
                return;
            case LONG:
                cursor.readLong();
                return;
            case FLOAT:
                cursor.skipFixed(4);
                return;
            case DOUBLE:
                cursor.skipFixed(8);
                return;
            case STRING:
                cursor.skipString();
                return;
            case BYTES:
                cursor.skipLength();
                return;
            case FIXED:
                cursor.skipFixed(schema.getFixedSize());
                return;
            case ENUM: {
                int index = cursor.readInt();
                if (index < 0 || index >= schema.getEnumSymbols().size()) {
                    throw new CorruptFileException("Invalid Avro enum index " + index);
                }
                return;
            }
            case UNION:
                skip(unionBranch(schema, cursor), cursor, depth + 1);
                return;
            case RECORD:
                for (Schema.Field field : schema.getFields()) {
                    skip(field.schema(), cursor, depth + 1);
                }
                return;
            case ARRAY:
                for (long count = blockCount(cursor); count != 0; count = blockCount(cursor)) {
                    for (long i = 0; i < count; i++) {
                        skip(schema.getElementType(), cursor, depth + 1);
                    }
                }
                return;
            case MAP:
                for (long count = blockCount(cursor); count != 0; count = blockCount(cursor)) {
                    for (long i = 0; i < count; i++) {
                        cursor.skipString();
                        skip(schema.getValueType(), cursor, depth + 1);
                    }
                }
                return;
        }
        throw new CorruptFileException("Unsupported Avro type " + schema.getType());
    }

    /** Reads a union's branch index and returns the branch's schema. */
    static Schema unionBranch(Schema union, AvroCursor cursor)
            throws CorruptFileException
    {
        long index = cursor.readLong();
        if (index < 0 || index >= union.getTypes().size()) {
            throw new CorruptFileException("Invalid Avro union branch " + index + " for " + union);
        }
        return union.getTypes().get((int) index);
    }

    static long blockCount(AvroCursor cursor)
            throws CorruptFileException
    {
        long count = cursor.readLong();
        if (count < 0) {
            count = -count;
            cursor.readLong();
        }
        checkCount(count, cursor);
        return count;
    }

    private static void checkCount(long count, AvroCursor cursor)
            throws CorruptFileException
    {
        // Every item of the collections in manifests takes at least one byte.
        if (count < 0 || count > cursor.remaining()) {
            throw new CorruptFileException("Avro collection of " + count + " items in only " + cursor.remaining() + " bytes");
        }
    }

    /**
     * A zstd decompression context and output buffer, reused across the blocks of one file:
     * making a context per block was a measurable share of reading a manifest.
     */
    private static final class Decompressor
    {
        private final ZstdDecompressCtx context = new ZstdDecompressCtx();
        private byte[] buffer = new byte[0];

        void close()
        {
            context.close();
        }

        /**
         * Decompresses a block into the reused buffer; the cursor is valid until the next call.
         */
        AvroCursor unzstd(byte[] file, int offset, int length)
                throws CorruptFileException
        {
            // Avro's writer streams, so frames rarely declare their size: start from a guess and grow
            long capacity = Math.max(buffer.length, Math.max(64 * 1024, Math.min((long) length * 8, MAX_BLOCK_SIZE)));
            while (true) {
                if (buffer.length < capacity) {
                    buffer = new byte[(int) capacity];
                }
                try {
                    int size = context.decompressByteArray(buffer, 0, buffer.length, file, offset, length);
                    return new AvroCursor(buffer, 0, size);
                }
                catch (ZstdException e) {
                    context.reset();
                    if (e.getErrorCode() != Zstd.errDstSizeTooSmall()) {
                        throw new CorruptFileException("Invalid zstd block: " + e.getMessage(), e);
                    }
                    if (buffer.length > MAX_BLOCK_SIZE) {
                        throw new CorruptFileException("Avro block decompresses to more than " + MAX_BLOCK_SIZE + " bytes");
                    }
                    capacity = Math.min((long) buffer.length * 2, MAX_BLOCK_SIZE + 1L);
                }
            }
        }
    }
}
