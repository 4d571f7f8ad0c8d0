package io.tarn.storage.read;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded rows of every Paimon type for ORC tables, mixing random values with the edge cases
 * readers get wrong: NULLs at every level, NaN, infinities and -0.0, dates and timestamps before
 * 1970 and far from it, sub-second fractions of every precision, strings with multi-byte
 * characters and trailing spaces, and the extremes of each integer type.
 */
final class OrcTestRows
{
    static final RowType ALL_TYPES = RowType.of(
            new DataField(0, "id", DataTypes.INT().notNull()),
            new DataField(1, "b", DataTypes.BOOLEAN()),
            new DataField(2, "ti", DataTypes.TINYINT()),
            new DataField(3, "si", DataTypes.SMALLINT()),
            new DataField(4, "i", DataTypes.INT()),
            new DataField(5, "bi", DataTypes.BIGINT()),
            new DataField(6, "f", DataTypes.FLOAT()),
            new DataField(7, "d", DataTypes.DOUBLE()),
            new DataField(8, "dec", DataTypes.DECIMAL(10, 2)),
            new DataField(9, "dec38", DataTypes.DECIMAL(38, 10)),
            new DataField(10, "c", DataTypes.CHAR(5)),
            new DataField(11, "vc", DataTypes.VARCHAR(10)),
            new DataField(12, "s", DataTypes.STRING()),
            new DataField(13, "bin", DataTypes.BINARY(4)),
            new DataField(14, "vb", DataTypes.BYTES()),
            new DataField(15, "dt", DataTypes.DATE()),
            new DataField(16, "tm", DataTypes.TIME()),
            new DataField(17, "ts3", DataTypes.TIMESTAMP(3)),
            new DataField(18, "ts6", DataTypes.TIMESTAMP(6)),
            new DataField(19, "ts9", DataTypes.TIMESTAMP(9)),
            new DataField(20, "ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)),
            new DataField(21, "ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)),
            new DataField(22, "arr", DataTypes.ARRAY(DataTypes.INT())),
            new DataField(23, "arr_s", DataTypes.ARRAY(DataTypes.STRING())),
            new DataField(24, "m", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT())),
            new DataField(25, "ms", DataTypes.MULTISET(DataTypes.STRING().notNull())),
            new DataField(26, "r", DataTypes.ROW(
                    new DataField(27, "x", DataTypes.INT()),
                    new DataField(28, "y", DataTypes.STRING()),
                    new DataField(29, "z", DataTypes.ROW(new DataField(30, "a", DataTypes.DOUBLE()))))),
            new DataField(31, "deep", DataTypes.ARRAY(DataTypes.ROW(
                    new DataField(32, "a", DataTypes.INT()),
                    new DataField(33, "l", DataTypes.ARRAY(DataTypes.STRING()))))),
            new DataField(34, "mm", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ARRAY(DataTypes.DOUBLE()))));

    private static final double[] DOUBLES = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0, 1.5, -1e300, Double.MIN_VALUE};
    private static final float[] FLOATS = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f, 2.25f, -3e38f, Float.MIN_VALUE};
    private static final int[] DATES = {-1, -25567, -719162, 0, 19723, 2932896, -141427};
    private static final String[] TIMESTAMPS = {
            "1969-12-31T23:59:58.999999999", "1969-12-31T23:59:59.000000001", "1900-01-01T00:00:00.001", "1960-06-15T12:30:45.123456789",
            "1970-01-01T00:00:00", "1970-01-01T00:00:00.000000001", "2024-02-29T23:59:59.999999999", "9999-12-31T23:59:59.999999999", "1601-01-01T00:00:00"};
    private static final String[] STRINGS = {"", "plain", "čšž", "日本", "emoji 😀", "tab\there", "trail  ", " lead", "Zürich"};
    private static final String[] CHARS = {"ab", "abcde", "čšž", "a b", "x  ", "😀"};

    private final Random random;

    OrcTestRows(long seed)
    {
        this.random = new Random(seed);
    }

    List<GenericRow> rows(RowType rowType, int first, int count)
    {
        GenericRow[] rows = new GenericRow[count];
        for (int i = 0; i < count; i++) {
            GenericRow row = new GenericRow(rowType.getFieldCount());
            row.setField(0, first + i);
            for (int f = 1; f < rowType.getFieldCount(); f++) {
                row.setField(f, value(rowType.getTypeAt(f)));
            }
            rows[i] = row;
        }
        return List.of(rows);
    }

    Object value(DataType type)
    {
        if (type.isNullable() && random.nextInt(7) == 0) {
            return null;
        }
        boolean special = random.nextInt(3) == 0;
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> special ? (random.nextBoolean() ? Byte.MIN_VALUE : Byte.MAX_VALUE) : (byte) random.nextInt();
            case SMALLINT -> special ? (random.nextBoolean() ? Short.MIN_VALUE : Short.MAX_VALUE) : (short) random.nextInt();
            case INTEGER -> special ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt(200) - 100;
            case BIGINT -> special ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : random.nextLong() >> random.nextInt(64);
            case FLOAT -> special ? FLOATS[random.nextInt(FLOATS.length)] : (float) random.nextGaussian() * 100;
            case DOUBLE -> special ? DOUBLES[random.nextInt(DOUBLES.length)] : random.nextGaussian() * 1e6;
            case DECIMAL -> decimal((DecimalType) type);
            case CHAR -> BinaryString.fromString(CHARS[random.nextInt(CHARS.length)]);
            case VARCHAR -> BinaryString.fromString(special ? STRINGS[random.nextInt(STRINGS.length)] : "v" + random.nextInt(50));
            case BINARY -> bytes(4);
            case VARBINARY -> bytes(random.nextInt(9));
            case DATE -> special ? DATES[random.nextInt(DATES.length)] : random.nextInt(60000) - 30000;
            case TIME_WITHOUT_TIME_ZONE -> special ? (random.nextBoolean() ? 0 : 86_399_999) : random.nextInt(86_400_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((org.apache.paimon.types.TimestampType) type).getPrecision(), special);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(((org.apache.paimon.types.LocalZonedTimestampType) type).getPrecision(), special);
            case ARRAY -> {
                Object[] elements = new Object[random.nextInt(4)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(((org.apache.paimon.types.ArrayType) type).getElementType());
                }
                yield new GenericArray(elements);
            }
            case MAP -> {
                org.apache.paimon.types.MapType map = (org.apache.paimon.types.MapType) type;
                Map<Object, Object> entries = new LinkedHashMap<>();
                int size = random.nextInt(4);
                for (int i = 0; i < size; i++) {
                    entries.put(value(map.getKeyType()), value(map.getValueType()));
                }
                yield new GenericMap(entries);
            }
            case MULTISET -> {
                org.apache.paimon.types.MultisetType multiset = (org.apache.paimon.types.MultisetType) type;
                Map<Object, Object> entries = new LinkedHashMap<>();
                int size = random.nextInt(3);
                for (int i = 0; i < size; i++) {
                    entries.put(value(multiset.getElementType()), 1 + random.nextInt(3));
                }
                yield new GenericMap(entries);
            }
            case ROW -> {
                RowType row = (RowType) type;
                GenericRow nested = new GenericRow(row.getFieldCount());
                for (int i = 0; i < row.getFieldCount(); i++) {
                    nested.setField(i, value(row.getTypeAt(i)));
                }
                yield nested;
            }
            default -> throw new IllegalArgumentException("Unsupported " + type);
        };
    }

    private Decimal decimal(DecimalType type)
    {
        BigInteger unscaled = new BigInteger(type.getPrecision() * 3, random);
        while (unscaled.toString().length() > type.getPrecision()) {
            unscaled = unscaled.shiftRight(1 + random.nextInt(8));
        }
        if (random.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return Decimal.fromBigDecimal(new BigDecimal(unscaled, type.getScale()), type.getPrecision(), type.getScale());
    }

    private byte[] bytes(int length)
    {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private Timestamp timestamp(int precision, boolean special)
    {
        long seconds;
        int nanos;
        // nanosecond timestamps are Arrow longs of nanoseconds: 1677 to 2262
        long range = precision > 6 ? 9_000_000_000L : 10_000_000_000L;
        if (special) {
            LocalDateTime value = LocalDateTime.parse(TIMESTAMPS[random.nextInt(TIMESTAMPS.length)]);
            seconds = value.toEpochSecond(java.time.ZoneOffset.UTC);
            nanos = value.getNano();
            if (Math.abs(seconds) > range) {
                seconds = Long.signum(seconds) * range;
            }
        }
        else {
            seconds = -range + (long) (random.nextDouble() * 2 * range);
            nanos = random.nextInt(1_000_000_000);
        }
        long unit = precision <= 3 ? 1_000_000 : precision <= 6 ? 1_000 : 1;
        nanos = (int) (nanos / unit * unit);
        return Timestamp.fromInstant(Instant.ofEpochSecond(seconds, nanos));
    }

    /**
     * The value of column {@code index} of {@code row} in Tarn's internal representation, for
     * evaluating Tarn predicates on the written rows.
     */
    static Object tarnValue(InternalRow row, int index, DataType type)
    {
        if (row.isNullAt(index)) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> row.getBoolean(index);
            case TINYINT -> row.getByte(index);
            case SMALLINT -> row.getShort(index);
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> row.getInt(index);
            case BIGINT -> row.getLong(index);
            case FLOAT -> row.getFloat(index);
            case DOUBLE -> row.getDouble(index);
            case DECIMAL -> row.getDecimal(index, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale()).toBigDecimal();
            case CHAR, VARCHAR -> row.getString(index).toString();
            case BINARY, VARBINARY -> row.getBinary(index);
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                Timestamp timestamp = row.getTimestamp(index, 9);
                yield new io.tarn.types.Timestamp(timestamp.getMillisecond(), timestamp.getNanoOfMillisecond());
            }
            default -> throw new IllegalArgumentException("No internal value for " + type);
        };
    }
}
