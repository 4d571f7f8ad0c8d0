package io.tarn.vector.reader.decoders;

import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.bytestreamsplit.ByteStreamSplitValuesWriter;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForInteger;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.column.values.deltastrings.DeltaByteArrayWriter;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridValuesWriter;
import org.apache.parquet.format.Type;
import org.apache.parquet.io.api.Binary;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ValuesDecoder#readSelected} of every decoder against values encoded by parquet-column's
 * writers: selections that remove 1%, 11% and 50% of the values at random, all or none of a
 * stretch, its first or last value, or a run crossing a 64-value mask word, interleaved with
 * whole reads and skips; the expected values are the encoder's inputs picked by hand.
 */
public class TestSelectedDecoding
{
    private static final HeapByteBufferAllocator HEAP = new HeapByteBufferAllocator();
    private static final int COUNT = 3000;

    private enum Kind
    {
        INTS, LONGS, BINARY
    }

    @Test
    public void testPlainInts()
    {
        SplittableRandom random = new SplittableRandom(1);
        List<Object> values = new ArrayList<>();
        PlainValuesWriter writer = new PlainValuesWriter(64, 1 << 20, HEAP);
        for (int i = 0; i < COUNT; i++) {
            int value = random.nextInt();
            writer.writeInteger(value);
            values.add(value);
        }
        byte[] encoded = bytes(writer);
        check(values, Kind.INTS, () -> PlainDecoders.create(Type.INT32, 0, encoded, 0, encoded.length));
    }

    @Test
    public void testPlainLongs()
    {
        SplittableRandom random = new SplittableRandom(2);
        List<Object> values = new ArrayList<>();
        PlainValuesWriter writer = new PlainValuesWriter(64, 1 << 20, HEAP);
        for (int i = 0; i < COUNT; i++) {
            double value = random.nextDouble();
            writer.writeDouble(value);
            values.add(Double.doubleToRawLongBits(value));
        }
        byte[] encoded = bytes(writer);
        check(values, Kind.LONGS, () -> PlainDecoders.create(Type.DOUBLE, 0, encoded, 0, encoded.length));
    }

    @Test
    public void testPlainInt96()
    {
        SplittableRandom random = new SplittableRandom(3);
        List<Object> values = new ArrayList<>();
        FixedLenByteArrayPlainValuesWriter writer = new FixedLenByteArrayPlainValuesWriter(12, 64, 1 << 20, HEAP);
        for (int i = 0; i < COUNT; i++) {
            long nanosOfDay = random.nextLong(86_400_000_000_000L);
            int julianDay = 2_440_588 + random.nextInt(-20_000, 20_000);
            ByteBuffer value = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(nanosOfDay).putInt(julianDay);
            writer.writeBytes(Binary.fromConstantByteArray(value.array()));
            // the spec's INT96: nanoseconds of the day, then the Julian day; 2440588 is 1970-01-01
            values.add((julianDay - 2_440_588L) * 86_400_000_000_000L + nanosOfDay);
        }
        byte[] encoded = bytes(writer);
        check(values, Kind.LONGS, () -> PlainDecoders.create(Type.INT96, 0, encoded, 0, encoded.length));
    }

    @Test
    public void testPlainAndRleBooleans()
    {
        SplittableRandom random = new SplittableRandom(4);
        List<Object> values = new ArrayList<>();
        BooleanPlainValuesWriter plain = new BooleanPlainValuesWriter();
        RunLengthBitPackingHybridValuesWriter rle = new RunLengthBitPackingHybridValuesWriter(1, 64, 1 << 20, HEAP);
        for (int i = 0; i < COUNT; i++) {
            // stretches of one value (RLE runs) and random ones (bit-packed)
            boolean value = (i / 200) % 2 == 0 ? random.nextBoolean() : (i / 200) % 4 == 1;
            plain.writeBoolean(value);
            rle.writeBoolean(value);
            values.add(value ? 1 : 0);
        }
        byte[] plainBytes = bytes(plain);
        byte[] rleBytes = bytes(rle);
        check(values, Kind.INTS, () -> PlainDecoders.create(Type.BOOLEAN, 0, plainBytes, 0, plainBytes.length));
        check(values, Kind.INTS, () -> new RleBooleanDecoder(rleBytes, 0, rleBytes.length));
    }

    @Test
    public void testPlainBinaryAndFixed()
    {
        SplittableRandom random = new SplittableRandom(5);
        List<Object> values = new ArrayList<>();
        List<Object> fixedValues = new ArrayList<>();
        PlainValuesWriter writer = new PlainValuesWriter(64, 1 << 20, HEAP);
        FixedLenByteArrayPlainValuesWriter fixed = new FixedLenByteArrayPlainValuesWriter(5, 64, 1 << 20, HEAP);
        for (int i = 0; i < COUNT; i++) {
            String value = text(random, random.nextInt(4) == 0 ? random.nextInt(100) : random.nextInt(30));
            writer.writeBytes(Binary.fromString(value));
            values.add(value);
            String fixedValue = text(random, 5);
            fixed.writeBytes(Binary.fromString(fixedValue));
            fixedValues.add(fixedValue);
        }
        byte[] encoded = bytes(writer);
        byte[] fixedEncoded = bytes(fixed);
        check(values, Kind.BINARY, () -> PlainDecoders.create(Type.BYTE_ARRAY, 0, encoded, 0, encoded.length));
        check(fixedValues, Kind.BINARY, () -> PlainDecoders.create(Type.FIXED_LEN_BYTE_ARRAY, 5, fixedEncoded, 0, fixedEncoded.length));
    }

    @Test
    public void testDeltaEncodings()
    {
        SplittableRandom random = new SplittableRandom(6);
        List<Object> ints = new ArrayList<>();
        List<Object> longs = new ArrayList<>();
        List<Object> strings = new ArrayList<>();
        DeltaBinaryPackingValuesWriterForInteger intWriter = new DeltaBinaryPackingValuesWriterForInteger(128, 4, 64, 1 << 20, HEAP);
        DeltaBinaryPackingValuesWriterForLong longWriter = new DeltaBinaryPackingValuesWriterForLong(128, 4, 64, 1 << 20, HEAP);
        DeltaLengthByteArrayValuesWriter lengthWriter = new DeltaLengthByteArrayValuesWriter(64, 1 << 20, HEAP);
        DeltaByteArrayWriter prefixWriter = new DeltaByteArrayWriter(64, 1 << 20, HEAP);
        String previous = "";
        for (int i = 0; i < COUNT; i++) {
            int intValue = random.nextInt(5) == 0 ? random.nextInt() : i * 3;
            long longValue = random.nextInt(5) == 0 ? random.nextLong() : i * 7L;
            intWriter.writeInteger(intValue);
            longWriter.writeLong(longValue);
            ints.add(intValue);
            longs.add(longValue);
            // shared prefixes for the incremental encoding
            String value = previous.substring(0, random.nextInt(previous.length() + 1)) + text(random, random.nextInt(12));
            lengthWriter.writeBytes(Binary.fromString(value));
            prefixWriter.writeBytes(Binary.fromString(value));
            strings.add(value);
            previous = value;
        }
        byte[] intBytes = bytes(intWriter);
        byte[] longBytes = bytes(longWriter);
        byte[] lengthBytes = bytes(lengthWriter);
        byte[] prefixBytes = bytes(prefixWriter);
        check(ints, Kind.INTS, () -> new DeltaBinaryPackedDecoder(intBytes, 0, intBytes.length, true));
        check(longs, Kind.LONGS, () -> new DeltaBinaryPackedDecoder(longBytes, 0, longBytes.length, false));
        check(strings, Kind.BINARY, () -> new DeltaLengthByteArrayDecoder(lengthBytes, 0, lengthBytes.length, COUNT));
        check(strings, Kind.BINARY, () -> new DeltaByteArrayDecoder(prefixBytes, 0, prefixBytes.length, COUNT));
    }

    @Test
    public void testByteStreamSplit()
    {
        SplittableRandom random = new SplittableRandom(7);
        List<Object> floats = new ArrayList<>();
        List<Object> longs = new ArrayList<>();
        List<Object> fixedValues = new ArrayList<>();
        ValuesWriter floatWriter = new ByteStreamSplitValuesWriter.FloatByteStreamSplitValuesWriter(64, 1 << 20, HEAP);
        ValuesWriter longWriter = new ByteStreamSplitValuesWriter.LongByteStreamSplitValuesWriter(64, 1 << 20, HEAP);
        ValuesWriter fixedWriter = new ByteStreamSplitValuesWriter.FixedLenByteArrayByteStreamSplitValuesWriter(3, 64, 1 << 20, HEAP);
        for (int i = 0; i < COUNT; i++) {
            float floatValue = (float) random.nextDouble();
            long longValue = random.nextLong();
            String fixedValue = text(random, 3);
            floatWriter.writeFloat(floatValue);
            longWriter.writeLong(longValue);
            fixedWriter.writeBytes(Binary.fromString(fixedValue));
            floats.add(Float.floatToRawIntBits(floatValue));
            longs.add(longValue);
            fixedValues.add(fixedValue);
        }
        byte[] floatBytes = bytes(floatWriter);
        byte[] longBytes = bytes(longWriter);
        byte[] fixedBytes = bytes(fixedWriter);
        check(floats, Kind.INTS, () -> new ByteStreamSplitDecoder(Type.FLOAT, 0, floatBytes, 0, floatBytes.length));
        check(longs, Kind.LONGS, () -> new ByteStreamSplitDecoder(Type.INT64, 0, longBytes, 0, longBytes.length));
        check(fixedValues, Kind.BINARY, () -> new ByteStreamSplitDecoder(Type.FIXED_LEN_BYTE_ARRAY, 3, fixedBytes, 0, fixedBytes.length));
    }

    @Test
    public void testDictionaries()
            throws IOException
    {
        SplittableRandom random = new SplittableRandom(8);
        int size = 300;
        ValueBuffer intDictionary = new ValueBuffer();
        ValueBuffer longDictionary = new ValueBuffer();
        ValueBuffer shortDictionary = new ValueBuffer();
        ValueBuffer longTextDictionary = new ValueBuffer();
        List<String> shortEntries = new ArrayList<>();
        List<String> longTextEntries = new ArrayList<>();
        intDictionary.ints(size);
        longDictionary.longs(size);
        for (int i = 0; i < size; i++) {
            intDictionary.ints[i] = random.nextInt();
            longDictionary.longs[i] = random.nextLong();
            // up to 16 bytes (the two-word kernel), and beyond the word kernels
            shortEntries.add(text(random, random.nextInt(17)));
            longTextEntries.add(text(random, 30 + random.nextInt(20)));
            byte[] shortBytes = shortEntries.get(i).getBytes(StandardCharsets.UTF_8);
            byte[] longBytes = longTextEntries.get(i).getBytes(StandardCharsets.UTF_8);
            shortDictionary.appendBinary(shortBytes, 0, shortBytes.length);
            longTextDictionary.appendBinary(longBytes, 0, longBytes.length);
        }
        intDictionary.count = size;
        longDictionary.count = size;
        // ids in RLE runs of one id and in bit-packed stretches
        int[] ids = new int[COUNT];
        for (int i = 0; i < COUNT; i++) {
            ids[i] = (i / 100) % 3 == 0 ? (i / 100) % size : random.nextInt(size);
        }
        RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(9, 64, 1 << 20, HEAP);
        for (int id : ids) {
            encoder.writeInt(id);
        }
        byte[] encoded = encoder.toBytes().toByteArray();
        byte[] page = new byte[encoded.length + 1];
        page[0] = 9;
        System.arraycopy(encoded, 0, page, 1, encoded.length);
        List<Object> intValues = new ArrayList<>();
        List<Object> longValues = new ArrayList<>();
        List<Object> shortValues = new ArrayList<>();
        List<Object> longTextValues = new ArrayList<>();
        for (int id : ids) {
            intValues.add(intDictionary.ints[id]);
            longValues.add(longDictionary.longs[id]);
            shortValues.add(shortEntries.get(id));
            longTextValues.add(longTextEntries.get(id));
        }
        check(intValues, Kind.INTS, () -> new DictionaryDecoder(intDictionary, null, Type.INT32, page, 0, page.length));
        check(longValues, Kind.LONGS, () -> new DictionaryDecoder(longDictionary, null, Type.INT64, page, 0, page.length));
        DictionaryDecoder.Words shortWords = new DictionaryDecoder.Words(shortDictionary);
        check(shortValues, Kind.BINARY, () -> new DictionaryDecoder(shortDictionary, shortWords, Type.BYTE_ARRAY, page, 0, page.length));
        check(shortValues, Kind.BINARY, () -> new DictionaryDecoder(shortDictionary, null, Type.BYTE_ARRAY, page, 0, page.length));
        DictionaryDecoder.Words longWords = new DictionaryDecoder.Words(longTextDictionary);
        check(longTextValues, Kind.BINARY, () -> new DictionaryDecoder(longTextDictionary, longWords, Type.BYTE_ARRAY, page, 0, page.length));
    }

    private interface DecoderFactory
    {
        ValuesDecoder create();
    }

    /**
     * Reads the values through fresh decoders under each selection pattern and compares with the
     * values picked by hand.
     */
    private static void check(List<Object> values, Kind kind, DecoderFactory factory)
    {
        SplittableRandom random = new SplittableRandom(values.size() * 31L + kind.ordinal());
        for (int removedPercent : new int[] {1, 11, 50}) {
            for (int round = 0; round < 3; round++) {
                ValuesDecoder decoder = factory.create();
                ValueBuffer out = new ValueBuffer();
                List<Object> expected = new ArrayList<>();
                int index = 0;
                while (index < values.size()) {
                    // stretches below and above the 16 values the dictionary's word kernels need, and across mask words
                    int n = Math.min(values.size() - index, switch (random.nextInt(3)) {
                        case 0 -> 1 + random.nextInt(15);
                        case 1 -> 1 + random.nextInt(200);
                        default -> 64 * (1 + random.nextInt(4)) + random.nextInt(3) - 1;
                    });
                    int operation = random.nextInt(10);
                    if (operation == 0) {
                        decoder.skip(n);
                    }
                    else if (operation == 1) {
                        decoder.read(out, n);
                        expected.addAll(values.subList(index, index + n));
                    }
                    else {
                        long[] mask = mask(random, n, removedPercent, operation);
                        decoder.readSelected(out, n, mask);
                        for (int i = 0; i < n; i++) {
                            if ((mask[i >>> 6] & (1L << i)) != 0) {
                                expected.add(values.get(index + i));
                            }
                        }
                    }
                    index += n;
                }
                assertThat(decoded(out, kind)).as("%s%% removed, round %s", removedPercent, round).isEqualTo(expected);
                if (kind == Kind.BINARY) {
                    checkMatches(values, factory, random, removedPercent);
                }
            }
        }
    }

    /**
     * {@link ValuesDecoder#match} and {@link ValuesDecoder#matchSelected} under the same kinds
     * of stretches and selections, with literals taken from the values (among them a long one
     * where there is) and one that no value has, and with one literal alone.
     */
    private static void checkMatches(List<Object> values, DecoderFactory factory, SplittableRandom random, int removedPercent)
    {
        List<String> literals = new ArrayList<>();
        // a dozen values: some are surely read, not skipped
        for (int i = 0; i < 12; i++) {
            literals.add((String) values.get(random.nextInt(values.size())));
        }
        values.stream().map(String.class::cast).filter(value -> value.length() >= 9).findFirst().ifPresent(literals::add);
        literals.add("no value is this one");
        ValueMatcher matcher = new ValueMatcher(literals.stream().map(literal -> literal.getBytes(StandardCharsets.UTF_8)).toList());
        ValueMatcher single = new ValueMatcher(List.of(literals.get(0).getBytes(StandardCharsets.UTF_8)));
        for (ValueMatcher tested : List.of(matcher, single)) {
            List<String> matching = tested == single ? literals.subList(0, 1) : literals;
            ValuesDecoder decoder = factory.create();
            MatchBits out = new MatchBits();
            List<Boolean> expected = new ArrayList<>();
            int index = 0;
            while (index < values.size()) {
                int n = Math.min(values.size() - index, random.nextBoolean() ? 1 + random.nextInt(15) : 64 * (1 + random.nextInt(4)) + random.nextInt(3) - 1);
                int operation = random.nextInt(10);
                if (operation == 0) {
                    decoder.skip(n);
                }
                else if (operation == 1) {
                    decoder.match(tested, n, out);
                    values.subList(index, index + n).forEach(value -> expected.add(matching.contains(value)));
                }
                else {
                    long[] mask = mask(random, n, removedPercent, operation);
                    decoder.matchSelected(tested, n, mask, out);
                    for (int i = 0; i < n; i++) {
                        if ((mask[i >>> 6] & (1L << i)) != 0) {
                            expected.add(matching.contains(values.get(index + i)));
                        }
                    }
                }
                index += n;
            }
            List<Boolean> actual = new ArrayList<>();
            for (int i = 0; i < out.count; i++) {
                actual.add(out.get(i));
            }
            assertThat(actual).as("matches of %s", matching).isEqualTo(expected);
            if (tested == matcher) {
                assertThat(expected).as("the test matches some values").contains(true);
            }
        }
    }

    /**
     * A selection of {@code n} values, bits past {@code n} clear: random, or with edge cases by
     * {@code pattern}.
     */
    private static long[] mask(SplittableRandom random, int n, int removedPercent, int pattern)
    {
        long[] mask = new long[(n + 63) / 64];
        for (int i = 0; i < n; i++) {
            boolean selected = switch (pattern) {
                // only the first or only the last removed
                case 2 -> i != 0;
                case 3 -> i != n - 1;
                // none selected
                case 4 -> false;
                // a run removed across the first word boundary
                case 5 -> i < 60 || i > 70;
                default -> random.nextInt(100) >= removedPercent;
            };
            if (selected) {
                mask[i >>> 6] |= 1L << i;
            }
        }
        return mask;
    }

    private static List<Object> decoded(ValueBuffer out, Kind kind)
    {
        List<Object> decoded = new ArrayList<>();
        for (int i = 0; i < out.count; i++) {
            decoded.add(switch (kind) {
                case INTS -> out.ints[i];
                case LONGS -> out.longs[i];
                case BINARY -> new String(out.bytes, out.offsets[i], out.offsets[i + 1] - out.offsets[i], StandardCharsets.UTF_8);
            });
        }
        return decoded;
    }

    private static byte[] bytes(ValuesWriter writer)
    {
        try {
            return writer.getBytes().toByteArray();
        }
        catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(SplittableRandom random, int length)
    {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}
