package io.tarn.vector.reader;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random rows for a schema covering every Paimon type, with nulls at every nesting level.
 * Public for the tests of the other formats' readers.
 */
public final class TestDataGenerator
{
    public static final RowType ALL_TYPES = new RowType(List.of(
            new DataField(0, "id", DataTypes.BIGINT().notNull()),
            new DataField(1, "b", DataTypes.BOOLEAN()),
            new DataField(2, "ti", DataTypes.TINYINT()),
            new DataField(3, "si", DataTypes.SMALLINT()),
            new DataField(4, "i", DataTypes.INT()),
            new DataField(5, "bi", DataTypes.BIGINT()),
            new DataField(6, "f", DataTypes.FLOAT()),
            new DataField(7, "d", DataTypes.DOUBLE()),
            new DataField(8, "dec9", DataTypes.DECIMAL(9, 2)),
            new DataField(9, "dec18", DataTypes.DECIMAL(18, 4)),
            new DataField(10, "dec38", DataTypes.DECIMAL(38, 6)),
            new DataField(11, "s", DataTypes.STRING()),
            new DataField(12, "vc", DataTypes.VARCHAR(20)),
            new DataField(13, "bin", DataTypes.BYTES()),
            new DataField(14, "dt", DataTypes.DATE()),
            new DataField(15, "tm", DataTypes.TIME(3)),
            new DataField(16, "ts3", DataTypes.TIMESTAMP(3)),
            new DataField(17, "ts6", DataTypes.TIMESTAMP(6)),
            new DataField(18, "ts9", DataTypes.TIMESTAMP(9)),
            new DataField(19, "ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)),
            new DataField(20, "ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)),
            new DataField(21, "ltz9", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9)),
            new DataField(22, "req", DataTypes.INT().notNull()),
            new DataField(23, "arr", DataTypes.ARRAY(DataTypes.INT())),
            new DataField(24, "arr_s", DataTypes.ARRAY(DataTypes.STRING())),
            new DataField(25, "m", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT())),
            new DataField(26, "r", DataTypes.ROW(new DataField(100, "x", DataTypes.INT()), new DataField(101, "y", DataTypes.STRING()))),
            new DataField(27, "deep", DataTypes.ARRAY(DataTypes.ROW(
                    new DataField(102, "a", DataTypes.INT()),
                    new DataField(103, "l", DataTypes.ARRAY(DataTypes.STRING()))))),
            new DataField(28, "ms", DataTypes.MULTISET(DataTypes.STRING().notNull())),
            new DataField(29, "mm", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ARRAY(DataTypes.DOUBLE())))));

    private final Random random;

    public TestDataGenerator(long seed)
    {
        this.random = new Random(seed);
    }

    public List<GenericRow> rows(RowType rowType, int count)
    {
        List<GenericRow> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            GenericRow row = new GenericRow(rowType.getFieldCount());
            for (int f = 0; f < rowType.getFieldCount(); f++) {
                DataField field = rowType.getFields().get(f);
                if (field.name().equals("id")) {
                    row.setField(f, (long) i);
                }
                else {
                    row.setField(f, value(field.type()));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    public Object value(DataType type)
    {
        if (type.isNullable() && random.nextInt(7) == 0) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> (byte) random.nextInt();
            case SMALLINT -> (short) random.nextInt();
            case INTEGER -> random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(50) - 10;
            case BIGINT -> random.nextInt(4) == 0 ? random.nextLong() : (long) random.nextInt(100);
            case FLOAT -> random.nextInt(10) == 0 ? Float.NaN : (float) (random.nextGaussian() * 1000);
            case DOUBLE -> random.nextInt(10) == 0 ? -0.0 : random.nextGaussian() * 1e6;
            case DECIMAL -> {
                org.apache.paimon.types.DecimalType decimal = (org.apache.paimon.types.DecimalType) type;
                BigInteger unscaled = new BigInteger(decimal.getPrecision() * 3, random);
                while (unscaled.toString().length() > decimal.getPrecision()) {
                    unscaled = unscaled.shiftRight(1);
                }
                if (random.nextBoolean()) {
                    unscaled = unscaled.negate();
                }
                yield Decimal.fromBigDecimal(new BigDecimal(unscaled, decimal.getScale()), decimal.getPrecision(), decimal.getScale());
            }
            case CHAR, VARCHAR -> BinaryString.fromString(string());
            case BINARY, VARBINARY -> {
                byte[] bytes = new byte[random.nextInt(12)];
                random.nextBytes(bytes);
                yield bytes;
            }
            case DATE -> random.nextInt(40000) - 10000;
            case TIME_WITHOUT_TIME_ZONE -> random.nextInt(86_400_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((org.apache.paimon.types.TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(((org.apache.paimon.types.LocalZonedTimestampType) type).getPrecision());
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

    private String string()
    {
        int kind = random.nextInt(5);
        if (kind == 0) {
            return "";
        }
        if (kind == 1) {
            return "v" + random.nextInt(5);
        }
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(15);
        for (int i = 0; i < length; i++) {
            int pick = random.nextInt(30);
            text.append(pick == 0 ? '\t' : pick == 1 ? 'é' : pick == 2 ? '"' : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private Timestamp timestamp(int precision)
    {
        long millis = random.nextLong() % 4_000_000_000_000L;
        int nanos = 0;
        if (precision > 3) {
            nanos = random.nextInt(1_000_000);
            if (precision <= 6) {
                nanos = nanos / 1000 * 1000;
            }
        }
        return Timestamp.fromEpochMillis(millis, nanos);
    }
}
