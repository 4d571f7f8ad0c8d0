package io.tarn.vector.orc;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.Timestamp;
import io.tarn.vector.writer.ColumnStatistics;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.TimeZone;

/**
 * The statistics Paimon records in the manifest for a top-level column of an ORC file, which it
 * takes from the file's footer ({@code OrcSimpleStatsExtractor}): the null count is the row
 * count minus the column's values; a column of nulls only has no bounds; strings have the bound
 * ORC kept whole (none where it kept a truncated one); booleans have false as minimum unless
 * every value is true, and true as maximum if any is; timestamps are read back through
 * {@code java.sql.Timestamp} as Paimon does; binary and nested columns have no bounds.
 */
final class PaimonStatistics
{
    private PaimonStatistics() {}

    static ColumnStatistics of(DataField field, StatisticsBuilder statistics, long rowCount, TimeZone zone, boolean legacyTimestampLtz)
    {
        long nullCount = rowCount - statistics.count;
        if (nullCount == rowCount || !(field.type() instanceof AtomicType type)) {
            return new ColumnStatistics(field.id(), null, null, nullCount);
        }
        Object[] bounds = switch (type.root()) {
            case CHAR, VARCHAR -> {
                StringStatistics strings = (StringStatistics) statistics;
                yield new Object[] {
                        strings.lowerBound ? null : new String(strings.minimum, StandardCharsets.UTF_8),
                        strings.upperBound ? null : new String(strings.maximum, StandardCharsets.UTF_8)};
            }
            case BOOLEAN -> {
                BooleanStatistics booleans = (BooleanStatistics) statistics;
                yield new Object[] {booleans.count - booleans.trueCount == 0, booleans.trueCount != 0};
            }
            case DECIMAL -> {
                DecimalStatistics decimals = (DecimalStatistics) statistics;
                yield new Object[] {decimals.minimum.setScale(type.scale(), RoundingMode.HALF_UP), decimals.maximum.setScale(type.scale(), RoundingMode.HALF_UP)};
            }
            case TINYINT -> {
                IntegerStatistics integers = (IntegerStatistics) statistics;
                yield new Object[] {(byte) integers.minimum, (byte) integers.maximum};
            }
            case SMALLINT -> {
                IntegerStatistics integers = (IntegerStatistics) statistics;
                yield new Object[] {(short) integers.minimum, (short) integers.maximum};
            }
            case INT, TIME -> {
                IntegerStatistics integers = (IntegerStatistics) statistics;
                yield new Object[] {(int) integers.minimum, (int) integers.maximum};
            }
            case BIGINT -> {
                IntegerStatistics integers = (IntegerStatistics) statistics;
                yield new Object[] {integers.minimum, integers.maximum};
            }
            case FLOAT -> {
                DoubleStatistics doubles = (DoubleStatistics) statistics;
                yield new Object[] {(float) doubles.minimum, (float) doubles.maximum};
            }
            case DOUBLE -> {
                DoubleStatistics doubles = (DoubleStatistics) statistics;
                yield new Object[] {doubles.minimum, doubles.maximum};
            }
            case DATE -> {
                DateStatistics dates = (DateStatistics) statistics;
                yield new Object[] {dates.minimum, dates.maximum};
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimestampStatistics timestamps = (TimestampStatistics) statistics;
                boolean instant = type.root() == io.tarn.types.TypeRoot.TIMESTAMP_LTZ;
                yield new Object[] {
                        timestamp(timestamps.minimum, timestamps.minimumNanos, instant, legacyTimestampLtz, zone),
                        timestamp(timestamps.maximum, timestamps.maximumNanos, instant, legacyTimestampLtz, zone)};
            }
            default -> new Object[] {null, null};
        };
        return new ColumnStatistics(field.id(), bounds[0], bounds[1], nullCount);
    }

    /**
     * A timestamp bound as Paimon reads it from ORC's statistics: a java.sql.Timestamp of the
     * milliseconds (moved from the UTC wall clock into the zone for TIMESTAMP) with the
     * nanoseconds below them added, taken as a wall clock (TIMESTAMP, legacy TIMESTAMP_LTZ) or as
     * an instant.
     */
    private static Timestamp timestamp(long millis, int subMillisNanos, boolean instant, boolean legacyTimestampLtz, TimeZone zone)
    {
        long time = instant ? millis : millis - zone.getOffset(millis - zone.getRawOffset());
        java.sql.Timestamp value = new java.sql.Timestamp(time);
        value.setNanos(value.getNanos() + subMillisNanos);
        if (instant && !legacyTimestampLtz) {
            return Timestamp.of(value.toInstant());
        }
        return Timestamp.of(value.toLocalDateTime());
    }
}
