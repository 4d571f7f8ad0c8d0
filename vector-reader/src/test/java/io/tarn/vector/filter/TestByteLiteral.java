package io.tarn.vector.filter;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Word-at-a-time comparison agrees with a byte-by-byte unsigned comparison, for values of every
 * length around the word size, bytes above 0x7F, shared prefixes and unaligned starts.
 */
public class TestByteLiteral
{
    @Test
    public void testAgreesWithByteByByteComparison()
    {
        SplittableRandom random = new SplittableRandom(7);
        try (BufferAllocator allocator = new RootAllocator(); ArrowBuf data = allocator.buffer(64)) {
            for (int round = 0; round < 20_000; round++) {
                byte[] literal = randomBytes(random, random.nextInt(20));
                byte[] value = random.nextInt(3) == 0 ? literal.clone() : randomBytes(random, random.nextInt(20));
                if (random.nextBoolean() && value.length > 0 && literal.length > 0) {
                    // share a prefix, then differ (or not) somewhere inside or after the first word
                    int shared = random.nextInt(Math.min(value.length, literal.length) + 1);
                    System.arraycopy(literal, 0, value, 0, shared);
                }
                int start = random.nextInt(8);
                data.setBytes(start, value);
                long address = data.memoryAddress() + start;
                ByteLiteral subject = new ByteLiteral(literal);

                int expectedOrder = Integer.signum(Arrays.compareUnsigned(value, literal));
                assertThat(Integer.signum(subject.compareAt(address, value.length)))
                        .as("%s vs %s", Arrays.toString(value), Arrays.toString(literal))
                        .isEqualTo(expectedOrder);
                assertThat(subject.equalsAt(address, value.length)).isEqualTo(Arrays.equals(value, literal));
                boolean prefix = value.length >= literal.length && Arrays.equals(value, 0, literal.length, literal, 0, literal.length);
                assertThat(subject.isPrefixAt(address, value.length)).isEqualTo(prefix);
            }
        }
    }

    @Test
    public void testRangeOutsideTheBufferIsRefused()
    {
        try (BufferAllocator allocator = new RootAllocator(); ArrowBuf data = allocator.buffer(16)) {
            assertThat(ByteLiteral.checkedRange(data, 3, 16)).isEqualTo(13);
            assertThatThrownBy(() -> ByteLiteral.checkedRange(data, 3, 17)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> ByteLiteral.checkedRange(data, 5, 4)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> ByteLiteral.checkedRange(data, -1, 4)).isInstanceOf(IllegalStateException.class);
        }
    }

    private static byte[] randomBytes(SplittableRandom random, int length)
    {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            // few distinct bytes, half of them above 0x7F, so that equal and ordered pairs are common
            bytes[i] = (byte) (random.nextBoolean() ? 0x41 + random.nextInt(3) : 0xC0 + random.nextInt(3));
        }
        return bytes;
    }
}
