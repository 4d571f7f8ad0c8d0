package io.tarn.vector.orc;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.tarn.vector.writer.WriteOptionValues.booleanOption;
import static io.tarn.vector.writer.WriteOptionValues.doubleOption;
import static io.tarn.vector.writer.WriteOptionValues.intOption;
import static io.tarn.vector.writer.WriteOptionValues.longOption;
import static io.tarn.vector.writer.WriteOptionValues.memorySize;
import static java.util.Objects.requireNonNull;

/**
 * How {@link OrcFileWriter} lays out a file, read from a table's options as Paimon 1.4 hands them
 * to orc-core: {@code orc.compress} when set, else {@code file.compression} (default
 * {@code zstd}); {@code orc.compression.zstd.level}, else {@code file.compression.zstd-level}
 * (default 1); {@code orc.compress.size} (default 256 KiB); {@code file.block-size} when set,
 * else {@code orc.stripe.size} (default 64 MiB); {@code orc.row.index.stride} (default 10,000);
 * {@code orc.timestamp-ltz.legacy.type} (default true); {@code orc.bloom.filter.columns} (top-level
 * columns, comma-separated) and {@code orc.bloom.filter.fpp} (default 0.01).
 *
 * @param compression {@code NONE}, {@code ZLIB}, {@code SNAPPY}, {@code LZ4} or {@code ZSTD}
 * @param compressionBlockSize the most bytes of a stream compressed as one chunk
 * @param stripeSize the buffered size in bytes at which a stripe is written
 * @param rowIndexStride the rows of a row group, each with its own row index entry
 * @param legacyTimestampLtz whether a TIMESTAMP_LTZ is stored as Paimon's writer stores it by
 *         default: the instant at which the writer's time zone shows the value's UTC wall clock
 * @param bloomFilterColumns the top-level columns whose row groups get a Bloom filter
 * @param bloomFilterFpp the false positive rate the Bloom filters are sized for
 */
public record OrcWriteOptions(String compression, int zstdLevel, int compressionBlockSize, long stripeSize, int rowIndexStride, boolean legacyTimestampLtz,
        List<String> bloomFilterColumns, double bloomFilterFpp)
{
    public static final String ORC_COMPRESS = "orc.compress";
    public static final String ORC_ZSTD_LEVEL = "orc.compression.zstd.level";
    public static final String ORC_COMPRESS_SIZE = "orc.compress.size";
    public static final String ORC_STRIPE_SIZE = "orc.stripe.size";
    public static final String ORC_ROW_INDEX_STRIDE = "orc.row.index.stride";
    public static final String ORC_TIMESTAMP_LTZ_LEGACY_TYPE = "orc.timestamp-ltz.legacy.type";
    public static final String FILE_COMPRESSION = "file.compression";
    public static final String FILE_COMPRESSION_ZSTD_LEVEL = "file.compression.zstd-level";
    public static final String FILE_BLOCK_SIZE = "file.block-size";
    public static final String ORC_BLOOM_FILTER_COLUMNS = "orc.bloom.filter.columns";
    public static final String ORC_BLOOM_FILTER_FPP = "orc.bloom.filter.fpp";
    public static final double DEFAULT_BLOOM_FILTER_FPP = 0.01;

    public static final int DEFAULT_COMPRESSION_BLOCK_SIZE = 256 * 1024;
    public static final long DEFAULT_STRIPE_SIZE = 64L * 1024 * 1024;
    public static final int DEFAULT_ROW_INDEX_STRIDE = 10_000;

    private static final Set<String> WRITTEN = Set.of("NONE", "ZLIB", "SNAPPY", "LZ4", "ZSTD");
    // ORC codecs Tarn does not write
    private static final Set<String> NOT_WRITTEN = Set.of("LZO", "BROTLI");
    // the largest chunk a 3-byte chunk header can describe
    private static final int MAX_BLOCK_SIZE = (1 << 23) - 1;

    public OrcWriteOptions
    {
        requireNonNull(compression, "compression is null");
        compression = compression.strip().toUpperCase(Locale.ROOT);
        if (NOT_WRITTEN.contains(compression)) {
            throw new IllegalArgumentException("ORC compression " + compression + " is not written by Tarn yet; use NONE, ZLIB, SNAPPY, LZ4 or ZSTD");
        }
        if (!WRITTEN.contains(compression)) {
            throw new IllegalArgumentException("Unknown ORC compression: " + compression);
        }
        if (zstdLevel < 1 || zstdLevel > 22) {
            throw new IllegalArgumentException("ZSTD level must be between 1 and 22: " + zstdLevel);
        }
        if (compressionBlockSize < 1 || compressionBlockSize > MAX_BLOCK_SIZE) {
            throw new IllegalArgumentException("ORC compression block size must be between 1 and " + MAX_BLOCK_SIZE + ": " + compressionBlockSize);
        }
        if (stripeSize <= 0) {
            throw new IllegalArgumentException("ORC stripe size must be positive: " + stripeSize);
        }
        if (rowIndexStride < 1) {
            throw new IllegalArgumentException("ORC row index stride must be positive (Tarn always writes a row index): " + rowIndexStride);
        }
        bloomFilterColumns = List.copyOf(requireNonNull(bloomFilterColumns, "bloomFilterColumns is null"));
        if (!(bloomFilterFpp > 0 && bloomFilterFpp < 1)) {
            throw new IllegalArgumentException("ORC Bloom filter false positive rate must be between 0 and 1 (exclusive): " + bloomFilterFpp);
        }
    }

    /**
     * Options without Bloom filters.
     */
    public OrcWriteOptions(String compression, int zstdLevel, int compressionBlockSize, long stripeSize, int rowIndexStride, boolean legacyTimestampLtz)
    {
        this(compression, zstdLevel, compressionBlockSize, stripeSize, rowIndexStride, legacyTimestampLtz, List.of(), DEFAULT_BLOOM_FILTER_FPP);
    }

    public static OrcWriteOptions defaults()
    {
        return new OrcWriteOptions("ZSTD", 1, DEFAULT_COMPRESSION_BLOCK_SIZE, DEFAULT_STRIPE_SIZE, DEFAULT_ROW_INDEX_STRIDE, true);
    }

    public OrcWriteOptions withCompressionBlockSize(int compressionBlockSize)
    {
        return new OrcWriteOptions(compression, zstdLevel, compressionBlockSize, stripeSize, rowIndexStride, legacyTimestampLtz, bloomFilterColumns, bloomFilterFpp);
    }

    /**
     * Reads a table's options; fails with {@link IllegalArgumentException} on a value Tarn cannot
     * honour, among them ORC options that change what a file holds and Tarn does not write
     * (Bloom filters in the legacy encoding, encryption, the proleptic calendar, files without a
     * row index, the 0.11 format).
     */
    public static OrcWriteOptions fromTableOptions(Map<String, String> options)
    {
        requireNonNull(options, "options is null");
        checkNotAsked(options);
        String compression = options.getOrDefault(ORC_COMPRESS, options.getOrDefault(FILE_COMPRESSION, "zstd"));
        int zstdLevel = intOption(options, ORC_ZSTD_LEVEL, intOption(options, FILE_COMPRESSION_ZSTD_LEVEL, 1));
        int blockSize = intOption(options, ORC_COMPRESS_SIZE, DEFAULT_COMPRESSION_BLOCK_SIZE);
        long stripeSize = options.containsKey(FILE_BLOCK_SIZE)
                ? memorySize(FILE_BLOCK_SIZE, options.get(FILE_BLOCK_SIZE))
                : longOption(options, ORC_STRIPE_SIZE, DEFAULT_STRIPE_SIZE);
        int stride = intOption(options, ORC_ROW_INDEX_STRIDE, DEFAULT_ROW_INDEX_STRIDE);
        boolean legacy = booleanOption(options, ORC_TIMESTAMP_LTZ_LEGACY_TYPE, true);
        List<String> bloomFilterColumns = Arrays.stream(options.getOrDefault(ORC_BLOOM_FILTER_COLUMNS, "").split(","))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .distinct()
                .toList();
        double fpp = doubleOption(options, ORC_BLOOM_FILTER_FPP, DEFAULT_BLOOM_FILTER_FPP);
        return new OrcWriteOptions(compression, zstdLevel, blockSize, stripeSize, stride, legacy, bloomFilterColumns, fpp);
    }

    private static void checkNotAsked(Map<String, String> options)
    {
        String bloomVersion = options.get("orc.bloom.filter.write.version");
        if (bloomVersion != null && !bloomVersion.strip().equalsIgnoreCase("utf8")) {
            // the legacy BLOOM_FILTER stream hashed strings in the writer's default charset (HIVE-12055)
            throw new IllegalArgumentException("Tarn writes ORC Bloom filters in the utf8 encoding only (orc.bloom.filter.write.version=" + bloomVersion + ")");
        }
        for (String key : new String[] {"orc.encrypt", "orc.mask"}) {
            if (options.containsKey(key)) {
                throw new IllegalArgumentException("Tarn does not write encrypted or masked ORC files (" + key + ")");
            }
        }
        if (booleanOption(options, "orc.proleptic.gregorian", false)) {
            throw new IllegalArgumentException("Tarn does not write ORC files in the proleptic Gregorian calendar (orc.proleptic.gregorian=true)");
        }
        if (!booleanOption(options, "orc.create.index", true)) {
            throw new IllegalArgumentException("Tarn always writes an ORC row index (orc.create.index=false)");
        }
        String format = options.get("orc.write.format");
        if (format != null && !format.strip().equals("0.12")) {
            throw new IllegalArgumentException("Tarn writes ORC format 0.12 only (orc.write.format=" + format + ")");
        }
    }
}
