package io.tarn.storage.binary;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.types.RowType;
import io.tarn.types.Timestamp;
import org.apache.paimon.utils.InternalRowPartitionComputer;
import org.apache.paimon.utils.PartitionPathUtils;
import org.testng.annotations.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestPartitionPath
{
    private static final List<AtomicType> PARTITION_TYPES = List.of(
            DataTypes.string(),
            DataTypes.varchar(10),
            DataTypes.integer(),
            DataTypes.bigint(),
            DataTypes.smallint(),
            DataTypes.booleanType(),
            DataTypes.date(),
            DataTypes.decimal(10, 2),
            DataTypes.decimal(25, 3),
            DataTypes.doubleType(),
            DataTypes.timestamp(3),
            DataTypes.timestamp(6));

    @Test
    public void testSpecExamples()
    {
        RowType type = RowType.of(List.of(new DataField(0, "dt", DataTypes.date()), new DataField(1, "name", DataTypes.string())));
        BinaryRow row = BinaryRowWriter.encode(type.fieldTypes(), List.of(19723, "a/b:c"));
        assertThat(PartitionPath.of(row, type, PartitionPath.DEFAULT_PARTITION_NAME, true)).isEqualTo("dt=19723/name=a%2Fb%3Ac/");
        assertThat(PartitionPath.of(row, type, PartitionPath.DEFAULT_PARTITION_NAME, false)).isEqualTo("dt=2024-01-01/name=a%2Fb%3Ac/");
        BinaryRow blank = BinaryRowWriter.encode(type.fieldTypes(), Arrays.asList(null, "  "));
        assertThat(PartitionPath.of(blank, type, "__DEFAULT_PARTITION__", true)).isEqualTo("dt=__DEFAULT_PARTITION__/name=__DEFAULT_PARTITION__/");
        assertThat(PartitionPath.of(BinaryRow.EMPTY, RowType.of(List.of()), "x", true)).isEmpty();
        assertThat(PartitionPath.escape("\u0001{x}")).isEqualTo("%01%7Bx%7D");
    }

    @Test
    public void testUnsupportedTypes()
    {
        RowType type = RowType.of(List.of(new DataField(0, "b", DataTypes.bytes())));
        BinaryRow row = BinaryRowWriter.encode(type.fieldTypes(), List.of(new byte[] {1}));
        assertThatThrownBy(() -> PartitionPath.of(row, type, "d", true))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("b");
        RowType timestampType = RowType.of(List.of(new DataField(0, "ts", DataTypes.timestamp(3))));
        BinaryRow timestampRow = BinaryRowWriter.encode(timestampType.fieldTypes(), List.of(Timestamp.ofMillis(0)));
        assertThatThrownBy(() -> PartitionPath.of(timestampRow, timestampType, "d", false))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    public void testRandomPartitionsMatchPaimon()
    {
        long seed = System.nanoTime();
        System.out.println("TestPartitionPath.testRandomPartitionsMatchPaimon seed " + seed);
        Random random = new Random(seed);
        for (int iteration = 0; iteration < 300; iteration++) {
            boolean legacy = random.nextBoolean();
            int arity = 1 + random.nextInt(3);
            List<DataField> fields = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < arity; i++) {
                AtomicType type = PARTITION_TYPES.get(random.nextInt(PARTITION_TYPES.size()));
                if (!legacy && type.root() == io.tarn.types.TypeRoot.TIMESTAMP) {
                    type = DataTypes.integer();
                }
                fields.add(new DataField(i, i == 0 ? "p=" + i : "p" + i, type));
                Object value = switch (random.nextInt(8)) {
                    case 0 -> null;
                    case 1 -> type.root().isCharacterString() ? " " : TestBinaryRow.randomValue(type, random);
                    default -> TestBinaryRow.randomValue(type, random);
                };
                if (value instanceof Integer date && type.root() == io.tarn.types.TypeRoot.DATE) {
                    value = Math.abs(date % 2_000_000);
                }
                values.add(value);
            }
            RowType rowType = RowType.of(fields);
            String context = "seed " + seed + ", iteration " + iteration + ", legacy " + legacy + ", type " + rowType.asSqlString() + ", values " + values;

            BinaryRow row = BinaryRowWriter.encode(rowType.fieldTypes(), values);
            org.apache.paimon.types.RowType paimonType = PaimonRows.paimonRowType(rowType.fieldNames(), rowType.fieldTypes());
            InternalRowPartitionComputer computer = new InternalRowPartitionComputer("__DEF__", paimonType, rowType.fieldNames().toArray(String[]::new), legacy);
            String expected = PartitionPathUtils.generatePartitionPath(computer.generatePartValues(PaimonRows.encode(rowType.fieldTypes(), values)));
            assertThat(PartitionPath.of(row, rowType, "__DEF__", legacy)).as(context).isEqualTo(expected);
        }
    }
}
