package io.tarn.vector.rows;

import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestArrowValues
{
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
    public void testInternalValues()
    {
        List<DataField> fields = List.of(
                new DataField(1, "b", DataTypes.booleanType()),
                new DataField(2, "t", DataTypes.tinyint()),
                new DataField(3, "s", DataTypes.smallint()),
                new DataField(4, "i", DataTypes.integer()),
                new DataField(5, "l", DataTypes.bigint()),
                new DataField(6, "f", DataTypes.floatType()),
                new DataField(7, "d", DataTypes.doubleType()),
                new DataField(8, "dec", DataTypes.decimal(38, 10)),
                new DataField(9, "v", DataTypes.string()),
                new DataField(10, "vb", DataTypes.bytes()),
                new DataField(11, "dt", DataTypes.date()),
                new DataField(12, "tm", DataTypes.time(3)),
                new DataField(13, "ts3", DataTypes.timestamp(3)),
                new DataField(14, "ts6", DataTypes.timestamp(6)),
                new DataField(15, "ts9", DataTypes.timestampLtz(9)));
        List<Object> values = List.of(true, (byte) -5, (short) 300, -7, 1L << 40, -0.0f, Double.NaN, new BigDecimal("-1234567890123456789012345678.0123456789"),
                "\u00e9\ud83d\ude00", new byte[] {(byte) 0xff}, -719_162, 86_399_999,
                new Timestamp(-1, 0), new Timestamp(-1, 999_000), new Timestamp(-1, 999_999));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, List.of(values, Arrays.asList(new Object[15])))) {
            for (int column = 0; column < fields.size(); column++) {
                assertThat(ArrowValues.value(root.getVector(column), 0, fields.get(column).type()))
                        .as(fields.get(column).name())
                        .isEqualTo(values.get(column));
                assertThat(ArrowValues.value(root.getVector(column), 1, fields.get(column).type())).isNull();
            }
            assertThatThrownBy(() -> ArrowValues.value(root.getVector(0), 2, DataTypes.booleanType()))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> ArrowValues.value(root.getVector(3), 0, DataTypes.bigint()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not hold values of type BIGINT");
        }
    }

    @Test
    public void testNestedValues()
    {
        List<DataField> fields = List.of(
                new DataField(1, "a", new ArrayType(DataTypes.integer(), true)),
                new DataField(2, "m", new MapType(DataTypes.string().withNullable(false), DataTypes.doubleType(), true)),
                new DataField(3, "ms", new MultisetType(DataTypes.string().withNullable(false), true)),
                new DataField(4, "r", RowType.of(List.of(new DataField(5, "x", DataTypes.integer()), new DataField(6, "y", DataTypes.date())))));
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("z", 1.0);
        map.put("a", null);
        Map<Object, Object> multiset = new LinkedHashMap<>();
        multiset.put("x", 2);
        multiset.put("y", 1);
        List<Object> row = List.of(Arrays.asList(1, null, 3), map, multiset, Arrays.asList(null, 5));
        try (VectorSchemaRoot root = TestingBatches.batch(allocator, fields, List.of(row))) {
            assertThat(ArrowValues.value(root.getVector(0), 0, fields.get(0).type())).isEqualTo(Arrays.asList(1, null, 3));
            Object mapValue = ArrowValues.value(root.getVector(1), 0, fields.get(1).type());
            assertThat(mapValue).isEqualTo(map);
            assertThat(List.copyOf(((Map<?, ?>) mapValue).keySet())).isEqualTo(List.of("z", "a"));
            assertThat(ArrowValues.value(root.getVector(2), 0, fields.get(2).type())).isEqualTo(List.of("x", "x", "y"));
            assertThat(ArrowValues.value(root.getVector(3), 0, fields.get(3).type())).isEqualTo(Arrays.asList(null, 5));
        }
    }
}
