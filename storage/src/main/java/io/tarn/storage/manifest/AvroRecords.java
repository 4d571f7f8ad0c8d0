package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Reads the records of an Avro container file with Avro's generic reader, the file's
 * writer schema serving as reader schema too: callers pick fields by name ({@link AvroFields}),
 * so files of every Paimon release read alike. Blocks come from {@link AvroBlocks}, records are
 * decoded by a {@link BoundedDatumReader}. Writes files with Avro's {@link DataFileWriter}.
 */
final class AvroRecords
{
    private static final int ZSTD_LEVEL = 1;

    private AvroRecords() {}

    /**
     * Decodes every record of an Avro container file.
     *
     * @throws CorruptFileException naming {@code fileName} when the bytes are not a valid container
     * @throws UnsupportedTableFeatureException when the file uses a codec Tarn cannot decompress
     */
    static List<GenericRecord> read(byte[] file, String fileName)
            throws CorruptFileException, UnsupportedTableFeatureException
    {
        List<GenericRecord> records = new ArrayList<>();
        AvroBlocks.read(file, fileName, schema -> {
            BoundedDecoder decoder = new BoundedDecoder();
            BoundedDatumReader reader = new BoundedDatumReader(schema, decoder);
            return (bytes, offset, length, count, firstIndex) -> {
                decoder.reset(bytes, offset, length);
                for (long i = 0; i < count; i++) {
                    // AvroBlocks hands over record schemas only
                    records.add((GenericRecord) reader.read());
                }
                if (decoder.remaining() != 0) {
                    throw new CorruptFileException(decoder.remaining() + " undecoded bytes at the end of a block");
                }
            };
        });
        return records;
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
}
