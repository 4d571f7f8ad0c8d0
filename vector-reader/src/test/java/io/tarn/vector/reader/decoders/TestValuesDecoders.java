package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.api.Binary;
import org.testng.annotations.Test;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Decoders against parquet-column's own encoders, with reads and skips interleaved.
 */
public class TestValuesDecoders
{
    private static final HeapByteBufferAllocator HEAP = new HeapByteBufferAllocator();

    @Test
    public void testDeltaBinaryPackedLongs()
            throws IOException
    {
        Random random = new Random(1);
        for (int round = 0; round < 20; round++) {
            int count = random.nextInt(3000);
            long[] values = new long[count];
            for (int i = 0; i < count; i++) {
                values[i] = switch (random.nextInt(4)) {
                    case 0 -> random.nextLong();
                    case 1 -> random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
                    case 2 -> i;
                    default -> random.nextInt(100);
                };
            }
            DeltaBinaryPackingValuesWriterForLong writer = new DeltaBinaryPackingValuesWriterForLong(128, 4, 64, 1 << 20, HEAP);
            for (long value : values) {
                writer.writeLong(value);
            }
            byte[] encoded = writer.getBytes().toByteArray();
            DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder(encoded, 0, encoded.length, false);
            ValueBuffer out = new ValueBuffer();
            List<Long> expected = new ArrayList<>();
            int index = 0;
            while (index < count) {
                int n = Math.min(count - index, 1 + random.nextInt(300));
                if (random.nextBoolean()) {
                    decoder.skip(n);
                }
                else {
                    decoder.read(out, n);
                    for (int i = index; i < index + n; i++) {
                        expected.add(values[i]);
                    }
                }
                index += n;
            }
            assertThat(Arrays.stream(out.longs, 0, out.count).boxed().toList()).isEqualTo(expected);
            assertThat(decoder.endPosition()).isEqualTo(encoded.length);
        }
    }

    @Test
    public void testDeltaBinaryPackedInts()
            throws IOException
    {
        Random random = new Random(2);
        int count = 2000;
        int[] values = new int[count];
        for (int i = 0; i < count; i++) {
            values[i] = random.nextInt(3) == 0 ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt();
        }
        DeltaBinaryPackingValuesWriterForInteger writer = new DeltaBinaryPackingValuesWriterForInteger(128, 4, 64, 1 << 20, HEAP);
        for (int value : values) {
            writer.writeInteger(value);
        }
        byte[] encoded = writer.getBytes().toByteArray();
        DeltaBinaryPackedDecoder decoder = new DeltaBinaryPackedDecoder(encoded, 0, encoded.length, true);
        ValueBuffer out = new ValueBuffer();
        decoder.read(out, 1000);
        decoder.read(out, 1000);
        assertThat(Arrays.copyOf(out.ints, out.count)).isEqualTo(values);
        assertThatThrownBy(() -> decoder.read(new ValueBuffer(), 1)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testDeltaByteArrays()
            throws IOException
    {
        Random random = new Random(3);
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            String text = random.nextInt(4) == 0 ? "" : "prefix-" + (i / 10) + "-" + Integer.toString(random.nextInt(1000), 36);
            values.add(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        for (boolean incremental : new boolean[] {false, true}) {
            ValuesWriter writer = incremental ? new DeltaByteArrayWriter(64, 1 << 20, HEAP) : new DeltaLengthByteArrayValuesWriter(64, 1 << 20, HEAP);
            for (byte[] value : values) {
                writer.writeBytes(Binary.fromConstantByteArray(value));
            }
            byte[] encoded = writer.getBytes().toByteArray();
            ValuesDecoder decoder = incremental
                    ? new DeltaByteArrayDecoder(encoded, 0, encoded.length, values.size())
                    : new DeltaLengthByteArrayDecoder(encoded, 0, encoded.length, values.size());
            ValueBuffer out = new ValueBuffer();
            List<String> expected = new ArrayList<>();
            int index = 0;
            while (index < values.size()) {
                int n = Math.min(values.size() - index, 1 + random.nextInt(200));
                if (random.nextInt(3) == 0) {
                    decoder.skip(n);
                }
                else {
                    decoder.read(out, n);
                    for (int i = index; i < index + n; i++) {
                        expected.add(new String(values.get(i), java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
                index += n;
            }
            List<String> actual = new ArrayList<>();
            for (int i = 0; i < out.count; i++) {
                actual.add(new String(out.bytes, out.offsets[i], out.offsets[i + 1] - out.offsets[i], java.nio.charset.StandardCharsets.UTF_8));
            }
            assertThat(actual).isEqualTo(expected);
        }
    }

    @Test
    public void testRleBitPackedHybrid()
            throws IOException
    {
        Random random = new Random(4);
        for (int bitWidth = 0; bitWidth <= 32; bitWidth++) {
            int count = 1 + random.nextInt(5000);
            int[] values = new int[count];
            long bound = 1L << bitWidth;
            for (int i = 0; i < count; ) {
                int run = random.nextBoolean() ? 1 + random.nextInt(40) : 1;
                int value = bitWidth == 0 ? 0 : (int) (random.nextLong() & (bound - 1));
                for (int k = 0; k < run && i < count; k++, i++) {
                    values[i] = run == 1 && bitWidth > 0 ? (int) (random.nextLong() & (bound - 1)) : value;
                }
            }
            RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20, HEAP);
            for (int value : values) {
                encoder.writeInt(value);
            }
            byte[] encoded = encoder.toBytes().toByteArray();
            RleBitPackedDecoder decoder = new RleBitPackedDecoder(encoded, 0, encoded.length, bitWidth);
            assertThat(readInSteps(decoder, values, random::nextInt, 100, 4)).as("bit width %s", bitWidth).isEqualTo(values);
        }
    }

    /**
     * Reads {@code expected.length} values in steps of 1 to {@code maxStep}, skipping about one
     * step in {@code skipOneIn} (a skipped step is filled from {@code expected}), and returns
     * what was read.
     */
    static int[] readInSteps(RleBitPackedDecoder decoder, int[] expected, IntUnaryOperator random, int maxStep, int skipOneIn)
    {
        int count = expected.length;
        int[] decoded = new int[count];
        int index = 0;
        while (index < count) {
            int n = Math.min(count - index, 1 + random.applyAsInt(maxStep));
            if (random.applyAsInt(skipOneIn) == 0) {
                decoder.skip(n);
                System.arraycopy(expected, index, decoded, index, n);
            }
            else {
                decoder.read(decoded, index, n);
            }
            index += n;
        }
        return decoded;
    }

    @Test
    public void testByteStreamSplitByHand()
    {
        // two floats 1.0f (0x3F800000) and -2.0f (0xC0000000): stream k holds byte k of each value
        byte[] data = {0x00, 0x00, 0x00, 0x00, (byte) 0x80, 0x00, 0x3F, (byte) 0xC0};
        ValueBuffer out = new ValueBuffer();
        new ByteStreamSplitDecoder(org.apache.parquet.format.Type.FLOAT, 0, data, 0, data.length).read(out, 2);
        assertThat(Float.intBitsToFloat(out.ints[0])).isEqualTo(1.0f);
        assertThat(Float.intBitsToFloat(out.ints[1])).isEqualTo(-2.0f);
        assertThatThrownBy(() -> new ByteStreamSplitDecoder(org.apache.parquet.format.Type.FLOAT, 0, data, 0, 7))
                .isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testInt96()
    {
        // 2000-01-01T00:00:00.000000001: Julian day 2451545, one nanosecond of the day
        byte[] data = new byte[12];
        data[0] = 1;
        int julianDay = 2_451_545;
        data[8] = (byte) julianDay;
        data[9] = (byte) (julianDay >>> 8);
        data[10] = (byte) (julianDay >>> 16);
        data[11] = (byte) (julianDay >>> 24);
        assertThat(PlainDecoders.int96ToEpochNanos(data, 0)).isEqualTo(946_684_800_000_000_001L);
    }

    @Test
    public void testInt96AtTheEndsOfEpochNanoseconds()
    {
        // the earliest and latest instants a long of nanoseconds holds, as java.time counts them
        Instant earliest = Instant.ofEpochSecond(0, Long.MIN_VALUE);
        Instant latest = Instant.ofEpochSecond(0, Long.MAX_VALUE);
        assertThat(PlainDecoders.int96ToEpochNanos(int96(earliest), 0)).isEqualTo(Long.MIN_VALUE);
        assertThat(PlainDecoders.int96ToEpochNanos(int96(latest), 0)).isEqualTo(Long.MAX_VALUE);
        // Paimon's writer divides toward zero, so before 1970 its nanoseconds of the day are negative
        byte[] paimonStyle = int96(2_440_588, -1);
        assertThat(PlainDecoders.int96ToEpochNanos(paimonStyle, 0)).isEqualTo(-1L);
        assertThatThrownBy(() -> PlainDecoders.int96ToEpochNanos(int96(earliest.minusNanos(1)), 0))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("outside the range of epoch nanoseconds");
        assertThatThrownBy(() -> PlainDecoders.int96ToEpochNanos(int96(latest.plusNanos(1)), 0))
                .isInstanceOf(CorruptDataException.class);
    }

    private static byte[] int96(Instant instant)
    {
        long epochDay = Math.floorDiv(instant.getEpochSecond(), 86_400);
        long nanosOfDay = Math.floorMod(instant.getEpochSecond(), 86_400) * 1_000_000_000L + instant.getNano();
        return int96((int) (epochDay + 2_440_588), nanosOfDay);
    }

    private static byte[] int96(int julianDay, long nanosOfDay)
    {
        byte[] data = new byte[12];
        for (int i = 0; i < 8; i++) {
            data[i] = (byte) (nanosOfDay >>> (i * 8));
        }
        for (int i = 0; i < 4; i++) {
            data[8 + i] = (byte) (julianDay >>> (i * 8));
        }
        return data;
    }
}
