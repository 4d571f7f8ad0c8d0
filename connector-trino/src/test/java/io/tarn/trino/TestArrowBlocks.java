package io.tarn.trino;

import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.type.RowType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ArrowBlocks}' validity: Trino's bit-packed validity is taken from Arrow's validity buffer
 * word by word, so positions on both sides of byte and word boundaries, a batch shorter than the
 * vector and the nulls a null struct gives its fields must read as Arrow reads them.
 */
public class TestArrowBlocks
{
    private static final int VALUES = 150;

    private BufferAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory left").isZero();
        allocator.close();
        allocator = null;
    }

    @Test
    public void testNullsAcrossByteAndWordBoundaries()
    {
        try (IntVector vector = new IntVector("i", allocator)) {
            vector.allocateNew(VALUES);
            for (int i = 0; i < VALUES; i++) {
                if (isNullAt(i)) {
                    vector.setNull(i);
                }
                else {
                    vector.set(i, i * 3);
                }
            }
            vector.setValueCount(VALUES);
            for (int positions : List.of(VALUES, 131, 64, 63, 9, 1)) {
                Block block = ArrowBlocks.toBlock(vector, INTEGER, positions);
                assertThat(block.getPositionCount()).isEqualTo(positions);
                for (int i = 0; i < positions; i++) {
                    assertThat(block.isNull(i)).as("position %s of %s", i, positions).isEqualTo(vector.isNull(i));
                    if (!vector.isNull(i)) {
                        assertThat(INTEGER.getInt(block, i)).isEqualTo(vector.get(i));
                    }
                }
            }
        }
    }

    @Test
    public void testNoNullsNoValidity()
    {
        try (IntVector vector = new IntVector("i", allocator)) {
            vector.allocateNew(VALUES);
            for (int i = 0; i < VALUES; i++) {
                vector.set(i, i);
            }
            vector.setValueCount(VALUES);
            assertThat(ArrowBlocks.toBlock(vector, INTEGER, VALUES).mayHaveNull()).isFalse();
        }
        try (IntVector vector = new IntVector("i", allocator)) {
            // the only null lies past the batch
            vector.allocateNew(VALUES);
            for (int i = 0; i < VALUES - 1; i++) {
                vector.set(i, i);
            }
            vector.setNull(VALUES - 1);
            vector.setValueCount(VALUES);
            assertThat(ArrowBlocks.toBlock(vector, INTEGER, VALUES - 1).mayHaveNull()).isFalse();
        }
    }

    @Test
    public void testNullStructMakesItsFieldsNull()
    {
        RowType type = RowType.rowType(RowType.field("a", INTEGER), RowType.field("b", VARCHAR));
        try (StructVector struct = StructVector.empty("s", allocator)) {
            IntVector a = struct.addOrGet("a", FieldType.nullable(new ArrowType.Int(32, true)), IntVector.class);
            VarCharVector b = struct.addOrGet("b", FieldType.nullable(ArrowType.Utf8.INSTANCE), VarCharVector.class);
            struct.allocateNew();
            for (int i = 0; i < VALUES; i++) {
                if (i % 5 == 0) {
                    a.setNull(i);
                }
                else {
                    a.setSafe(i, i);
                }
                if (i % 3 == 0) {
                    b.setNull(i);
                }
                else {
                    b.setSafe(i, ("v" + i).getBytes(StandardCharsets.UTF_8));
                }
                if (isNullAt(i)) {
                    struct.setNull(i);
                }
                else {
                    struct.setIndexDefined(i);
                }
            }
            a.setValueCount(VALUES);
            b.setValueCount(VALUES);
            struct.setValueCount(VALUES);

            RowBlock block = (RowBlock) ArrowBlocks.toBlock(struct, type, VALUES);
            Block fieldA = block.getFieldBlocks().get(0);
            Block fieldB = block.getFieldBlocks().get(1);
            for (int i = 0; i < VALUES; i++) {
                assertThat(block.isNull(i)).as("row %s", i).isEqualTo(struct.isNull(i));
                assertThat(fieldA.isNull(i)).as("a of row %s", i).isEqualTo(struct.isNull(i) || a.isNull(i));
                assertThat(fieldB.isNull(i)).as("b of row %s", i).isEqualTo(struct.isNull(i) || b.isNull(i));
                if (!fieldA.isNull(i)) {
                    assertThat(INTEGER.getInt(fieldA, i)).isEqualTo(a.get(i));
                }
                if (!fieldB.isNull(i)) {
                    assertThat(VARCHAR.getSlice(fieldB, i).toStringUtf8()).isEqualTo(new String(b.get(i), StandardCharsets.UTF_8));
                }
            }
        }
    }

    private static boolean isNullAt(int position)
    {
        // both sides of the byte boundaries 7/8 and of the word boundaries 63/64 and 127/128
        return position % 7 == 0 || position == 8 || position == 63 || position == 64 || position == 127 || position == 128 || position == VALUES - 1;
    }
}
