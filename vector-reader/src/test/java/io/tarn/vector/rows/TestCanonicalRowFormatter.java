package io.tarn.vector.rows;

import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestCanonicalRowFormatter
{
    private static final List<DataField> SCALAR_FIELDS = List.of(
            new DataField(1, "b", DataTypes.booleanType()),
            new DataField(2, "t", DataTypes.tinyint()),
            new DataField(3, "s", DataTypes.smallint()),
            new DataField(4, "i", DataTypes.integer()),
            new DataField(5, "l", DataTypes.bigint()),
            new DataField(6, "f", DataTypes.floatType()),
            new DataField(7, "d", DataTypes.doubleType()),
            new DataField(8, "dec", DataTypes.decimal(10, 2)),
            new DataField(9, "c", DataTypes.charType(5)),
            new DataField(10, "v", DataTypes.string()),
            new DataField(11, "bin", DataTypes.binary(2)),
            new DataField(12, "vb", DataTypes.bytes()),
            new DataField(13, "dt", DataTypes.date()),
            new DataField(14, "tm", DataTypes.time(3)),
            new DataField(15, "ts", DataTypes.timestamp(3)),
            new DataField(16, "ltz", DataTypes.timestampLtz(6)));

    private static final List<List<Object>> SCALAR_ROWS = List.of(
            List.of(true, (byte) -128, (short) 32767, Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, -0.0, new BigDecimal("-211.20"), "ab",
                    "a\\b\tc\nd\re\"f'g \u00e9 \ud83d\ude00", new byte[] {0, (byte) 0xff}, new byte[] {0x0a, 0x1b, (byte) 0x80}, -1, 0,
                    new Timestamp(-1, 0), new Timestamp(1_600_000_000_123L, 456_000)),
            List.of(false, (byte) 0, (short) -1, 0, -1L, Float.NaN, 1.0E10, new BigDecimal("0.05"), "", "", new byte[0], new byte[] {1},
                    18262, 45_296_789, new Timestamp(0, 0), new Timestamp(-1, 999_000)),
            List.of(true, (byte) 127, (short) -32768, Integer.MAX_VALUE, Long.MIN_VALUE, Float.NEGATIVE_INFINITY, Double.MIN_VALUE, new BigDecimal("12345678.90"),
                    "x", "plain", new byte[] {(byte) 0xab, (byte) 0xcd}, new byte[] {}, 0, 45_000_000, new Timestamp(-86_400_000L * 365 * 100, 0), new Timestamp(0, 1000)),
            Collections.nCopies(16, null));

    // worked out by hand from the canonical format's rules
    private static final List<String> SCALAR_LINES = List.of(
            "true\t-128\t32767\t-2147483648\t9223372036854775807\t1.5\t-0.0\t-211.20\tab\ta\\\\b\\tc\\nd\\re\"f'g \u00e9 \ud83d\ude00\t0x00ff\t0x0a1b80\t" +
                    "1969-12-31\t00:00\t1969-12-31T23:59:59.999\t2020-09-13T12:26:40.123456Z",
            "false\t0\t-1\t0\t-1\tNaN\t1.0E10\t0.05\t\t\t0x\t0x01\t2020-01-01\t12:34:56.789\t1970-01-01T00:00:00.000\t1969-12-31T23:59:59.999999Z",
            "true\t127\t-32768\t2147483647\t-9223372036854775808\t-Infinity\t4.9E-324\t12345678.90\tx\tplain\t0xabcd\t0x\t1970-01-01\t12:30\t1870-01-25T00:00:00.000\t1970-01-01T00:00:00.000001Z",
            String.join("\t", Collections.nCopies(16, "\\N")));

    private static final DataType INT_ARRAY = new ArrayType(DataTypes.integer(), true);
    private static final List<DataField> NESTED_FIELDS = List.of(
            new DataField(1, "arr", new ArrayType(DataTypes.string(), true)),
            new DataField(2, "m", new MapType(DataTypes.string().withNullable(false), DataTypes.integer(), true)),
            new DataField(3, "r", RowType.of(List.of(
                    new DataField(31, "x", DataTypes.integer()),
                    new DataField(32, "y", DataTypes.string()),
                    new DataField(33, "z", INT_ARRAY)))),
            new DataField(4, "aa", new ArrayType(INT_ARRAY, true)),
            new DataField(5, "ms", new MultisetType(DataTypes.string().withNullable(false), true)),
            new DataField(6, "am", new ArrayType(new MapType(DataTypes.integer().withNullable(false), DataTypes.decimal(5, 2), true), true)),
            new DataField(7, "rts", RowType.of(List.of(
                    new DataField(71, "t", DataTypes.timestamp(3)),
                    new DataField(72, "d", DataTypes.date()),
                    new DataField(73, "b", DataTypes.bytes()),
                    new DataField(74, "f", DataTypes.doubleType()),
                    new DataField(75, "ltz", DataTypes.timestampLtz(0))))));

    private BufferAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
    }

    @Test
    public void testScalarsByHand()
    {
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, SCALAR_FIELDS, SCALAR_ROWS)) {
            List<String> lines = new ArrayList<>();
            CanonicalRowFormatter.appendLines(root, SCALAR_FIELDS, lines);
            assertThat(lines).containsExactlyElementsOf(SCALAR_LINES);
            for (int row = 0; row < SCALAR_LINES.size(); row++) {
                assertThat(CanonicalRowFormatter.formatRow(root, row, SCALAR_FIELDS)).isEqualTo(SCALAR_LINES.get(row));
            }
        }
    }

    @Test
    public void testScalarsMatchPaimonFormatter()
    {
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, SCALAR_FIELDS, SCALAR_ROWS)) {
            for (int row = 0; row < SCALAR_ROWS.size(); row++) {
                String oracle = CanonicalValueFormatter.formatRow(PaimonValues.row(SCALAR_FIELDS, SCALAR_ROWS.get(row)), PaimonValues.rowType(SCALAR_FIELDS));
                assertThat(CanonicalRowFormatter.formatRow(root, row, SCALAR_FIELDS)).isEqualTo(oracle);
            }
        }
    }

    @Test
    public void testNested()
    {
        List<List<Object>> rows = List.of(
                List.of(
                        Arrays.asList("a", null, "q\"u\\o\tt\ne\r", ""),
                        linkedMap("k1", 1, "k2", null),
                        Arrays.asList(7, "s", Arrays.asList(1, null)),
                        Arrays.asList(List.of(1, 2), null, List.of()),
                        linkedMap("x", 2, "y", 1),
                        Arrays.asList(linkedMap(1, new BigDecimal("1.50"), -3, null), null),
                        Arrays.asList(new Timestamp(0, 0), 0, new byte[] {1, 2}, 2.5, new Timestamp(-1000, 0))),
                List.of(
                        List.of(),
                        Map.of(),
                        Arrays.asList(null, null, null),
                        Arrays.asList((Object) null),
                        Map.of(),
                        List.of(),
                        Arrays.asList(null, null, null, null, null)),
                Collections.nCopies(7, null));
        List<String> expected = List.of(
                "[\"a\",null,\"q\\\"u\\\\o\\tt\\ne\\r\",\"\"]\t{\"k1\"=1,\"k2\"=null}\t{7,\"s\",[1,null]}\t[[1,2],null,[]]\t{\"x\"=2,\"y\"=1}\t[{1=1.50,-3=null},null]\t" +
                        "{1970-01-01T00:00:00.000,1970-01-01,0x0102,2.5,1969-12-31T23:59:59Z}",
                "[]\t{}\t{null,null,null}\t[null]\t{}\t[]\t{null,null,null,null,null}",
                String.join("\t", Collections.nCopies(7, "\\N")));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, NESTED_FIELDS, rows)) {
            List<String> lines = new ArrayList<>();
            CanonicalRowFormatter.appendLines(root, NESTED_FIELDS, lines);
            assertThat(lines).containsExactlyElementsOf(expected);
            for (int row = 0; row < rows.size(); row++) {
                String oracle = CanonicalValueFormatter.formatRow(PaimonValues.row(NESTED_FIELDS, rows.get(row)), PaimonValues.rowType(NESTED_FIELDS));
                assertThat(lines.get(row)).isEqualTo(oracle);
            }
        }
    }

    @Test
    public void testTimestampPrecisions()
    {
        // -1.234 s plus 567,891 ns: 1969-12-31T23:59:58.766567891; each unit stores what its precision keeps
        Timestamp value = new Timestamp(-1234, 567_891);
        String[] fractions = {"", ".7", ".76", ".766", ".7665", ".76656", ".766567", ".7665678", ".76656789", ".766567891"};
        for (int precision = 0; precision <= 9; precision++) {
            List<DataField> fields = List.of(
                    new DataField(1, "ts", DataTypes.timestamp(precision)),
                    new DataField(2, "ltz", DataTypes.timestampLtz(precision)));
            String expected = "1969-12-31T23:59:58" + fractions[precision];
            try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, List.of(List.of(value, value)))) {
                assertThat(CanonicalRowFormatter.formatRow(root, 0, fields))
                        .as("precision %s", precision)
                        .isEqualTo(expected + "\t" + expected + "Z")
                        .isEqualTo(CanonicalValueFormatter.formatTimestamp(value.epochMillis(), value.nanoOfMillisecond(), precision) + "\t" +
                                CanonicalValueFormatter.formatTimestampLtz(value.epochMillis(), value.nanoOfMillisecond(), precision));
            }
        }
    }

    @Test
    public void testTimes()
    {
        List<DataField> fields = List.of(new DataField(1, "tm", DataTypes.time(3)));
        int[] millis = {0, 1, 1000, 60_000, 3_600_000, 86_399_999, 43_200_100};
        String[] expected = {"00:00", "00:00:00.001", "00:00:01", "00:01", "01:00", "23:59:59.999", "12:00:00.100"};
        List<List<Object>> rows = new ArrayList<>();
        for (int value : millis) {
            rows.add(List.of(value));
        }
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, rows)) {
            for (int i = 0; i < millis.length; i++) {
                assertThat(CanonicalRowFormatter.formatRow(root, i, fields))
                        .isEqualTo(expected[i])
                        .isEqualTo(CanonicalValueFormatter.formatTime(millis[i]));
            }
        }
    }

    @Test
    public void testColumnCountMustMatch()
    {
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, SCALAR_FIELDS, SCALAR_ROWS)) {
            assertThatThrownBy(() -> CanonicalRowFormatter.formatRow(root, 0, SCALAR_FIELDS.subList(0, 3)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("16 columns but 3 fields");
            assertThatThrownBy(() -> CanonicalRowFormatter.formatRow(root, 4, SCALAR_FIELDS))
                    .isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    public void testWrongVectorForType()
    {
        List<DataField> fields = List.of(new DataField(1, "i", DataTypes.integer()));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, List.of(List.of(1)))) {
            assertThatThrownBy(() -> CanonicalRowFormatter.formatRow(root, 0, List.of(new DataField(1, "i", DataTypes.bigint()))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not hold values of type BIGINT");
        }
    }

    private static Map<Object, Object> linkedMap(Object... keysAndValues)
    {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
