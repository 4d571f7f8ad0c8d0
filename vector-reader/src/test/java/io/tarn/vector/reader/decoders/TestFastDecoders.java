package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.format.Type;
import org.apache.parquet.io.api.Binary;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The word-at-a-time kernels of the decoders (bit unpacking, fused dictionary gathers, plain
 * binary copies, bulk fixed-width copies) against values encoded by parquet-column's writers,
 * with reads and skips of random sizes interleaved and the encoded bytes followed by garbage that
 * must never be read as data.
 */
public class TestFastDecoders
{
    private static final HeapByteBufferAllocator HEAP = new HeapByteBufferAllocator();

    @Test
    public void testBitUnpackingWithTrailingGarbage()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(5);
        for (int bitWidth = 1; bitWidth <= 32; bitWidth++) {
            int count = 1 + random.nextInt(3000);
            int[] values = new int[count];
            long bound = 1L << bitWidth;
            for (int i = 0; i < count; i++) {
                // long RLE runs, short runs and random values: both run kinds
                values[i] = i % 500 < 100 ? (int) ((bound - 1) & 0x5A5A5A5AL) : (int) (random.nextLong() & (bound - 1));
            }
            byte[] encoded = rle(bitWidth, values);
            byte[] padded = withGarbage(encoded, random);
            RleBitPackedDecoder decoder = new RleBitPackedDecoder(padded, 3, encoded.length, bitWidth);
            assertThat(TestValuesDecoders.readInSteps(decoder, values, random::nextInt, 70, 3)).as("bit width %s", bitWidth).isEqualTo(values);
        }
    }

    @Test
    public void testDictionaryOfInts()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(6);
        for (int size : new int[] {1, 2, 7, 300, 70_000}) {
            ValueBuffer dictionary = new ValueBuffer();
            int[] entries = dictionary.ints(size);
            for (int i = 0; i < size; i++) {
                entries[i] = random.nextInt();
            }
            dictionary.count = size;
            int[] ids = ids(random, size, 5000);
            ValueBuffer out = new ValueBuffer();
            List<Integer> expected = new ArrayList<>();
            DictionaryDecoder decoder = decoder(dictionary, null, Type.INT32, ids, random);
            readAndSkip(random, ids.length, decoder, out, (from, to) -> {
                for (int i = from; i < to; i++) {
                    expected.add(entries[ids[i]]);
                }
            });
            assertThat(Arrays.stream(out.ints, 0, out.count).boxed().toList()).as("dictionary of %s", size).isEqualTo(expected);
        }
    }

    @Test
    public void testDictionaryOfLongs()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(7);
        for (int size : new int[] {1, 3, 1000}) {
            ValueBuffer dictionary = new ValueBuffer();
            long[] entries = dictionary.longs(size);
            for (int i = 0; i < size; i++) {
                entries[i] = random.nextLong();
            }
            dictionary.count = size;
            int[] ids = ids(random, size, 4000);
            ValueBuffer out = new ValueBuffer();
            List<Long> expected = new ArrayList<>();
            DictionaryDecoder decoder = decoder(dictionary, null, Type.INT64, ids, random);
            readAndSkip(random, ids.length, decoder, out, (from, to) -> {
                for (int i = from; i < to; i++) {
                    expected.add(entries[ids[i]]);
                }
            });
            assertThat(Arrays.stream(out.longs, 0, out.count).boxed().toList()).isEqualTo(expected);
        }
    }

    @Test
    public void testDictionaryOfBinaryValues()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(8);
        // longest value: within one word, two words, four words, and beyond the word kernels
        for (int maxLength : new int[] {0, 1, 8, 9, 16, 17, 31, 32, 33, 100}) {
            int size = 1 + random.nextInt(40);
            List<String> entries = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                entries.add(text(random, i == 0 ? maxLength : random.nextInt(maxLength + 1)));
            }
            ValueBuffer dictionary = new ValueBuffer();
            for (String entry : entries) {
                byte[] bytes = entry.getBytes(StandardCharsets.UTF_8);
                dictionary.appendBinary(bytes, 0, bytes.length);
            }
            DictionaryDecoder.Words words = new DictionaryDecoder.Words(dictionary);
            assertThat(words.shortValues() == null).isEqualTo(maxLength > DictionaryDecoder.ShortValues.MAX_LENGTH);
            ValueBuffer large = new ValueBuffer();
            for (int i = 0; i < DictionaryDecoder.ShortValues.MAX_WORDS + 1; i++) {
                large.appendBinary(new byte[] {(byte) i}, 0, 1);
            }
            assertThat(DictionaryDecoder.ShortValues.of(large)).isNull();
            int[] ids = ids(random, size, 3000);
            for (boolean useWords : new boolean[] {true, false}) {
                ValueBuffer out = new ValueBuffer();
                List<String> expected = new ArrayList<>();
                DictionaryDecoder decoder = decoder(dictionary, useWords ? words : null, Type.BYTE_ARRAY, ids, random);
                readAndSkip(random, ids.length, decoder, out, (from, to) -> {
                    for (int i = from; i < to; i++) {
                        expected.add(entries.get(ids[i]));
                    }
                });
                assertThat(strings(out)).as("longest value %s", maxLength).isEqualTo(expected);
            }
        }
    }

    @Test
    public void testDictionaryIdOutsideTheDictionary()
            throws IOException
    {
        ValueBuffer dictionary = new ValueBuffer();
        dictionary.ints(4);
        dictionary.count = 3;
        for (int[] ids : new int[][] {{0, 1, 2, 3, 0, 0, 0, 0}, {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}}) {
            byte[] encoded = rle(2, ids);
            byte[] page = new byte[encoded.length + 1];
            page[0] = 2;
            System.arraycopy(encoded, 0, page, 1, encoded.length);
            DictionaryDecoder decoder = new DictionaryDecoder(dictionary, null, Type.INT32, page, 0, page.length);
            assertThatThrownBy(() -> decoder.read(new ValueBuffer(), ids.length))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("outside the dictionary");
        }
    }

    @Test
    public void testPlainBinary()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(9);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            values.add(text(random, random.nextInt(4) == 0 ? random.nextInt(200) : random.nextInt(40)));
        }
        PlainValuesWriter writer = new PlainValuesWriter(64, 1 << 20, HEAP);
        for (String value : values) {
            writer.writeBytes(Binary.fromString(value));
        }
        byte[] encoded = writer.getBytes().toByteArray();
        byte[] padded = withGarbage(encoded, random);
        ValuesDecoder decoder = PlainDecoders.create(Type.BYTE_ARRAY, 0, padded, 3, 3 + encoded.length);
        ValueBuffer out = new ValueBuffer();
        List<String> expected = new ArrayList<>();
        readAndSkip(random, values.size(), decoder, out, (from, to) -> expected.addAll(values.subList(from, to)));
        assertThat(strings(out)).isEqualTo(expected);
        assertThatThrownBy(() -> decoder.read(new ValueBuffer(), 1)).isInstanceOf(CorruptDataException.class);

        // a length running past the end of the page (into the garbage) is corrupt, read or skipped
        byte[] cut = Arrays.copyOf(encoded, encoded.length - 1);
        byte[] cutPadded = withGarbage(cut, random);
        assertThatThrownBy(() -> PlainDecoders.create(Type.BYTE_ARRAY, 0, cutPadded, 3, 3 + cut.length).read(new ValueBuffer(), values.size()))
                .isInstanceOf(CorruptDataException.class);
        assertThatThrownBy(() -> PlainDecoders.create(Type.BYTE_ARRAY, 0, cutPadded, 3, 3 + cut.length).skip(values.size()))
                .isInstanceOf(CorruptDataException.class);
    }

    @Test
    public void testPlainFixedWidthInBulkAndOneByOne()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(10);
        int count = 5000;
        int[] ints = new int[count];
        long[] longs = new long[count];
        PlainValuesWriter intWriter = new PlainValuesWriter(64, 1 << 20, HEAP);
        PlainValuesWriter longWriter = new PlainValuesWriter(64, 1 << 20, HEAP);
        for (int i = 0; i < count; i++) {
            ints[i] = random.nextInt();
            longs[i] = random.nextLong();
            intWriter.writeInteger(ints[i]);
            longWriter.writeLong(longs[i]);
        }
        byte[] intBytes = withGarbage(intWriter.getBytes().toByteArray(), random);
        byte[] longBytes = withGarbage(longWriter.getBytes().toByteArray(), random);
        ValuesDecoder intDecoder = PlainDecoders.create(Type.INT32, 0, intBytes, 3, 3 + 4 * count);
        ValuesDecoder longDecoder = PlainDecoders.create(Type.INT64, 0, longBytes, 3, 3 + 8 * count);
        ValueBuffer intOut = new ValueBuffer();
        ValueBuffer longOut = new ValueBuffer();
        List<Integer> expectedInts = new ArrayList<>();
        List<Long> expectedLongs = new ArrayList<>();
        int index = 0;
        while (index < count) {
            // both sides of the bulk threshold
            int n = Math.min(count - index, random.nextBoolean() ? 1 + random.nextInt(40) : 1 + random.nextInt(400));
            if (random.nextInt(3) == 0) {
                intDecoder.skip(n);
                longDecoder.skip(n);
            }
            else {
                intDecoder.read(intOut, n);
                longDecoder.read(longOut, n);
                for (int i = index; i < index + n; i++) {
                    expectedInts.add(ints[i]);
                    expectedLongs.add(longs[i]);
                }
            }
            index += n;
        }
        assertThat(Arrays.stream(intOut.ints, 0, intOut.count).boxed().toList()).isEqualTo(expectedInts);
        assertThat(Arrays.stream(longOut.longs, 0, longOut.count).boxed().toList()).isEqualTo(expectedLongs);
        assertThatThrownBy(() -> intDecoder.read(new ValueBuffer(), 40)).isInstanceOf(CorruptDataException.class);
        assertThatThrownBy(() -> longDecoder.read(new ValueBuffer(), 1)).isInstanceOf(CorruptDataException.class);
    }

    private interface Expect
    {
        void values(int from, int to);
    }

    private static void readAndSkip(SplittableRandom random, int count, ValuesDecoder decoder, ValueBuffer out, Expect expect)
    {
        int index = 0;
        while (index < count) {
            int n = Math.min(count - index, random.nextBoolean() ? 1 + random.nextInt(10) : 1 + random.nextInt(300));
            if (random.nextInt(3) == 0) {
                decoder.skip(n);
            }
            else {
                decoder.read(out, n);
                expect.values(index, index + n);
            }
            index += n;
        }
    }

    /**
     * Ids with long runs of one id (RLE) and random stretches (bit-packed).
     */
    private static int[] ids(SplittableRandom random, int size, int count)
    {
        int[] ids = new int[count];
        int i = 0;
        while (i < count) {
            int run = random.nextBoolean() ? 8 + random.nextInt(100) : 1 + random.nextInt(50);
            int id = random.nextInt(size);
            boolean repeat = random.nextBoolean();
            for (int k = 0; k < run && i < count; k++, i++) {
                ids[i] = repeat ? id : random.nextInt(size);
            }
        }
        return ids;
    }

    private static DictionaryDecoder decoder(ValueBuffer dictionary, DictionaryDecoder.Words words, Type type, int[] ids, SplittableRandom random)
            throws IOException
    {
        int bitWidth = 32 - Integer.numberOfLeadingZeros(Math.max(dictionary.count - 1, 0));
        byte[] encoded = rle(bitWidth, ids);
        byte[] page = new byte[encoded.length + 1];
        page[0] = (byte) bitWidth;
        System.arraycopy(encoded, 0, page, 1, encoded.length);
        byte[] padded = withGarbage(page, random);
        return new DictionaryDecoder(dictionary, words, type, padded, 3, 3 + page.length);
    }

    private static byte[] rle(int bitWidth, int[] values)
            throws IOException
    {
        RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20, HEAP);
        for (int value : values) {
            encoder.writeInt(value);
        }
        return encoder.toBytes().toByteArray();
    }

    /**
     * The bytes at offset 3 of a larger array, with random bytes before and after.
     */
    private static byte[] withGarbage(byte[] bytes, SplittableRandom random)
    {
        byte[] padded = new byte[bytes.length + 3 + 40];
        for (int i = 0; i < padded.length; i++) {
            padded[i] = (byte) random.nextInt();
        }
        System.arraycopy(bytes, 0, padded, 3, bytes.length);
        return padded;
    }

    private static String text(SplittableRandom random, int length)
    {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    private static List<String> strings(ValueBuffer out)
    {
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < out.count; i++) {
            strings.add(new String(out.bytes, out.offsets[i], out.offsets[i + 1] - out.offsets[i], StandardCharsets.UTF_8));
        }
        return strings;
    }
}
