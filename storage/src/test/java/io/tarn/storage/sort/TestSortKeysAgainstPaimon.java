package io.tarn.storage.sort;

import io.tarn.index.order.HilbertKeys;
import io.tarn.index.order.ZOrderKeys;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.sort.hilbert.HilbertIndexer;
import org.apache.paimon.sort.zorder.ZIndexer;
import org.apache.paimon.types.RowType;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tarn's z-values and Hilbert values ({@link ZOrderKeys}, {@link HilbertKeys}) equal Apache
 * Paimon's {@code ZIndexer} and {@code HilbertIndexer} byte for byte, on generated rows of every
 * supported type with nulls, negative numbers, special floating-point values, strings and binaries
 * shorter and longer than the variable-length contribution, decimals of both storage forms and
 * timestamps before 1970.
 */
public class TestSortKeysAgainstPaimon
{
    private static final long SEED = 20261129L;
    private static final int ROWS = 1000;

    private record Column(String name, DataType tarnType, org.apache.paimon.types.DataType paimonType, Function<Random, Object> values, Function<Object, Object> toPaimon) {}

    private static List<Column> columns()
    {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("c_boolean", DataTypes.booleanType(), org.apache.paimon.types.DataTypes.BOOLEAN(), random -> random.nextBoolean(), value -> value));
        columns.add(new Column("c_tinyint", DataTypes.tinyint(), org.apache.paimon.types.DataTypes.TINYINT(), random -> (byte) random.nextInt(), value -> value));
        columns.add(new Column("c_smallint", DataTypes.smallint(), org.apache.paimon.types.DataTypes.SMALLINT(), random -> (short) random.nextInt(), value -> value));
        columns.add(new Column("c_int", DataTypes.integer(), org.apache.paimon.types.DataTypes.INT(),
                random -> pick(random, new Object[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1}, () -> random.nextInt(2001) - 1000, random::nextInt), value -> value));
        columns.add(new Column("c_bigint", DataTypes.bigint(), org.apache.paimon.types.DataTypes.BIGINT(),
                random -> pick(random, new Object[] {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L}, () -> (long) random.nextInt(2001) - 1000, random::nextLong), value -> value));
        columns.add(new Column("c_float", DataTypes.floatType(), org.apache.paimon.types.DataTypes.FLOAT(),
                random -> pick(random, new Object[] {Float.NaN, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, -0.0f, 0.0f, Float.MIN_VALUE, -Float.MAX_VALUE},
                        () -> (random.nextFloat() - 0.5f) * 1000, () -> Float.intBitsToFloat(random.nextInt())), value -> value));
        columns.add(new Column("c_double", DataTypes.doubleType(), org.apache.paimon.types.DataTypes.DOUBLE(),
                random -> pick(random, new Object[] {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE, -Double.MAX_VALUE},
                        () -> (random.nextDouble() - 0.5) * 1e6, () -> Double.longBitsToDouble(random.nextLong())), value -> value));
        columns.add(new Column("c_decimal_compact", DataTypes.decimal(10, 2), org.apache.paimon.types.DataTypes.DECIMAL(10, 2),
                random -> BigDecimal.valueOf(random.nextLong() % 10_000_000_000L, 2), value -> Decimal.fromBigDecimal((BigDecimal) value, 10, 2)));
        columns.add(new Column("c_decimal_wide", DataTypes.decimal(38, 10), org.apache.paimon.types.DataTypes.DECIMAL(38, 10),
                random -> new BigDecimal(new BigInteger(random.nextInt(120) + 1, random).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), 10),
                value -> Decimal.fromBigDecimal((BigDecimal) value, 38, 10)));
        columns.add(new Column("c_char", DataTypes.charType(12), org.apache.paimon.types.DataTypes.CHAR(12), random -> text(random, 12), value -> BinaryString.fromString((String) value)));
        columns.add(new Column("c_varchar", DataTypes.string(), org.apache.paimon.types.DataTypes.STRING(), random -> text(random, 30), value -> BinaryString.fromString((String) value)));
        columns.add(new Column("c_binary", DataTypes.binary(6), org.apache.paimon.types.DataTypes.BINARY(6), random -> bytes(random, 6, 6), value -> value));
        columns.add(new Column("c_varbinary", DataTypes.bytes(), org.apache.paimon.types.DataTypes.BYTES(), random -> bytes(random, 0, 25), value -> value));
        columns.add(new Column("c_date", DataTypes.date(), org.apache.paimon.types.DataTypes.DATE(), random -> random.nextInt(200_000) - 100_000, value -> value));
        columns.add(new Column("c_time", DataTypes.time(3), org.apache.paimon.types.DataTypes.TIME(3), random -> random.nextInt(86_400_000), value -> value));
        columns.add(new Column("c_timestamp", DataTypes.timestamp(6), org.apache.paimon.types.DataTypes.TIMESTAMP(6),
                random -> new Timestamp(random.nextLong() % 10_000_000_000_000L, random.nextInt(1000) * 1000), TestSortKeysAgainstPaimon::paimonTimestamp));
        columns.add(new Column("c_timestamp_ltz", DataTypes.timestampLtz(3), org.apache.paimon.types.DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3),
                random -> new Timestamp(random.nextLong() % 10_000_000_000_000L, 0), TestSortKeysAgainstPaimon::paimonTimestamp));
        return columns;
    }

    @Test
    public void testZValuesEqualPaimons()
    {
        System.out.println("TestSortKeysAgainstPaimon seed=" + SEED);
        List<Column> columns = columns();
        Random random = new Random(SEED);
        List<List<Object>> rows = rows(columns, random);
        long compared = 0;
        for (int varLength : new int[] {1, 3, 8, 20}) {
            compared += compareZValues(columns, allPositions(columns.size()), varLength, rows);
            for (int first = 0; first < columns.size(); first++) {
                for (int second = 0; second < columns.size(); second++) {
                    compared += compareZValues(columns, List.of(first, second), varLength, rows.subList(0, 80));
                }
                compared += compareZValues(columns, List.of(first), varLength, rows.subList(0, 80));
            }
            for (int i = 0; i < 10; i++) {
                compared += compareZValues(columns, List.of(random.nextInt(columns.size()), random.nextInt(columns.size()), random.nextInt(columns.size())), varLength, rows);
            }
        }
        assertThat(compared).isGreaterThan(50_000);
    }

    @Test
    public void testHilbertValuesEqualPaimons()
    {
        List<Column> columns = columns();
        Random random = new Random(SEED + 1);
        List<List<Object>> rows = rows(columns, random);
        compareHilbertValues(columns, allPositions(columns.size()), rows.subList(0, 300));
        for (int first = 0; first < columns.size(); first++) {
            for (int second = 0; second < columns.size(); second++) {
                if (first != second) {
                    compareHilbertValues(columns, List.of(first, second), rows.subList(0, 150));
                }
            }
        }
        for (int dimensions = 3; dimensions <= 9; dimensions++) {
            List<Integer> positions = new ArrayList<>();
            for (int i = 0; i < dimensions; i++) {
                positions.add(random.nextInt(columns.size()));
            }
            compareHilbertValues(columns, positions, rows);
        }
    }

    private static long compareZValues(List<Column> columns, List<Integer> positions, int varLength, List<List<Object>> rows)
    {
        List<Column> selected = positions.stream().map(columns::get).toList();
        RowType rowType = paimonRowType(selected);
        ZIndexer paimon = new ZIndexer(rowType, rowType.getFieldNames(), varLength);
        paimon.open();
        ZOrderKeys tarn = new ZOrderKeys(selected.stream().map(Column::tarnType).toList(), varLength);
        assertThat(tarn.keyLength()).isEqualTo(paimon.size());
        for (List<Object> row : rows) {
            List<Object> values = positions.stream().map(row::get).toList();
            byte[] expected = paimon.index(paimonRow(selected, values)).clone();
            assertThat(HexFormat.of().formatHex(tarn.key(values)))
                    .as("z-value of %s = %s with var-length contribution %s", rowType.getFieldNames(), values, varLength)
                    .isEqualTo(HexFormat.of().formatHex(expected));
        }
        return rows.size();
    }

    private static void compareHilbertValues(List<Column> columns, List<Integer> positions, List<List<Object>> rows)
    {
        List<Column> selected = positions.stream().map(columns::get).toList();
        RowType rowType = paimonRowType(selected);
        HilbertIndexer paimon = new HilbertIndexer(rowType, rowType.getFieldNames());
        paimon.open();
        HilbertKeys tarn = new HilbertKeys(selected.stream().map(Column::tarnType).toList());
        for (List<Object> row : rows) {
            List<Object> values = positions.stream().map(row::get).toList();
            assertThat(HexFormat.of().formatHex(tarn.key(values)))
                    .as("Hilbert value of %s = %s", rowType.getFieldNames(), values)
                    .isEqualTo(HexFormat.of().formatHex(paimon.index(paimonRow(selected, values))));
        }
    }

    /**
     * Columns may repeat in a sort key; Paimon resolves sort columns by name, so each position
     * gets its own field name.
     */
    private static RowType paimonRowType(List<Column> selected)
    {
        RowType.Builder builder = RowType.builder();
        for (int i = 0; i < selected.size(); i++) {
            builder.field(selected.get(i).name() + "_" + i, selected.get(i).paimonType());
        }
        return builder.build();
    }

    private static GenericRow paimonRow(List<Column> selected, List<Object> values)
    {
        GenericRow row = new GenericRow(values.size());
        for (int i = 0; i < values.size(); i++) {
            row.setField(i, values.get(i) == null ? null : selected.get(i).toPaimon().apply(values.get(i)));
        }
        return row;
    }

    private static List<List<Object>> rows(List<Column> columns, Random random)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            List<Object> values = new ArrayList<>();
            for (Column column : columns) {
                values.add(random.nextInt(10) == 0 ? null : column.values().apply(random));
            }
            rows.add(values);
        }
        return rows;
    }

    private static List<Integer> allPositions(int count)
    {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            positions.add(i);
        }
        return positions;
    }

    private static Object pick(Random random, Object[] specials, java.util.function.Supplier<Object> small, java.util.function.Supplier<Object> any)
    {
        int choice = random.nextInt(4);
        if (choice == 0) {
            return specials[random.nextInt(specials.length)];
        }
        return choice == 1 ? small.get() : any.get();
    }

    private static String text(Random random, int maxLength)
    {
        String[] alphabet = {"a", "b", "z", "A", "0", " ", "é", "ß", "中", "😀", "\u0000"};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(maxLength + 1);
        for (int i = 0; i < length; i++) {
            text.append(alphabet[random.nextInt(alphabet.length)]);
        }
        return text.toString();
    }

    private static byte[] bytes(Random random, int minLength, int maxLength)
    {
        byte[] bytes = new byte[minLength + random.nextInt(maxLength - minLength + 1)];
        random.nextBytes(bytes);
        return bytes;
    }

    private static org.apache.paimon.data.Timestamp paimonTimestamp(Object value)
    {
        Timestamp timestamp = (Timestamp) value;
        return org.apache.paimon.data.Timestamp.fromEpochMillis(timestamp.epochMillis(), timestamp.nanoOfMillisecond());
    }
}
