package io.tarn.storage.binary;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.testng.annotations.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestBinaryRow
{
    private static final HexFormat HEX = HexFormat.of();

    static final List<AtomicType> ALL_TYPES = List.of(
            DataTypes.booleanType(),
            DataTypes.tinyint(),
            DataTypes.smallint(),
            DataTypes.integer(),
            DataTypes.bigint(),
            DataTypes.floatType(),
            DataTypes.doubleType(),
            DataTypes.decimal(5, 2),
            DataTypes.decimal(18, 4),
            DataTypes.decimal(19, 0),
            DataTypes.decimal(38, 10),
            DataTypes.charType(10),
            DataTypes.varchar(20),
            DataTypes.string(),
            DataTypes.binary(10),
            DataTypes.bytes(),
            DataTypes.date(),
            DataTypes.time(3),
            DataTypes.timestamp(0),
            DataTypes.timestamp(3),
            DataTypes.timestamp(6),
            DataTypes.timestamp(9),
            DataTypes.timestampLtz(3),
            DataTypes.timestampLtz(6));

    @Test
    public void testInlineStringFromSpec()
    {
        BinaryRow row = BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("abc"));
        assertThat(HEX.formatHex(row.toBytes())).isEqualTo("0000000000000000" + "6162630000000083");
        assertThat(row.value(0, DataTypes.string())).isEqualTo("abc");
    }

    @Test
    public void testSerializedPartitionFromSpec()
    {
        String serialized = "00000001" + "0000000000000000" + "0a00000010000000" + "323032342d30312d3031000000000000";
        BinaryRow row = BinaryRow.fromSerialized(HEX.parseHex(serialized));
        assertThat(row.arity()).isEqualTo(1);
        assertThat(row.value(0, DataTypes.string())).isEqualTo("2024-01-01");
        assertThat(HEX.formatHex(BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("2024-01-01")).toSerialized())).isEqualTo(serialized);
        assertThat(HEX.formatHex(BinaryRow.EMPTY.toSerialized())).isEqualTo("000000000000000000000000");
    }

    @Test
    public void testBucketHashVectorsFromSpec()
    {
        BinaryRow intRow = BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(42));
        assertThat(HEX.formatHex(intRow.toBytes())).isEqualTo("00000000000000002a00000000000000");
        assertThat(BucketFunction.hash(intRow)).isEqualTo(907821237);
        assertThat(BucketFunction.hash(BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("abc")))).isEqualTo(-101922419);
        assertThat(BucketFunction.hash(BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("hello world!")))).isEqualTo(609810467);
        assertThat(BucketFunction.bucket(intRow, 7)).isEqualTo(907821237 % 7);
    }

    @Test
    public void testNullBitsBeyondFirstWord()
    {
        List<DataType> types = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            types.add(DataTypes.integer());
            values.add(i % 3 == 0 ? null : i);
        }
        BinaryRow row = BinaryRowWriter.encode(types, values);
        assertThat(row.toBytes()).isEqualTo(PaimonRows.encode(types, values).toBytes());
        assertThat(row.values(types)).isEqualTo(values);
    }

    @Test
    public void testRandomRowsMatchPaimon()
    {
        long seed = System.nanoTime();
        System.out.println("TestBinaryRow.testRandomRowsMatchPaimon seed " + seed);
        Random random = new Random(seed);
        for (int iteration = 0; iteration < 500; iteration++) {
            int arity = random.nextInt(12);
            List<AtomicType> types = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < arity; i++) {
                AtomicType type = ALL_TYPES.get(random.nextInt(ALL_TYPES.size()));
                types.add(type);
                values.add(random.nextInt(5) == 0 ? null : randomValue(type, random));
            }
            String context = "seed " + seed + ", iteration " + iteration + ", types " + types + ", values " + values;

            BinaryRow ours = BinaryRowWriter.encode(types, values);
            org.apache.paimon.data.BinaryRow paimon = PaimonRows.encode(types, values);
            assertThat(HEX.formatHex(ours.toBytes())).as(context).isEqualTo(HEX.formatHex(paimon.toBytes()));
            assertThat(BucketFunction.hash(ours)).as(context).isEqualTo(paimon.hashCode());
            assertThat(ours.hashCode()).as(context).isEqualTo(paimon.hashCode());
            if (arity > 0) {
                assertThat(BucketFunction.bucket(ours, 5)).as(context).isEqualTo(new org.apache.paimon.bucket.DefaultBucketFunction().bucket(paimon, 5));
            }

            // decode Paimon's bytes
            List<Object> decoded = BinaryRow.of(arity, paimon.toBytes()).values(List.copyOf(types));
            for (int i = 0; i < arity; i++) {
                assertThat(Objects.deepEquals(decoded.get(i), values.get(i))).as(context + ", field " + i + " decoded as " + decoded.get(i)).isTrue();
            }
            assertThat(BinaryRow.fromSerialized(ours.toSerialized())).isEqualTo(ours);
        }
    }

    @Test
    public void testModBucketMatchesPaimon()
    {
        for (int value : new int[] {0, 1, -1, 7, -13, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            BinaryRow row = BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(value));
            org.apache.paimon.data.BinaryRow paimon = PaimonRows.encode(List.of(DataTypes.integer()), List.of(value));
            int expected = new org.apache.paimon.bucket.ModBucketFunction(org.apache.paimon.types.RowType.of(org.apache.paimon.types.DataTypes.INT())).bucket(paimon, 5);
            assertThat(BucketFunction.modBucket(row, DataTypes.integer(), 5)).isEqualTo(expected);
        }
        for (long value : new long[] {0, -1, 3_000_000_000L, Long.MIN_VALUE, Long.MAX_VALUE}) {
            BinaryRow row = BinaryRowWriter.encode(List.of(DataTypes.bigint()), List.of(value));
            org.apache.paimon.data.BinaryRow paimon = PaimonRows.encode(List.of(DataTypes.bigint()), List.of(value));
            int expected = new org.apache.paimon.bucket.ModBucketFunction(org.apache.paimon.types.RowType.of(org.apache.paimon.types.DataTypes.BIGINT())).bucket(paimon, 7);
            assertThat(BucketFunction.modBucket(row, DataTypes.bigint(), 7)).isEqualTo(expected);
        }
    }

    @Test
    public void testMalformedRows()
    {
        assertThatThrownBy(() -> BinaryRow.of(2, new byte[16]))
                .isInstanceOf(MalformedBinaryException.class);
        assertThatThrownBy(() -> BinaryRow.fromSerialized(new byte[] {0, 0}))
                .isInstanceOf(MalformedBinaryException.class);
        assertThatThrownBy(() -> BinaryRow.fromSerialized(HEX.parseHex("ffffffff0000000000000000")))
                .isInstanceOf(MalformedBinaryException.class);
        assertThatThrownBy(() -> BinaryRow.fromSerialized(HEX.parseHex("7fffffff0000000000000000")))
                .isInstanceOf(MalformedBinaryException.class);

        // a string slot pointing beyond the row
        byte[] bytes = BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("2024-01-01")).toBytes();
        bytes[12] = 0x40;
        BinaryRow pointingOutside = BinaryRow.of(1, bytes);
        assertThatThrownBy(() -> pointingOutside.value(0, DataTypes.string()))
                .isInstanceOf(MalformedBinaryException.class)
                .hasMessageContaining("outside");
        // an inline string whose length is more than 7
        byte[] inline = HEX.parseHex("00000000000000006162630000000088");
        assertThatThrownBy(() -> BinaryRow.of(1, inline).value(0, DataTypes.string()))
                .isInstanceOf(MalformedBinaryException.class);
        // a non-compact decimal with a zero length
        byte[] decimal = BinaryRowWriter.encode(List.of(DataTypes.decimal(20, 0)), List.of(BigDecimal.ONE)).toBytes();
        decimal[8] = 0;
        assertThatThrownBy(() -> BinaryRow.of(1, decimal).value(0, DataTypes.decimal(20, 0)))
                .isInstanceOf(MalformedBinaryException.class);
        assertThatThrownBy(() -> BinaryRow.EMPTY.isNullAt(0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    public void testWriterRejectsBadValues()
    {
        assertThatThrownBy(() -> BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(1L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Integer");
        assertThatThrownBy(() -> BinaryRowWriter.encode(List.of(DataTypes.decimal(3, 1)), List.of(new BigDecimal("1234.5"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BinaryRowWriter.encode(List.of(DataTypes.decimal(5, 1)), List.of(new BigDecimal("1.25"))))
                .isInstanceOf(IllegalArgumentException.class);
        // a nested value has no BinaryRow encoding here; its NULL is only a null bit (statistics rows of Avro files hold such slots)
        assertThatThrownBy(() -> BinaryRowWriter.encode(List.of(new io.tarn.types.ArrayType(DataTypes.integer(), true)), List.of(List.of(1))))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(BinaryRowWriter.encode(List.of(new io.tarn.types.ArrayType(DataTypes.integer(), true)), Arrays.asList((Object) null)).isNullAt(0)).isTrue();
    }

    static Object randomValue(AtomicType type, Random random)
    {
        return switch (type.root()) {
            case BOOLEAN -> random.nextBoolean();
            case TINYINT -> (byte) random.nextInt();
            case SMALLINT -> (short) random.nextInt();
            case INT -> random.nextInt();
            case BIGINT -> random.nextLong();
            case FLOAT -> random.nextInt(10) == 0 ? Float.NaN : random.nextFloat() * 1000 - 500;
            case DOUBLE -> random.nextDouble() * 1e9 - 5e8;
            case DECIMAL -> {
                BigInteger unscaled = new BigInteger(type.precision() * 3, random).mod(BigInteger.TEN.pow(type.precision()));
                yield new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), type.scale());
            }
            case CHAR, VARCHAR -> randomString(random, random.nextInt(type.root() == io.tarn.types.TypeRoot.CHAR ? 10 : 20));
            case BINARY, VARBINARY -> {
                byte[] bytes = new byte[random.nextInt(16)];
                random.nextBytes(bytes);
                yield bytes;
            }
            case DATE -> random.nextInt(100_000) - 50_000;
            case TIME -> random.nextInt(86_400_000);
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                long millis = random.nextLong() % 10_000_000_000_000L;
                int nanos = type.precision() <= 3 ? 0 : random.nextInt(1_000_000);
                yield new Timestamp(millis, nanos);
            }
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    static String randomString(Random random, int length)
    {
        String alphabet = "abcXYZ019 -_/=%:#\u00e9\u00df\u4e2d\u6587";
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            if (random.nextInt(20) == 0) {
                text.appendCodePoint(0x1F600 + random.nextInt(10));
            }
            else {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
        }
        return text.toString();
    }
}
