package io.tarn.vector.orc;

import org.testng.annotations.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every width from 1 to 64 bits and every count up to a few bytes' worth past a multiple of
 * eight, packed by the plain bit-at-a-time writer below (most significant bit first, as ORC's
 * RLE v2 packs), unpacked from an array that ends where the packed bytes do, so a loop that reads
 * one byte too many fails.
 */
public class TestBitUnpacking
{
    @Test
    public void testEveryWidthAndCount()
    {
        long seed = System.nanoTime();
        System.out.println("TestBitUnpacking seed " + seed);
        Random random = new Random(seed);
        for (int width = 1; width <= 64; width++) {
            for (int count = 0; count <= 80; count++) {
                check(random, width, count, seed);
            }
            check(random, width, 512, seed);
        }
    }

    private static void check(Random random, int width, int count, long seed)
    {
        long mask = width == 64 ? -1L : (1L << width) - 1;
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            // now and then the extremes, else any value of the width
            values[i] = switch (random.nextInt(8)) {
                case 0 -> 0;
                case 1 -> mask;
                default -> random.nextLong() & mask;
            };
        }
        int offset = random.nextInt(5);
        byte[] packed = pack(values, width, offset);
        assertThat(packed.length - offset).isEqualTo(BitUnpacking.packedBytes(count, width));
        int valuesOffset = random.nextInt(3);
        long[] unpacked = new long[valuesOffset + count + 2];
        unpacked[valuesOffset + count] = 12345;
        BitUnpacking.unpack(packed, offset, unpacked, valuesOffset, count, width);
        long[] read = new long[count];
        System.arraycopy(unpacked, valuesOffset, read, 0, count);
        assertThat(read).as("width %s count %s seed %s", width, count, seed).containsExactly(values);
        assertThat(unpacked[valuesOffset + count]).as("the value after the last").isEqualTo(12345);
    }

    private static byte[] pack(long[] values, int width, int offset)
    {
        int bytes = (int) (((long) values.length * width + 7) / 8);
        byte[] packed = new byte[offset + bytes];
        for (int i = 0; i < offset; i++) {
            packed[i] = (byte) 0xA5;
        }
        long bit = 0;
        for (long value : values) {
            for (int k = width - 1; k >= 0; k--) {
                if ((value >>> k & 1) != 0) {
                    packed[offset + (int) (bit >>> 3)] |= (byte) (0x80 >>> (bit & 7));
                }
                bit++;
            }
        }
        return packed;
    }
}
