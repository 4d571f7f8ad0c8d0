package io.tarn.vector.avro;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * How {@link AvroFileWriter} compresses a file's blocks, chosen from a table's options as Paimon
 * 1.4 chooses: {@code avro.codec} (an Avro codec name) when set, else {@code file.compression}
 * ({@code zstd}, Paimon's default, becomes Avro's {@code zstandard} at
 * {@code file.compression.zstd-level}; any other value is taken as an Avro codec name).
 *
 * @param codec the Avro codec name written in the file's {@code avro.codec}: {@code null},
 *         {@code deflate}, {@code snappy} or {@code zstandard}
 * @param level the compression level of {@code deflate} (-1 for its default) and of
 *         {@code zstandard}; ignored by the others
 */
public record AvroWriteOptions(String codec, int level)
{
    public static final String AVRO_CODEC = "avro.codec";
    public static final String FILE_COMPRESSION = "file.compression";
    public static final String FILE_COMPRESSION_ZSTD_LEVEL = "file.compression.zstd-level";

    // Avro's own defaults for a codec named without a level (CodecFactory.fromString)
    private static final int DEFAULT_DEFLATE_LEVEL = -1;
    private static final int DEFAULT_ZSTANDARD_LEVEL = 3;
    // Paimon's default file.compression.zstd-level
    private static final int DEFAULT_ZSTD_LEVEL = 1;
    private static final Set<String> WRITTEN = Set.of("null", "deflate", "snappy", "zstandard");
    // codecs Avro knows and Tarn does not write
    private static final Set<String> NOT_WRITTEN = Set.of("bzip2", "xz");

    public AvroWriteOptions
    {
        requireNonNull(codec, "codec is null");
        if (NOT_WRITTEN.contains(codec)) {
            throw new IllegalArgumentException("Avro codec " + codec + " is not written by Tarn yet; use null, deflate, snappy or zstandard");
        }
        if (!WRITTEN.contains(codec)) {
            throw new IllegalArgumentException("Unknown Avro codec: " + codec);
        }
        if (codec.equals("zstandard") && (level < 1 || level > 22)) {
            throw new IllegalArgumentException("ZSTD level must be between 1 and 22: " + level);
        }
        if (codec.equals("deflate") && (level < -1 || level > 9)) {
            throw new IllegalArgumentException("Deflate level must be between -1 and 9: " + level);
        }
    }

    public static AvroWriteOptions fromTableOptions(Map<String, String> options)
    {
        requireNonNull(options, "options is null");
        String avroCodec = options.get(AVRO_CODEC);
        if (avroCodec != null) {
            String codec = avroCodec.strip().toLowerCase(Locale.ROOT);
            return new AvroWriteOptions(codec, codec.equals("deflate") ? DEFAULT_DEFLATE_LEVEL : DEFAULT_ZSTANDARD_LEVEL);
        }
        String compression = options.getOrDefault(FILE_COMPRESSION, "zstd").strip().toLowerCase(Locale.ROOT);
        if (compression.equals("zstd")) {
            String level = options.get(FILE_COMPRESSION_ZSTD_LEVEL);
            try {
                return new AvroWriteOptions("zstandard", level == null ? DEFAULT_ZSTD_LEVEL : Integer.parseInt(level.strip()));
            }
            catch (NumberFormatException e) {
                throw new IllegalArgumentException("Option " + FILE_COMPRESSION_ZSTD_LEVEL + " is not an integer: " + level, e);
            }
        }
        return new AvroWriteOptions(compression, compression.equals("deflate") ? DEFAULT_DEFLATE_LEVEL : DEFAULT_ZSTANDARD_LEVEL);
    }
}
