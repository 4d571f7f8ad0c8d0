package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.CanonicalValueFormatter;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.RowType;
import io.trino.spi.type.SqlDate;
import io.trino.spi.type.SqlDecimal;
import io.trino.spi.type.SqlTime;
import io.trino.spi.type.SqlTimestamp;
import io.trino.spi.type.SqlTimestampWithTimeZone;
import io.trino.spi.type.SqlVarbinary;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Formats the rows of a Trino result in the canonical text of {@code io.tarn.testing}
 * ({@link CanonicalValueFormatter} states the format), so that a query's answer compares with
 * Apache Paimon's reading of the same table. A top-level MAP column must be selected as
 * {@code map_entries(column)} (Trino materializes maps unordered; the canonical form keeps the
 * stored order); {@link #selectList} writes such a select list.
 */
final class TrinoCanonicalRows
{
    private TrinoCanonicalRows() {}

    /**
     * The select list for all columns, with MAP columns read as entry arrays.
     */
    static String selectList(List<String> names, List<Type> types)
    {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String quoted = "\"" + names.get(i) + "\"";
            items.add(types.get(i) instanceof MapType ? "map_entries(" + quoted + ") AS " + quoted : quoted);
        }
        return String.join(", ", items);
    }

    /**
     * @param types the column types of the table (a MAP column's values arrive as entry arrays)
     */
    static CanonicalRows of(MaterializedResult result, List<Type> types)
    {
        List<String> lines = new ArrayList<>();
        for (MaterializedRow row : result.getMaterializedRows()) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.getFieldCount(); i++) {
                if (i > 0) {
                    line.append('\t');
                }
                line.append(format(row.getField(i), types.get(i), false));
            }
            lines.add(line.toString());
        }
        return CanonicalRows.of(lines);
    }

    static CanonicalRows of(MaterializedResult result)
    {
        return of(result, result.getTypes());
    }

    private static String format(Object value, Type type, boolean nested)
    {
        if (value == null) {
            return nested ? CanonicalValueFormatter.NESTED_NULL : CanonicalValueFormatter.TOP_LEVEL_NULL;
        }
        if (type instanceof VarcharType || type instanceof CharType) {
            String text = (String) value;
            if (type instanceof CharType) {
                text = text.stripTrailing();
            }
            return nested ? CanonicalValueFormatter.quoteNestedString(text) : CanonicalValueFormatter.escapeString(text);
        }
        if (type instanceof DecimalType decimal) {
            BigDecimal number = value instanceof SqlDecimal sql ? sql.toBigDecimal() : (BigDecimal) value;
            return CanonicalValueFormatter.formatDecimal(number, decimal.getScale());
        }
        if (value instanceof byte[] bytes) {
            return CanonicalValueFormatter.formatBinary(bytes);
        }
        if (value instanceof SqlVarbinary varbinary) {
            return CanonicalValueFormatter.formatBinary(varbinary.getBytes());
        }
        if (value instanceof LocalDate date) {
            return CanonicalValueFormatter.formatDate((int) date.toEpochDay());
        }
        if (value instanceof SqlDate date) {
            return CanonicalValueFormatter.formatDate(date.getDays());
        }
        if (type instanceof TimeType) {
            LocalTime time = value instanceof SqlTime sql ? LocalTime.ofNanoOfDay(sql.getPicos() / 1000) : (LocalTime) value;
            return CanonicalValueFormatter.formatTime((int) (time.toNanoOfDay() / 1_000_000));
        }
        if (type instanceof TimestampType timestamp) {
            LocalDateTime dateTime = value instanceof SqlTimestamp sql ? sql.toLocalDateTime() : (LocalDateTime) value;
            long seconds = dateTime.toEpochSecond(ZoneOffset.UTC);
            int nanos = dateTime.getNano();
            return CanonicalValueFormatter.formatTimestamp(seconds * 1000 + nanos / 1_000_000, nanos % 1_000_000, timestamp.getPrecision());
        }
        if (type instanceof TimestampWithTimeZoneType timestamp) {
            java.time.Instant instant = value instanceof SqlTimestampWithTimeZone sql ? sql.toZonedDateTime().toInstant() : ((ZonedDateTime) value).toInstant();
            return CanonicalValueFormatter.formatTimestampLtz(instant.getEpochSecond() * 1000 + instant.getNano() / 1_000_000, instant.getNano() % 1_000_000, timestamp.getPrecision());
        }
        if (type instanceof ArrayType array) {
            StringBuilder out = new StringBuilder("[");
            List<?> elements = (List<?>) value;
            for (int i = 0; i < elements.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(format(elements.get(i), array.getElementType(), true));
            }
            return out.append(']').toString();
        }
        if (type instanceof MapType map) {
            StringBuilder out = new StringBuilder("{");
            if (value instanceof Map<?, ?> entries) {
                if (entries.size() > 1) {
                    throw new IllegalArgumentException("Select MAP columns through map_entries to keep their order");
                }
                entries.forEach((key, entry) -> out.append(format(key, map.getKeyType(), true)).append('=').append(format(entry, map.getValueType(), true)));
                return out.append('}').toString();
            }
            List<?> entries = (List<?>) value;
            for (int i = 0; i < entries.size(); i++) {
                List<?> entry = fields(entries.get(i));
                if (i > 0) {
                    out.append(',');
                }
                out.append(format(entry.get(0), map.getKeyType(), true)).append('=').append(format(entry.get(1), map.getValueType(), true));
            }
            return out.append('}').toString();
        }
        if (type instanceof RowType row) {
            List<?> fields = fields(value);
            StringBuilder out = new StringBuilder("{");
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(format(fields.get(i), row.getFields().get(i).getType(), true));
            }
            return out.append('}').toString();
        }
        return value.toString();
    }

    private static List<?> fields(Object row)
    {
        return row instanceof MaterializedRow materialized ? materialized.getFields() : (List<?>) row;
    }
}
