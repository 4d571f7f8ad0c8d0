package io.tarn.storage.read.merge;

import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values written by {@link ArrowValueWriter} read back unchanged with
 * {@link ArrowValues#value}, the existing reader of the same Arrow layout.
 */
public class TestArrowValueWriter
{
    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
        allocator.close();
    }

    @Test
    public void testRoundTripOfEveryType()
    {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("a", 1);
        map.put("b", null);
        List<Object[]> cases = List.of(
                new Object[] {DataTypes.booleanType(), true},
                new Object[] {DataTypes.tinyint(), (byte) -7},
                new Object[] {DataTypes.smallint(), (short) 300},
                new Object[] {DataTypes.integer(), Integer.MIN_VALUE},
                new Object[] {DataTypes.bigint(), Long.MAX_VALUE},
                new Object[] {DataTypes.floatType(), -1.5f},
                new Object[] {DataTypes.doubleType(), Double.NaN},
                new Object[] {DataTypes.decimal(38, 10), new BigDecimal("-1234567890123456789012345678.0123456789")},
                new Object[] {DataTypes.decimal(5, 2), new BigDecimal("1.05")},
                new Object[] {DataTypes.charType(3), "ab "},
                new Object[] {DataTypes.string(), "emoji 😀 日本"},
                new Object[] {DataTypes.bytes(), new byte[] {0, -1, 2}},
                new Object[] {DataTypes.date(), -719162},
                new Object[] {DataTypes.time(3), 86_399_999},
                new Object[] {DataTypes.timestamp(0), Timestamp.ofMillis(-2000)},
                new Object[] {DataTypes.timestamp(3), Timestamp.ofMillis(1_700_000_000_123L)},
                new Object[] {DataTypes.timestamp(6), new Timestamp(-1, 999_000)},
                new Object[] {DataTypes.timestamp(9), new Timestamp(1_700_000_000_123L, 456_789)},
                new Object[] {DataTypes.timestampLtz(6), new Timestamp(5, 1000)},
                new Object[] {new ArrayType(DataTypes.integer(), true), Arrays.asList(1, null, 3)},
                new Object[] {new ArrayType(new ArrayType(DataTypes.string(), true), true), List.of(List.of("x"), List.of(), Arrays.asList((Object) null))},
                new Object[] {new MapType(DataTypes.string().withNullable(false), DataTypes.integer(), true), map},
                new Object[] {new MultisetType(DataTypes.string(), true), List.of("a", "a", "b")},
                new Object[] {RowType.of(List.of(new DataField(1, "x", DataTypes.integer()), new DataField(2, "y", new ArrayType(DataTypes.string(), true)))),
                        Arrays.asList(null, List.of("p", "q"))});
        for (Object[] testCase : cases) {
            DataType type = (DataType) testCase[0];
            Object value = testCase[1];
            List<Object> values = new ArrayList<>();
            // nulls and empty slots between values exercise offsets and validity growth
            for (int i = 0; i < 300; i++) {
                values.add(i % 3 == 1 ? null : value);
            }
            DataField field = new DataField(7, "f", type);
            try (VectorSchemaRoot root = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(List.of(field)), allocator)) {
                root.allocateNew();
                for (int i = 0; i < values.size(); i++) {
                    ArrowValueWriter.write(root.getVector(0), i, values.get(i), type);
                }
                root.getVector(0).setValueCount(values.size());
                root.setRowCount(values.size());
                for (int i = 0; i < values.size(); i++) {
                    Object read = ArrowValues.value(root.getVector(0), i, type);
                    if (value instanceof byte[] bytes && read != null) {
                        assertThat((byte[]) read).as("%s row %s", type, i).isEqualTo(bytes);
                    }
                    else {
                        assertThat(read).as("%s row %s", type, i).isEqualTo(values.get(i));
                    }
                }
            }
        }
    }
}
