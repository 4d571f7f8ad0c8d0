package io.tarn.testing;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestCanonicalRows
{
    @Test
    public void testPrimitiveTypes()
    {
        assertFormat(DataTypes.BOOLEAN(), true, "true");
        assertFormat(DataTypes.BOOLEAN(), false, "false");
        assertFormat(DataTypes.TINYINT(), (byte) -5, "-5");
        assertFormat(DataTypes.SMALLINT(), (short) 300, "300");
        assertFormat(DataTypes.INT(), -7, "-7");
        assertFormat(DataTypes.BIGINT(), 1234567890123L, "1234567890123");
        assertFormat(DataTypes.BIGINT(), Long.MIN_VALUE, "-9223372036854775808");
        assertFormat(DataTypes.FLOAT(), 1.5f, "1.5");
        assertFormat(DataTypes.FLOAT(), 1.0e10f, "1.0E10");
        assertFormat(DataTypes.FLOAT(), Float.NaN, "NaN");
        assertFormat(DataTypes.DOUBLE(), 0.1, "0.1");
        assertFormat(DataTypes.DOUBLE(), -0.0, "-0.0");
        assertFormat(DataTypes.DOUBLE(), Double.NEGATIVE_INFINITY, "-Infinity");
        assertFormat(DataTypes.DECIMAL(10, 2), Decimal.fromBigDecimal(new BigDecimal("-211.2"), 10, 2), "-211.20");
        assertFormat(DataTypes.DECIMAL(38, 10), Decimal.fromBigDecimal(new BigDecimal("1E-10"), 38, 10), "0.0000000001");
        assertFormat(DataTypes.DECIMAL(20, 0), Decimal.fromBigDecimal(new BigDecimal("1E+15"), 20, 0), "1000000000000000");
        assertFormat(DataTypes.BINARY(4), new byte[] {0x00, 0x0f, (byte) 0xab, (byte) 0xff}, "0x000fabff");
        assertFormat(DataTypes.VARBINARY(10), new byte[0], "0x");
        assertFormat(DataTypes.DATE(), -1, "1969-12-31");
        assertFormat(DataTypes.DATE(), 19782, "2024-02-29");
        assertFormat(DataTypes.TIME(), 0, "00:00");
        assertFormat(DataTypes.TIME(), 45_296_000, "12:34:56");
        assertFormat(DataTypes.TIME(3), 45_296_789, "12:34:56.789");
        assertFormat(DataTypes.TIMESTAMP(0), Timestamp.fromEpochMillis(-1), "1969-12-31T23:59:59");
        assertFormat(DataTypes.TIMESTAMP(3), Timestamp.fromEpochMillis(1_700_000_000_123L), "2023-11-14T22:13:20.123");
        assertFormat(DataTypes.TIMESTAMP(3), Timestamp.fromEpochMillis(1_700_000_000_000L), "2023-11-14T22:13:20.000");
        assertFormat(DataTypes.TIMESTAMP(6), Timestamp.fromEpochMillis(1_700_000_000_123L, 456_000), "2023-11-14T22:13:20.123456");
        assertFormat(DataTypes.TIMESTAMP(9), Timestamp.fromEpochMillis(-1, 1), "1969-12-31T23:59:59.999000001");
        assertFormat(DataTypes.TIMESTAMP(2), Timestamp.fromEpochMillis(1_700_000_000_129L), "2023-11-14T22:13:20.12");
        assertFormat(DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3), Timestamp.fromEpochMillis(0), "1970-01-01T00:00:00.000Z");
        assertFormat(DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6), Timestamp.fromEpochMillis(1_700_000_000_123L, 7_000), "2023-11-14T22:13:20.123007Z");
        assertFormat(DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(0), Timestamp.fromEpochMillis(-86_400_000L * 365), "1969-01-01T00:00:00Z");
    }

    @Test
    public void testStrings()
    {
        assertFormat(DataTypes.CHAR(5), BinaryString.fromString("ab"), "ab");
        assertFormat(DataTypes.STRING(), BinaryString.fromString("a\tb\nc\rd\\e\"f,[g]"), "a\\tb\\nc\\rd\\\\e\"f,[g]");
        assertFormat(DataTypes.STRING(), BinaryString.fromString("čšž日本😀"), "čšž日本😀");
        // the string \N must not look like NULL
        assertFormat(DataTypes.STRING(), BinaryString.fromString("\\N"), "\\\\N");
        assertFormat(DataTypes.STRING(), BinaryString.fromString(""), "");
        assertFormat(DataTypes.STRING(), null, "\\N");
        assertFormat(DataTypes.INT(), null, "\\N");
    }

    @Test
    public void testNested()
    {
        assertFormat(DataTypes.ARRAY(DataTypes.INT()), new GenericArray(new Object[] {1, null, -3}), "[1,null,-3]");
        assertFormat(DataTypes.ARRAY(DataTypes.INT()), new GenericArray(new Object[0]), "[]");
        assertFormat(
                DataTypes.ARRAY(DataTypes.STRING()),
                new GenericArray(new Object[] {BinaryString.fromString("a\"b"), null, BinaryString.fromString("c\\d\te\nf\rg"), BinaryString.fromString("")}),
                "[\"a\\\"b\",null,\"c\\\\d\\te\\nf\\rg\",\"\"]");
        Map<Object, Object> entries = new LinkedHashMap<>();
        entries.put(BinaryString.fromString("k"), 1);
        entries.put(BinaryString.fromString("n"), null);
        entries.put(BinaryString.fromString("a"), 2);
        assertFormat(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), new GenericMap(entries), "{\"k\"=1,\"n\"=null,\"a\"=2}");
        RowType rowType = DataTypes.ROW(
                DataTypes.FIELD(0, "x", DataTypes.INT()),
                DataTypes.FIELD(1, "y", DataTypes.STRING()),
                DataTypes.FIELD(2, "z", DataTypes.DATE()));
        assertFormat(rowType, GenericRow.of(7, BinaryString.fromString("y"), 0), "{7,\"y\",1970-01-01}");
        assertFormat(rowType, GenericRow.of(null, null, null), "{null,null,null}");
        assertFormat(
                DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.BYTES())),
                new GenericArray(new Object[] {new GenericArray(new Object[] {new byte[] {1}}), new GenericArray(new Object[0]), null}),
                "[[0x01],[],null]");
        assertFormat(
                DataTypes.ARRAY(DataTypes.DECIMAL(5, 2)),
                new GenericArray(new Object[] {Decimal.fromBigDecimal(new BigDecimal("1.5"), 5, 2)}),
                "[1.50]");
        assertFormat(
                DataTypes.ARRAY(DataTypes.TIMESTAMP(3)),
                new GenericArray(new Object[] {Timestamp.fromEpochMillis(0)}),
                "[1970-01-01T00:00:00.000]");
    }

    @Test
    public void testRow()
    {
        RowType rowType = DataTypes.ROW(
                DataTypes.FIELD(0, "id", DataTypes.INT()),
                DataTypes.FIELD(1, "s", DataTypes.STRING()),
                DataTypes.FIELD(2, "d", DataTypes.DOUBLE()),
                DataTypes.FIELD(3, "a", DataTypes.ARRAY(DataTypes.STRING())));
        GenericRow row = GenericRow.of(1, BinaryString.fromString("x\ty"), null, new GenericArray(new Object[] {BinaryString.fromString("q")}));
        assertThat(CanonicalValueFormatter.formatRow(row, rowType)).isEqualTo("1\tx\\ty\t\\N\t[\"q\"]");
    }

    @Test
    public void testSortingByUtf8Bytes()
    {
        // U+FF21 is EF BC A1 in UTF-8 and U+1F600 is F0 9F 98 80; in UTF-16 the surrogate D83D sorts before FF21
        String fullwidth = "\uFF21";
        String emoji = "\uD83D\uDE00";
        assertThat(emoji.compareTo(fullwidth)).isLessThan(0);

        CanonicalRows rows = CanonicalRows.of(List.of(emoji, fullwidth, "a", "A"));
        assertThat(rows.lines()).containsExactly("A", "a", fullwidth, emoji);
        assertThat(rows.rowCount()).isEqualTo(4);
        // printf 'A\na\n\xef\xbc\xa1\n\xf0\x9f\x98\x80\n' | sha256sum
        assertThat(rows.sha256()).isEqualTo("95bf517392b1d733d963894715c66576b649c7b7315bb58eb6fe0fc259e297b6");
        assertThat(rows.sha256()).isEqualTo(sha256("A\na\n\uFF21\n\uD83D\uDE00\n"));
    }

    @Test
    public void testTextAndDigest()
    {
        CanonicalRows rows = CanonicalRows.of(List.of("2\t\\N", "1\tx\\\\y"));
        // printf '1\tx\\\\y\n2\t\\N\n' | sha256sum
        String expectedSha = "aa4aee715a50b4ed4d1e8f7fa006a47a1fcc545d97e07c11317a19d7f94a6fb1";
        assertThat(rows.sha256()).isEqualTo(expectedSha);
        assertThat(sha256("1\tx\\\\y\n2\t\\N\n")).isEqualTo(expectedSha);
        assertThat(rows.summary()).isEqualTo("rows=2 sha256=" + expectedSha);
        assertThat(rows.text()).isEqualTo("1\tx\\\\y\n2\t\\N\nrows=2 sha256=" + expectedSha + "\n");
        assertThat(rows).isEqualTo(CanonicalRows.of(List.of("1\tx\\\\y", "2\t\\N")));
        assertThat(rows).isNotEqualTo(CanonicalRows.of(List.of("1\tx\\\\y")));
    }

    @Test
    public void testEmptyAndDuplicates()
    {
        CanonicalRows empty = CanonicalRows.of(List.of());
        assertThat(empty.text()).isEqualTo("rows=0 sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n");

        CanonicalRows duplicates = CanonicalRows.of(List.of("b", "a", "b"));
        assertThat(duplicates.lines()).containsExactly("a", "b", "b");
        assertThat(duplicates.sha256()).isEqualTo(sha256("a\nb\nb\n"));
    }

    @Test
    public void testRejectsUnescapedLineFeed()
    {
        List<String> lines = new ArrayList<>();
        lines.add("a\nb");
        assertThatThrownBy(() -> CanonicalRows.of(lines))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LF");
    }

    private static void assertFormat(DataType type, Object value, String expected)
    {
        RowType rowType = DataTypes.ROW(DataTypes.FIELD(0, "c", type));
        assertThat(CanonicalValueFormatter.formatRow(GenericRow.of(value), rowType))
                .as("%s value %s", type, value)
                .isEqualTo(expected);
    }

    private static String sha256(String text)
    {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
