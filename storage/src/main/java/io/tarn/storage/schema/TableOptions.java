package io.tarn.storage.schema;

import io.tarn.index.fileindex.FileIndexOptions;
import io.tarn.index.fileindex.MemorySizes;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.UnsupportedTableFeatureException;

import io.tarn.storage.fs.TablePaths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Collections.unmodifiableMap;
import static java.util.Objects.requireNonNull;

/**
 * Typed access to the table options that planning and reading depend on, with Paimon 1.3's
 * defaults. A malformed value is an error naming the table and the option.
 */
public final class TableOptions
{
    public static final String BUCKET = "bucket";
    public static final String BUCKET_FUNCTION_TYPE = "bucket-function.type";
    public static final String DELETION_VECTORS_ENABLED = "deletion-vectors.enabled";
    public static final String MERGE_ENGINE = "merge-engine";
    public static final String IGNORE_DELETE = "ignore-delete";
    // the spellings of ignore-delete before Paimon 0.9, which Paimon still reads when the key is unset
    private static final List<String> IGNORE_DELETE_FALLBACK_KEYS = List.of("first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete");
    public static final String SEQUENCE_FIELD = "sequence.field";
    public static final String SEQUENCE_FIELD_SORT_ORDER = "sequence.field.sort-order";
    public static final String SPLIT_TARGET_SIZE = "source.split.target-size";
    public static final String SPLIT_OPEN_FILE_COST = "source.split.open-file-cost";
    public static final String PARTITION_DEFAULT_NAME = "partition.default-name";
    public static final String PARTITION_LEGACY_NAME = "partition.legacy-name";
    public static final String FILE_FORMAT = "file.format";
    public static final String DATA_FILE_PATH_DIRECTORY = "data-file.path-directory";
    public static final String DATA_FILE_EXTERNAL_PATHS = "data-file.external-paths";
    public static final String DATA_FILE_EXTERNAL_PATHS_STRATEGY = "data-file.external-paths.strategy";
    public static final String DATA_FILE_EXTERNAL_PATHS_SPECIFIC_FS = "data-file.external-paths.specific-fs";
    public static final String PATH = "path";
    public static final String ORC_TIMESTAMP_LTZ_LEGACY_TYPE = "orc.timestamp-ltz.legacy.type";
    public static final String ROW_TRACKING_ENABLED = "row-tracking.enabled";

    private final String tableName;
    private final Map<String, String> options;

    public TableOptions(String tableName, Map<String, String> options)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.options = unmodifiableMap(new LinkedHashMap<>(requireNonNull(options, "options is null")));
    }

    public Map<String, String> asMap()
    {
        return options;
    }

    public Optional<String> get(String key)
    {
        return Optional.ofNullable(options.get(key));
    }

    public int bucket()
    {
        return intOption(BUCKET, -1);
    }

    public boolean modBucketFunction()
    {
        return get(BUCKET_FUNCTION_TYPE).map(value -> value.trim().equalsIgnoreCase("mod")).orElse(false);
    }

    public boolean deletionVectorsEnabled()
    {
        return booleanOption(DELETION_VECTORS_ENABLED, false);
    }

    /**
     * Whether every row has a row id and a sequence number ({@code row-tracking.enabled},
     * default false).
     */
    public boolean rowTrackingEnabled()
    {
        return booleanOption(ROW_TRACKING_ENABLED, false);
    }

    public MergeEngine mergeEngine()
    {
        return get(MERGE_ENGINE).map(value -> MergeEngine.parse(value, tableName)).orElse(MergeEngine.DEDUPLICATE);
    }

    /**
     * Whether merges drop retractions ({@code ignore-delete}, or its older spellings when unset).
     */
    public boolean ignoreDelete()
    {
        if (options.containsKey(IGNORE_DELETE)) {
            return booleanOption(IGNORE_DELETE, false);
        }
        for (String key : IGNORE_DELETE_FALLBACK_KEYS) {
            if (options.containsKey(key)) {
                return booleanOption(key, false);
            }
        }
        return false;
    }

    /**
     * The user sequence fields ({@code sequence.field}, comma separated, trimmed), possibly empty.
     */
    public List<String> sequenceFields()
    {
        String value = options.get(SEQUENCE_FIELD);
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.split(",")).map(String::trim).toList();
    }

    /**
     * Whether the sequence fields order records ascending ({@code sequence.field.sort-order}).
     */
    public boolean sequenceAscending()
    {
        String value = options.getOrDefault(SEQUENCE_FIELD_SORT_ORDER, "ascending");
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "ascending" -> true;
            case "descending" -> false;
            default -> throw invalid(SEQUENCE_FIELD_SORT_ORDER, value, null);
        };
    }

    /**
     * A boolean option that is false when unset; as in Paimon, only {@code true} and
     * {@code false} (any case) are booleans.
     */
    public boolean flag(String key)
    {
        return booleanOption(key, false);
    }

    public long splitTargetSize()
    {
        return memoryOption(SPLIT_TARGET_SIZE, 128L << 20);
    }

    public long splitOpenFileCost()
    {
        return memoryOption(SPLIT_OPEN_FILE_COST, 4L << 20);
    }

    /**
     * Whether readers use file indexes ({@code file-index.read.enabled}, default true).
     */
    public boolean fileIndexReadEnabled()
    {
        return booleanOption(FileIndexOptions.READ_ENABLED, true);
    }

    /**
     * The largest file-index container stored inline in the manifest
     * ({@code file-index.in-manifest-threshold}, default 500 bytes); larger ones become files.
     */
    public long fileIndexInManifestThreshold()
    {
        return memoryOption(FileIndexOptions.IN_MANIFEST_THRESHOLD, FileIndexOptions.DEFAULT_IN_MANIFEST_THRESHOLD);
    }

    /**
     * The directory of the data files relative to the table directory
     * ({@code data-file.path-directory}, normalized), empty for the table directory itself.
     *
     * @throws InvalidNameException if the option could name a directory outside the table
     */
    public String dataFileDirectory()
    {
        return get(DATA_FILE_PATH_DIRECTORY).map(value -> TablePaths.relativeDirectory(tableName, DATA_FILE_PATH_DIRECTORY, value)).orElse("");
    }

    /**
     * Checks the options that name paths, so that none can make Tarn read, write or delete
     * outside the table directory: {@code data-file.path-directory} must stay inside it;
     * {@code path} is the catalog's to set and may only name the table directory
     * {@code location}; external data paths are refused, as Tarn neither writes nor confines
     * them.
     *
     * @throws InvalidNameException if a path option leaves the table directory
     * @throws UnsupportedTableFeatureException if the options ask for external data paths
     */
    public void checkPaths(String location)
            throws UnsupportedTableFeatureException
    {
        requireNonNull(location, "location is null");
        dataFileDirectory();
        Optional<String> externalPaths = get(DATA_FILE_EXTERNAL_PATHS).filter(value -> !value.isBlank());
        if (externalPaths.isPresent()) {
            throw new UnsupportedTableFeatureException("Table %s sets option %s = '%s': data files outside the table directory are not supported"
                    .formatted(tableName, DATA_FILE_EXTERNAL_PATHS, externalPaths.get()));
        }
        Optional<String> strategy = get(DATA_FILE_EXTERNAL_PATHS_STRATEGY).filter(value -> !value.trim().equalsIgnoreCase("none"));
        if (strategy.isPresent()) {
            throw new UnsupportedTableFeatureException("Table %s sets option %s = '%s': data files outside the table directory are not supported"
                    .formatted(tableName, DATA_FILE_EXTERNAL_PATHS_STRATEGY, strategy.get()));
        }
        Optional<String> specificFileSystem = get(DATA_FILE_EXTERNAL_PATHS_SPECIFIC_FS).filter(value -> !value.isBlank());
        if (specificFileSystem.isPresent()) {
            throw new UnsupportedTableFeatureException("Table %s sets option %s = '%s': data files outside the table directory are not supported"
                    .formatted(tableName, DATA_FILE_EXTERNAL_PATHS_SPECIFIC_FS, specificFileSystem.get()));
        }
        Optional<String> path = get(PATH);
        if (path.isPresent() && !sameDirectory(path.get(), location)) {
            throw new InvalidNameException("Table %s sets option %s = '%s', which is not its directory %s".formatted(tableName, PATH, path.get(), location));
        }
    }

    // the catalog spells locations as plain paths or file: URIs; either names the same directory
    private static boolean sameDirectory(String first, String second)
    {
        return plainPath(first).equals(plainPath(second));
    }

    private static String plainPath(String path)
    {
        String plain = path.trim();
        if (plain.startsWith("file://")) {
            plain = plain.substring("file://".length());
        }
        else if (plain.startsWith("file:")) {
            plain = plain.substring("file:".length());
        }
        while (plain.length() > 1 && plain.endsWith("/")) {
            plain = plain.substring(0, plain.length() - 1);
        }
        return plain;
    }

    public String partitionDefaultName()
    {
        return get(PARTITION_DEFAULT_NAME).orElse("__DEFAULT_PARTITION__");
    }

    public boolean partitionLegacyName()
    {
        return booleanOption(PARTITION_LEGACY_NAME, true);
    }

    /**
     * How Paimon's ORC writer stores TIMESTAMP_LTZ values: true (its default) for the instant at
     * which the writer's time zone shows the value's UTC wall clock, false for the instant.
     */
    public boolean orcTimestampLtzLegacyType()
    {
        return booleanOption(ORC_TIMESTAMP_LTZ_LEGACY_TYPE, true);
    }

    private int intOption(String key, int defaultValue)
    {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.trim());
        }
        catch (NumberFormatException e) {
            throw invalid(key, value, e);
        }
    }

    private boolean booleanOption(String key, boolean defaultValue)
    {
        String value = options.get(key);
        if (value == null) {
            return defaultValue;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, value, null);
        };
    }

    /**
     * Paimon's MemorySize syntax: a number with an optional unit (b, kb, mb, gb, tb, also k, m, g, t
     * and the binary spellings), case-insensitive, binary multiples.
     */
    private long memoryOption(String key, long defaultValue)
    {
        String value = options.get(key);
        return value == null ? defaultValue : parseMemorySize(key, value, tableName);
    }

    /**
     * Paimon's MemorySize syntax: a number with an optional unit (b, kb, mb, gb, tb, also k, m, g,
     * t and the binary spellings), case-insensitive, binary multiples.
     */
    public static long parseMemorySize(String key, String value, String tableName)
    {
        try {
            return MemorySizes.parse(value, "option " + key);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Table " + tableName + " has an invalid value for option " + key + ": '" + value + "'", e);
        }
    }

    private IllegalArgumentException invalid(String key, String value, Exception cause)
    {
        return new IllegalArgumentException("Table " + tableName + " has an invalid value for option " + key + ": '" + value + "'", cause);
    }
}
