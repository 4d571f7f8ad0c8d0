package io.tarn.index.order;

import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Z-values worked by hand from the layout in {@link ZOrderKeys}'s Javadoc; the byte-for-byte
 * comparison with Paimon's {@code ZIndexer} lives in storage's {@code TestSortKeysAgainstPaimon}.
 */
public class TestZOrderKeys
{
    @Test
    public void testInterleavesBitsAndDropsExhaustedColumns()
    {
        assertThat(hex(ZOrderKeys.interleave(new byte[][] {{(byte) 0xFF}, {0x00}}, 2))).isEqualTo("aaaa");
        // the second column runs out after its first byte: the last byte is the first column's alone
        assertThat(hex(ZOrderKeys.interleave(new byte[][] {{(byte) 0xFF, (byte) 0xFF}, {0x00}}, 3))).isEqualTo("aaaaff");
        assertThat(hex(ZOrderKeys.interleave(new byte[][] {{(byte) 0xF0}, {(byte) 0x0F}, {0x00}}, 3))).isEqualTo("924492");
    }

    @Test
    public void testTwoColumnFastPathEqualsTheBitLoop()
    {
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 1000; i++) {
            long first = random.nextLong();
            long second = i % 10 == 0 ? 0 : random.nextLong();
            byte[][] columns = {ZOrderKeys.bigEndian(first), ZOrderKeys.bigEndian(second)};
            assertThat(hex(ZOrderKeys.interleaveTwoLongs(first, second))).isEqualTo(hex(ZOrderKeys.interleave(columns, 16)));
        }
        // 0xFF.. and 0: pairs 10 -> 0xAA in every byte
        assertThat(hex(ZOrderKeys.interleaveTwoLongs(-1L, 0L))).isEqualTo("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    }

    @Test
    public void testColumnEncodings()
    {
        assertThat(single(DataTypes.integer(), -1)).isEqualTo("7fffffffffffffff");
        assertThat(single(DataTypes.integer(), 1)).isEqualTo("8000000000000001");
        assertThat(single(DataTypes.bigint(), Long.MIN_VALUE)).isEqualTo("0000000000000000");
        assertThat(single(DataTypes.date(), 0)).isEqualTo("8000000000000000");
        assertThat(single(DataTypes.timestamp(6), new Timestamp(1_000L, 999_999))).isEqualTo("80000000000003e8");
        assertThat(single(DataTypes.booleanType(), true)).isEqualTo("8100000000000000");
        // 1.0 = 0x3FF0000000000000; bits >> 31 = 0x000000007FE00000, with the sign bit 0x800000007FE00000
        assertThat(single(DataTypes.doubleType(), 1.0)).isEqualTo("bff000007fe00000");
        // -1.0 = 0xBFF0000000000000; bits >> 31 = 0xFFFFFFFF7FE00000
        assertThat(single(DataTypes.doubleType(), -1.0)).isEqualTo("400fffff7fe00000");
        assertThat(single(DataTypes.floatType(), 1.0f)).isEqualTo("bff000007fe00000");
        // unscaled 12345 = 0x3039, left-aligned
        assertThat(single(DataTypes.decimal(10, 2), new BigDecimal("123.45"))).isEqualTo("3039000000000000");
        assertThat(single(DataTypes.string(), "ab")).isEqualTo("6162000000000000");
        assertThat(single(DataTypes.string(), "abcdefghij")).isEqualTo("6162636465666768");
        assertThat(single(DataTypes.bytes(), new byte[] {1, 2})).isEqualTo("0102000000000000");
        assertThat(single(DataTypes.string(), null)).isEqualTo("0000000000000000");
    }

    @Test
    public void testVarLengthContribution()
    {
        ZOrderKeys keys = new ZOrderKeys(List.of(DataTypes.string(), DataTypes.string()), 2);
        assertThat(keys.keyLength()).isEqualTo(4);
        // "a" = 61 00, "b" = 62 00: bit pairs 00 11 11 00 00 00 01 10, then zeros
        assertThat(hex(keys.key(Arrays.asList("a", "b")))).isEqualTo("3c060000");
        assertThatThrownBy(() -> new ZOrderKeys(List.of(DataTypes.string()), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void testRejectsCompositeTypes()
    {
        assertThatThrownBy(() -> new ZOrderKeys(List.of(new io.tarn.types.ArrayType(DataTypes.integer(), true)), 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ARRAY");
        assertThatThrownBy(() -> new HilbertKeys(List.of(DataTypes.integer())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two columns");
    }

    private static String single(io.tarn.types.DataType type, Object value)
    {
        return hex(new ZOrderKeys(List.of(type), 8).key(Arrays.asList(value)));
    }

    private static String hex(byte[] bytes)
    {
        return HexFormat.of().formatHex(bytes);
    }
}
