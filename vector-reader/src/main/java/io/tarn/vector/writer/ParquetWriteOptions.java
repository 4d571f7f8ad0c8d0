package io.tarn.vector.writer;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.tarn.vector.writer.WriteOptionValues.booleanOption;
import static io.tarn.vector.writer.WriteOptionValues.intOption;
import static io.tarn.vector.writer.WriteOptionValues.longOption;
import static io.tarn.vector.writer.WriteOptionValues.memorySize;
import static java.util.Objects.requireNonNull;

/**
 * How {@link ParquetFileWriter} lays out a file. The defaults are Paimon's: ZSTD at level 1, and
 * parquet-mr's 128 MB row groups, 1 MB pages and dictionary encoding.
 *
 * @param compression one of {@code zstd}, {@code snappy}, {@code lz4} (Hadoop-framed, as Paimon
 *         writes it), {@code lz4_raw}, {@code gzip}, {@code none} (also {@code uncompressed})
 * @param zstdLevel the ZSTD level Paimon asks for (1..22), used through native libzstd; only
 *         where that cannot be loaded does aircompressor's Java encoder compress at its level 3
 * @param rowGroupSize the buffered size in bytes at which a row group is closed
 * @param pageSize the buffered size in bytes at which a data page is closed
 * @param dictionary whether columns start with dictionary encoding (falling back to plain
 *         encoding when the dictionary grows past the page size, as parquet-mr does)
 */
public record ParquetWriteOptions(String compression, int zstdLevel, long rowGroupSize, int pageSize, boolean dictionary)
{
    public static final String FILE_COMPRESSION = "file.compression";
    public static final String FILE_COMPRESSION_ZSTD_LEVEL = "file.compression.zstd-level";
    public static final String FILE_BLOCK_SIZE = "file.block-size";
    public static final String PARQUET_COMPRESSION = "parquet.compression";
    public static final String PARQUET_ZSTD_LEVEL = "parquet.compression.codec.zstd.level";
    public static final String PARQUET_BLOCK_SIZE = "parquet.block.size";
    public static final String PARQUET_PAGE_SIZE = "parquet.page.size";
    public static final String PARQUET_ENABLE_DICTIONARY = "parquet.enable.dictionary";

    public static final String DEFAULT_COMPRESSION = "zstd";
    public static final int DEFAULT_ZSTD_LEVEL = 1;
    public static final long DEFAULT_ROW_GROUP_SIZE = 128L * 1024 * 1024;
    public static final int DEFAULT_PAGE_SIZE = 1024 * 1024;

    private static final Set<String> COMPRESSIONS = Set.of("zstd", "snappy", "lz4", "lz4_raw", "gzip", "none", "uncompressed");

    public ParquetWriteOptions
    {
        requireNonNull(compression, "compression is null");
        compression = compression.toLowerCase(Locale.ROOT);
        if (!COMPRESSIONS.contains(compression)) {
            throw new IllegalArgumentException("Unsupported Parquet compression: " + compression);
        }
        if (zstdLevel < 1 || zstdLevel > 22) {
            throw new IllegalArgumentException("ZSTD level must be between 1 and 22: " + zstdLevel);
        }
        if (rowGroupSize <= 0) {
            throw new IllegalArgumentException("Row group size must be positive: " + rowGroupSize);
        }
        if (pageSize <= 0) {
            throw new IllegalArgumentException("Page size must be positive: " + pageSize);
        }
    }

    public static ParquetWriteOptions defaults()
    {
        return new ParquetWriteOptions(DEFAULT_COMPRESSION, DEFAULT_ZSTD_LEVEL, DEFAULT_ROW_GROUP_SIZE, DEFAULT_PAGE_SIZE, true);
    }

    /**
     * Reads the options the way Paimon 1.3 hands them to parquet-mr: {@code parquet.compression}
     * wins over {@code file.compression}, {@code parquet.compression.codec.zstd.level} over
     * {@code file.compression.zstd-level}, and {@code file.block-size} (a memory size such as
     * {@code 64 mb}) over {@code parquet.block.size}.
     */
    public static ParquetWriteOptions fromTableOptions(Map<String, String> options)
    {
        requireNonNull(options, "options is null");
        String compression = options.getOrDefault(PARQUET_COMPRESSION, options.getOrDefault(FILE_COMPRESSION, DEFAULT_COMPRESSION));
        int zstdLevel = intOption(options, PARQUET_ZSTD_LEVEL, intOption(options, FILE_COMPRESSION_ZSTD_LEVEL, DEFAULT_ZSTD_LEVEL));
        long rowGroupSize = options.containsKey(FILE_BLOCK_SIZE)
                ? memorySize(FILE_BLOCK_SIZE, options.get(FILE_BLOCK_SIZE))
                : longOption(options, PARQUET_BLOCK_SIZE, DEFAULT_ROW_GROUP_SIZE);
        int pageSize = intOption(options, PARQUET_PAGE_SIZE, DEFAULT_PAGE_SIZE);
        boolean dictionary = booleanOption(options, PARQUET_ENABLE_DICTIONARY, true);
        return new ParquetWriteOptions(compression, zstdLevel, rowGroupSize, pageSize, dictionary);
    }

    public ParquetWriteOptions withCompression(String compression)
    {
        return new ParquetWriteOptions(compression, zstdLevel, rowGroupSize, pageSize, dictionary);
    }

    public ParquetWriteOptions withZstdLevel(int zstdLevel)
    {
        return new ParquetWriteOptions(compression, zstdLevel, rowGroupSize, pageSize, dictionary);
    }

    public ParquetWriteOptions withRowGroupSize(long rowGroupSize)
    {
        return new ParquetWriteOptions(compression, zstdLevel, rowGroupSize, pageSize, dictionary);
    }

    public ParquetWriteOptions withPageSize(int pageSize)
    {
        return new ParquetWriteOptions(compression, zstdLevel, rowGroupSize, pageSize, dictionary);
    }

    public ParquetWriteOptions withDictionary(boolean dictionary)
    {
        return new ParquetWriteOptions(compression, zstdLevel, rowGroupSize, pageSize, dictionary);
    }
}
