package io.tarn.storage.binary;

import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Rebuilds a partition's directory name ({@code k1=v1/k2=v2/}) from its {@link BinaryRow}, the
 * way Paimon's {@code InternalRowPartitionComputer} and {@code PartitionPathUtils} do. Manifests
 * store only data file names, so readers must reproduce this text exactly.
 * <p>
 * With {@code partition.legacy-name=true} (Paimon's default) a value is the {@code toString()} of
 * its internal representation: a DATE is its epoch-day number, a timestamp is
 * {@code LocalDateTime.toString()}, a decimal is {@code toPlainString()}. With {@code false} it is
 * Paimon's cast to STRING, supported here for booleans, numbers, strings and dates.
 * A null value, or one that is empty or whitespace only, becomes {@code partition.default-name}.
 * Names and values are then escaped: control characters, {@code "#%'*\/:=?\}, DEL and
 * {@code {}[]^} become {@code %XX}.
 */
public final class PartitionPath
{
    public static final String DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__";

    private static final BitSet CHARS_TO_ESCAPE = new BitSet(128);

    static {
        for (char c = 0; c < ' '; c++) {
            CHARS_TO_ESCAPE.set(c);
        }
        for (char c : "\"#%'*/:=?\\\u007F{}[]^".toCharArray()) {
            CHARS_TO_ESCAPE.set(c);
        }
    }

    private PartitionPath() {}

    /**
     * The partition directory relative to the table root (or {@code data-file.path-directory}),
     * with a trailing {@code /}; the empty string for an unpartitioned table.
     *
     * @throws IllegalArgumentException if the row's arity differs from the partition type
     * @throws UnsupportedOperationException for value types whose text Paimon does not define portably
     */
    public static String of(BinaryRow partition, RowType partitionType, String defaultName, boolean legacyName)
    {
        Map<String, String> values = values(partition, partitionType, defaultName, legacyName);
        StringBuilder path = new StringBuilder();
        for (Map.Entry<String, String> entry : values.entrySet()) {
            path.append(escape(entry.getKey())).append('=').append(escape(entry.getValue())).append('/');
        }
        return path.toString();
    }

    /** The unescaped partition values as text, in partition-key order, nulls replaced by {@code defaultName}. */
    public static LinkedHashMap<String, String> values(BinaryRow partition, RowType partitionType, String defaultName, boolean legacyName)
    {
        requireNonNull(partition, "partition is null");
        requireNonNull(partitionType, "partitionType is null");
        requireNonNull(defaultName, "defaultName is null");
        if (partition.arity() != partitionType.size()) {
            throw new IllegalArgumentException("Partition row has " + partition.arity() + " fields, but the partition type has " + partitionType.size());
        }
        LinkedHashMap<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < partitionType.size(); i++) {
            DataField field = partitionType.fields().get(i);
            Object value = partition.value(i, field.type());
            String text = value == null ? null : text(field, value, legacyName);
            if (isNullOrWhitespaceOnly(text)) {
                text = defaultName;
            }
            values.put(field.name(), text);
        }
        return values;
    }

    /** Escapes a partition name or value for use as a path segment. */
    public static String escape(String text)
    {
        requireNonNull(text, "text is null");
        if (text.isEmpty()) {
            throw new IllegalArgumentException("Partition path segment is empty");
        }
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 128 && CHARS_TO_ESCAPE.get(c)) {
                if (escaped == null) {
                    escaped = new StringBuilder(text.length() + 2).append(text, 0, i);
                }
                escaped.append('%');
                if (c < 16) {
                    escaped.append('0');
                }
                escaped.append(Integer.toHexString(c).toUpperCase());
            }
            else if (escaped != null) {
                escaped.append(c);
            }
        }
        return escaped == null ? text : escaped.toString();
    }

    private static String text(DataField field, Object value, boolean legacyName)
    {
        DataType type = field.type();
        return switch (type.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, CHAR, VARCHAR -> value.toString();
            case DECIMAL -> ((BigDecimal) value).toPlainString();
            case DATE -> legacyName ? value.toString() : formatDate(field, (Integer) value);
            case TIME -> {
                if (legacyName) {
                    yield value.toString();
                }
                throw unsupported(field, false);
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (legacyName) {
                    yield ((Timestamp) value).toLocalDateTime().toString();
                }
                throw unsupported(field, false);
            }
            case BINARY, VARBINARY, VARIANT, ARRAY, MULTISET, MAP, ROW -> throw unsupported(field, legacyName);
        };
    }

    private static String formatDate(DataField field, int epochDay)
    {
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        // Paimon formats through a Julian-day algorithm; it agrees with ISO dates for years 1..9999.
        if (date.getYear() < 1 || date.getYear() > 9999) {
            throw new UnsupportedOperationException("Partition column " + field.name() + " has date " + date + " outside years 1..9999 with partition.legacy-name=false");
        }
        return date.toString();
    }

    private static UnsupportedOperationException unsupported(DataField field, boolean legacyName)
    {
        return new UnsupportedOperationException("Partition column " + field.name() + " of type " + field.type().asSqlString()
                + " is not supported with partition.legacy-name=" + legacyName);
    }

    private static boolean isNullOrWhitespaceOnly(String text)
    {
        if (text == null) {
            return true;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
