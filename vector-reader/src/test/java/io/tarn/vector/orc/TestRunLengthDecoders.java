package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.testng.annotations.Test;

import java.util.Arrays;
import java.util.stream.LongStream;

import static io.tarn.vector.orc.TestProtobufReader.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The run-length decoders on the byte sequences of the ORC specification's examples, and on
 * hand-built sequences for the cases the examples leave out (signed values, patch gaps over 255,
 * skipping and seeking across runs, streams that end early).
 */
public class TestRunLengthDecoders
{
    @Test
    public void testByteRunLength()
    {
        // a hundred 0s, then the literals 0x44, 0x45
        ByteRleDecoder decoder = new ByteRleDecoder(stream(0x61, 0x00, 0xfe, 0x44, 0x45));
        byte[] values = new byte[102];
        decoder.next(values, 0, 102);
        byte[] expected = new byte[102];
        expected[100] = 0x44;
        expected[101] = 0x45;
        assertThat(values).containsExactly(expected);
        assertThatThrownBy(decoder::next).isInstanceOf(CorruptDataException.class);

        ByteRleDecoder skipping = new ByteRleDecoder(stream(0x61, 0x07, 0xfd, 0x01, 0x02, 0x03));
        skipping.skip(101);
        assertThat(skipping.next()).isEqualTo((byte) 0x02);
    }

    @Test
    public void testBooleanRunLength()
    {
        // [0xff, 0x80]: one true followed by seven false values
        BooleanDecoder decoder = new BooleanDecoder(stream(0xff, 0x80));
        boolean[] values = new boolean[8];
        assertThat(decoder.next(values, 0, 8)).isEqualTo(1);
        assertThat(values).containsExactly(true, false, false, false, false, false, false, false);

        // a run of 3 bytes 0xAA (10101010) then a literal 0x0F: skip inside and across bytes
        BooleanDecoder skipping = new BooleanDecoder(stream(0x00, 0xaa, 0xff, 0x0f));
        assertThat(skipping.skip(3)).isEqualTo(2);
        assertThat(skipping.next()).isFalse();
        assertThat(skipping.skip(12)).isEqualTo(6);
        assertThat(skipping.skip(8)).isEqualTo(4);
        assertThat(skipping.skip(4)).isEqualTo(0);
        assertThat(skipping.next()).isTrue();
        assertThatThrownBy(() -> skipping.skip(8)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testIntegerRunLengthVersion1()
    {
        // a hundred 7s; 100 down to 1; the literals [2, 3, 6, 7, 11]
        assertThat(unsigned(false, 100, 0x61, 0x00, 0x07)).containsExactly(LongStream.generate(() -> 7).limit(100).toArray());
        assertThat(unsigned(false, 100, 0x61, 0xff, 0x64)).containsExactly(LongStream.iterate(100, value -> value - 1).limit(100).toArray());
        assertThat(unsigned(false, 5, 0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b)).containsExactly(2, 3, 6, 7, 11);
        // signed: a run from -1 with delta 2, then the literals -64, 63
        assertThat(signed(false, 5, 0x00, 0x02, 0x01, 0xfe, 0x7f, 0x7e)).containsExactly(-1, 1, 3, -64, 63);
        // a varint longer than ten bytes
        assertThatThrownBy(() -> unsigned(false, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))
                .isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testShortRepeat()
    {
        // [10000] * 5
        assertThat(unsigned(true, 5, 0x0a, 0x27, 0x10)).containsExactly(10000, 10000, 10000, 10000, 10000);
        // signed, zigzag: -3 (5) three times
        assertThat(signed(true, 3, 0x00, 0x05)).containsExactly(-3, -3, -3);
    }

    @Test
    public void testDirect()
    {
        // [23713, 43806, 57005, 48879], 16 bits each
        assertThat(unsigned(true, 4, 0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef)).containsExactly(23713, 43806, 57005, 48879);
        // signed, width 3 (a deprecated width): zigzag [0, -1, 1, -4] = [0, 1, 2, 7], bits 000 001 010 111 padded
        assertThat(signed(true, 4, 0x44, 0x03, 0x05, 0x70)).containsExactly(0, -1, 1, -4);
        // 64-bit values
        assertThat(unsigned(true, 1, 0x7e, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe)).containsExactly(-2L);
    }

    @Test
    public void testPatchedBase()
    {
        long[] expected = {2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190};
        assertThat(unsigned(true, 20, 0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e,
                0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8))
                .containsExactly(expected);
    }

    @Test
    public void testPatchedBaseWithLongGapAndNegativeBase()
    {
        // 300 values of width 1, base -5 (one byte, sign bit set); value 280 patched with 1 (patch width 1, gap width 8):
        // patches [gap 255, patch 0] then [gap 25, patch 1], each 9 bits padded to... closestFixedBits(9) = 9
        int[] header = {0x80 | (0 << 1) | 1, 300 - 1 - 256, (0 << 5) | 0, (7 << 5) | 2, 0x85};
        byte[] packed = new byte[(300 + 7) / 8];
        // patch list: 255 << 1 | 0 = 510, 25 << 1 | 1 = 51, 9 bits each: 111111110 000110011 -> 0xff 0x0c 0xc0
        int[] patches = {0xff, 0x0c, 0xc0};
        int[] all = new int[header.length + packed.length + patches.length];
        System.arraycopy(header, 0, all, 0, header.length);
        System.arraycopy(patches, 0, all, header.length + packed.length, patches.length);
        long[] values = unsigned(true, 300, all);
        long[] expected = new long[300];
        Arrays.fill(expected, -5);
        expected[280] = -5 + 2;
        assertThat(values).containsExactly(expected);
    }

    @Test
    public void testDelta()
    {
        // the primes [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
        assertThat(unsigned(true, 10, 0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46)).containsExactly(2, 3, 5, 7, 11, 13, 17, 19, 23, 29);
        // fixed delta -3 from 10 (signed): width 0, 4 values
        assertThat(signed(true, 4, 0xc0, 0x03, 0x14, 0x05)).containsExactly(10, 7, 4, 1);
        // decreasing with packed deltas: 100, 90 (delta base -10), then deltas 5, 20: 85, 65
        assertThat(unsigned(true, 4, 0xce, 0x03, 0x64, 0x13, 0x05, 0x14)).containsExactly(100, 90, 85, 65);
        // packed deltas in a run of one value are corrupt
        assertThatThrownBy(() -> unsigned(true, 1, 0xc2, 0x00, 0x01, 0x02)).isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testSkipAndSeekAcrossRuns()
    {
        // short repeat [7] * 3, direct [1, 2, 3, 4] (8 bits), delta 10, 11, .., 19
        int[] runs = {0x00, 0x07, 0x4e, 0x03, 0x01, 0x02, 0x03, 0x04, 0xc0, 0x09, 0x0a, 0x02};
        IntegerDecoder decoder = IntegerDecoder.create(stream(runs), false, true);
        decoder.skip(4);
        assertThat(decoder.next()).isEqualTo(2);
        decoder.skip(4);
        long[] rest = new long[8];
        decoder.next(rest, 0, 8);
        assertThat(rest).containsExactly(12, 13, 14, 15, 16, 17, 18, 19);
        assertThatThrownBy(decoder::next).isInstanceOf(CorruptDataException.class);

        // seek to the direct run (byte 2 of the uncompressed stream), 3 values into it
        IntegerDecoder seeking = IntegerDecoder.create(stream(runs), false, true);
        seeking.seek(new PositionCursor(new long[] {2, 3}));
        assertThat(seeking.next()).isEqualTo(4);
        assertThat(seeking.next()).isEqualTo(10);
        // values pending in the writer at the position may have gone into more than one run
        seeking.seek(new PositionCursor(new long[] {2, 9}));
        assertThat(seeking.next()).isEqualTo(15);
        assertThatThrownBy(() -> seeking.seek(new PositionCursor(new long[] {2, 99}))).isInstanceOf(CorruptDataException.class);
        assertThatThrownBy(() -> seeking.seek(new PositionCursor(new long[] {99, 0}))).isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testStreamsThatEndEarly()
    {
        // a direct run of 4 values of 16 bits with 5 of its 8 bytes
        assertThatThrownBy(() -> unsigned(true, 4, 0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde)).isInstanceOf(CorruptDataException.class);
        // a patched-base header cut short
        assertThatThrownBy(() -> unsigned(true, 1, 0x8e, 0x13, 0x2b)).isInstanceOf(CorruptDataException.class);
        // patches that point past the run: 4 values of 1 bit, one patch (gap 7, patch 1; 3 + 1 bits)
        assertThatThrownBy(() -> unsigned(true, 4, 0x80, 0x03, 0x00, 0x41, 0x00, 0x00, 0xf0)).isInstanceOf(CorruptDataException.class);
    }

    private static long[] unsigned(boolean v2, int count, int... bytes)
    {
        long[] values = new long[count];
        IntegerDecoder.create(stream(bytes), false, v2).next(values, 0, count);
        return values;
    }

    private static long[] signed(boolean v2, int count, int... bytes)
    {
        long[] values = new long[count];
        IntegerDecoder.create(stream(bytes), true, v2).next(values, 0, count);
        return values;
    }

    static DecompressedStream stream(int... values)
    {
        byte[] bytes = bytes(values);
        return new DecompressedStream("test", bytes, 0, bytes.length, null, 0);
    }
}
