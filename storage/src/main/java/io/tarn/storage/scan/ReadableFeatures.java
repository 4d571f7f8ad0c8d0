package io.tarn.storage.scan;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableSchema;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * What Tarn checks, when it plans a read, about the table options and data files that change how
 * a table's data must be read: a table whose schema sets a listed option to a value Tarn does not
 * read, or a live data file whose extension names a format Tarn does not know, is refused with an
 * error naming the table, the option or file and the feature, rather than read as if the option
 * were unset or the file skipped. Unset, each option has its default, which Tarn reads. (Which
 * of the known formats a file's reader opens is the readers' to say.)
 *
 * <p>Options read elsewhere and checked there: {@code merge-engine} and its field options,
 * {@code sequence.field}, {@code deletion-vectors.enabled}, {@code bucket} (the postpone bucket
 * {@code -2} is skipped, as Paimon's batch reads skip it), the data-file path options; column
 * types (BLOB, VECTOR) when the schema is parsed. Options about writing, compaction, expiration,
 * streaming and catalogs do not change what a batch read returns and are not listed.
 */
final class ReadableFeatures
{
    private static final Set<String> FILE_FORMATS = Set.of("parquet", "orc", "avro");

    private static final List<Rule> RULES = List.of(
            new Rule("type", value -> Set.of("table", "materialized-table").contains(normalized(value)),
                    "a table that is not a Paimon table (format, object, Lance or Iceberg table)"),
            new Rule("data-evolution.enabled", ReadableFeatures::isFalse,
                    "data evolution: files holding some columns of a row range, merged by row id"),
            new Rule("row-tracking.enabled", ReadableFeatures::isBoolean,
                    "row tracking"),
            new Rule("chain-table.enabled", ReadableFeatures::isFalse,
                    "chain table: partitions merged from a snapshot branch and a delta branch"),
            new Rule("scan.fallback-branch", String::isBlank,
                    "partitions missing from this branch read from a fallback branch"),
            new Rule("scan.primary-branch", String::isBlank,
                    "partitions read from a primary branch when it has them"),
            new Rule("scan.fallback-snapshot-branch", String::isBlank,
                    "chain table snapshot branch"),
            new Rule("scan.fallback-delta-branch", String::isBlank,
                    "chain table delta branch"),
            new Rule("blob-field", String::isBlank,
                    "BLOB columns stored in blob files"),
            new Rule("blob-descriptor-field", String::isBlank,
                    "BLOB columns stored as descriptors of external data"),
            new Rule("blob-external-storage-field", String::isBlank,
                    "BLOB columns stored in external storage"),
            new Rule("blob-as-descriptor", ReadableFeatures::isFalse,
                    "BLOB values read as descriptors"),
            new Rule("vector-field", String::isBlank,
                    "VECTOR columns stored in vector files"),
            new Rule("vector.file.format", String::isBlank,
                    "VECTOR columns stored in vector files"),
            new Rule("variant.shreddingSchema", String::isBlank,
                    "VARIANT columns shredded into typed Parquet columns"),
            new Rule("variant.inferShreddingSchema", ReadableFeatures::isFalse,
                    "VARIANT columns shredded into typed Parquet columns"),
            new Rule("pk-clustering-override", ReadableFeatures::isFalse,
                    "primary-key files sorted by clustering columns instead of the key"),
            new Rule("file.format", value -> FILE_FORMATS.contains(normalized(value)),
                    "data files in a format Tarn does not read; Tarn reads Parquet, ORC and Avro"),
            new Rule("file.format.per.level", ReadableFeatures::knownFormatPerLevel,
                    "data files in a format Tarn does not read; Tarn reads Parquet, ORC and Avro"));

    private ReadableFeatures() {}

    /**
     * @throws UnsupportedTableFeatureException if the schema sets an option of this list to a
     * value Tarn does not read
     */
    static void checkOptions(String tableName, TableSchema schema)
            throws UnsupportedTableFeatureException
    {
        requireNonNull(tableName, "tableName is null");
        for (Rule rule : RULES) {
            String value = schema.options().get(rule.key());
            if (value != null && !rule.supported().test(value)) {
                throw new UnsupportedTableFeatureException("Table %s sets option %s = '%s' (%s), which Tarn does not read (schema %s)"
                        .formatted(tableName, rule.key(), value, rule.feature(), schema.id()));
            }
        }
    }

    /**
     * @throws UnsupportedTableFeatureException if the file name's extension is not that of a
     * data-file format Tarn knows (Parquet, ORC, Avro)
     */
    static void checkDataFile(String tableName, String fileName)
            throws UnsupportedTableFeatureException
    {
        // asked for every entry a plan reads: no substring or lower-casing unless it fails
        if (hasFormatExtension(fileName)) {
            return;
        }
        int dot = fileName.lastIndexOf('.');
        String extension = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        if (!FILE_FORMATS.contains(extension)) {
            throw new UnsupportedTableFeatureException("Table %s has data file %s, whose format '%s' (by its extension) Tarn does not read; Tarn reads Parquet, ORC and Avro"
                    .formatted(tableName, fileName, extension));
        }
    }

    // whether the text after the last dot is a known format, in any case
    private static boolean hasFormatExtension(String fileName)
    {
        for (String format : FILE_FORMATS) {
            int start = fileName.length() - format.length();
            if (start > 0 && fileName.charAt(start - 1) == '.' && fileName.regionMatches(true, start, format, 0, format.length())) {
                return true;
            }
        }
        return false;
    }

    private record Rule(String key, Predicate<String> supported, String feature)
    {
        Rule
        {
            requireNonNull(key, "key is null");
            requireNonNull(supported, "supported is null");
            requireNonNull(feature, "feature is null");
        }
    }

    private static String normalized(String value)
    {
        return value.trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isFalse(String value)
    {
        return normalized(value).equals("false");
    }

    private static boolean isBoolean(String value)
    {
        return normalized(value).equals("false") || normalized(value).equals("true");
    }

    // "0:avro,3:parquet": a format per level
    private static boolean knownFormatPerLevel(String value)
    {
        if (value.isBlank()) {
            return true;
        }
        for (String entry : value.split(",")) {
            int colon = entry.indexOf(':');
            if (colon < 0 || !FILE_FORMATS.contains(normalized(entry.substring(colon + 1)))) {
                return false;
            }
        }
        return true;
    }
}
