package io.tarn.vector.orc;

import org.apache.paimon.shade.org.apache.orc.CompressionCodec;
import org.apache.paimon.shade.org.apache.orc.CompressionKind;
import org.apache.paimon.shade.org.apache.orc.PhysicalWriter;
import org.apache.paimon.shade.org.apache.orc.impl.OrcCodecPool;
import org.apache.paimon.shade.org.apache.orc.impl.OutStream;
import org.apache.paimon.shade.org.apache.orc.impl.RunLengthIntegerWriterV2;
import org.apache.paimon.shade.org.apache.orc.impl.writer.StreamOptions;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RLE v2 decoder on streams that ORC's own writer ({@code RunLengthIntegerWriterV2} of the
 * orc-core Paimon bundles) encoded: values shaped to make it choose each sub-encoding at each bit
 * width, signed and unsigned, stored whole and in ZLIB chunks so small that runs straddle them;
 * read in batches of odd sizes, skipped over, and sought to the positions the writer recorded.
 * The expected values are the ones written.
 */
public class TestIntegerRleV2Decoder
{
    private static final int CHUNK = 67;
    private static final int SHORT_REPEAT = 0;
    private static final int DIRECT = 1;
    private static final int PATCHED_BASE = 2;
    private static final int DELTA = 3;

    private enum Shape
    {
        // distinct values of exactly the width, no three alike and not monotonic
        DIRECT,
        // small values with a few of the full width: patched where the writer finds it pays
        PATCHED,
        // increasing or decreasing by deltas of the width
        DELTA,
        // runs of 3 to 10 copies of values of the width
        REPEAT,
    }

    @Test
    public void testEveryWidthOfEveryShape()
            throws IOException
    {
        long seed = System.nanoTime();
        System.out.println("TestIntegerRleV2Decoder seed " + seed);
        Random random = new Random(seed);
        Set<String> firstRuns = new HashSet<>();
        for (Shape shape : Shape.values()) {
            for (int width = 1; width <= 64; width++) {
                for (boolean signed : new boolean[] {false, true}) {
                    if (signed && width == 64 && shape != Shape.REPEAT) {
                        // zigzag of the full long range: covered by the REPEAT and DIRECT unsigned cases
                        continue;
                    }
                    long[] values = values(shape, width, signed, 1500 + random.nextInt(600), random);
                    String description = shape + " width " + width + (signed ? " signed" : " unsigned") + " seed " + seed;
                    Encoded plain = encode(values, signed, false, random.nextBoolean(), random);
                    firstRuns.add(shape + "/" + encodingName(plain.bytes()[0] >>> 6 & 3));
                    check(plain, values, signed, false, random, description);
                    Encoded chunked = encode(values, signed, true, random.nextBoolean(), random);
                    check(chunked, values, signed, true, random, description + " in chunks");
                }
            }
        }
        // the shapes made the writer use every sub-encoding
        assertThat(firstRuns).contains("DIRECT/DIRECT", "PATCHED/PATCHED_BASE", "DELTA/DELTA", "REPEAT/SHORT_REPEAT");
    }

    @Test
    public void testDirectAndDeltaRunsOfEveryWidth()
            throws IOException
    {
        // the widths the writer uses for direct runs and delta deltas (with ORC's aligned bit
        // packing and without), read back from each stream's first header
        Random random = new Random(7);
        Set<Integer> directWidths = new HashSet<>();
        Set<Integer> deltaWidths = new HashSet<>();
        for (int width = 1; width <= 64; width++) {
            for (boolean aligned : new boolean[] {false, true}) {
                long[] direct = values(Shape.DIRECT, width, false, 600, random);
                Encoded encoded = encode(direct, false, false, aligned, random);
                byte[] bytes = encoded.bytes();
                if ((bytes[0] >>> 6 & 3) == DIRECT) {
                    directWidths.add(IntegerRleV2Decoder.decodeBitWidth(bytes[0] >>> 1 & 0x1F));
                }
                check(encoded, direct, false, false, random, "direct width " + width);
                long[] delta = values(Shape.DELTA, width, false, 600, random);
                encoded = encode(delta, false, false, aligned, random);
                bytes = encoded.bytes();
                if ((bytes[0] >>> 6 & 3) == DELTA && (bytes[0] >>> 1 & 0x1F) != 0) {
                    deltaWidths.add(IntegerRleV2Decoder.decodeBitWidth(bytes[0] >>> 1 & 0x1F));
                }
                check(encoded, delta, false, false, random, "delta width " + width);
            }
        }
        // every width the format can give a direct run
        assertThat(directWidths).containsAll(List.of(1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64));
        assertThat(directWidths).contains(3, 5, 7, 11, 13, 17, 19, 23, 26, 28, 30);
        // (a delta width code of 0 means a fixed delta, so ORC's writer packs deltas of 1 bit in 2)
        assertThat(deltaWidths).contains(2, 4, 8, 16, 24, 32, 40, 48);
    }

    private static void check(Encoded encoded, long[] values, boolean signed, boolean compressed, Random random, String description)
    {
        // whole, in batches of odd sizes (some longer than a run, decoded in place)
        IntegerDecoder decoder = IntegerDecoder.create(encoded.stream(compressed), signed, true);
        long[] read = new long[values.length];
        int done = 0;
        while (done < values.length) {
            int batch = Math.min(values.length - done, 1 + random.nextInt(random.nextBoolean() ? 40 : 1200));
            decoder.next(read, done, batch);
            done += batch;
        }
        assertThat(read).as(description).containsExactly(values);

        // skipping: over parts of runs and over several runs
        decoder = IntegerDecoder.create(encoded.stream(compressed), signed, true);
        int at = 0;
        while (at < values.length) {
            int skip = Math.min(values.length - at, random.nextInt(random.nextBoolean() ? 20 : 900));
            decoder.skip(skip);
            at += skip;
            if (at < values.length) {
                assertThat(decoder.next()).as(description + " after skipping to " + at).isEqualTo(values[at]);
                at++;
            }
        }

        // seeking to the positions the writer recorded, then reading on
        for (int k = 0; k < 6; k++) {
            int index = random.nextInt(encoded.positions().size());
            long[] position = encoded.positions().get(index);
            int value = encoded.positionValues().get(index);
            IntegerDecoder seeking = IntegerDecoder.create(encoded.stream(compressed), signed, true);
            seeking.seek(new PositionCursor(position));
            int count = Math.min(values.length - value, 1 + random.nextInt(700));
            long[] after = new long[count];
            seeking.next(after, 0, count);
            long[] expected = new long[count];
            System.arraycopy(values, value, expected, 0, count);
            assertThat(after).as(description + " after seeking to value " + value).containsExactly(expected);
        }
    }

    private static long[] values(Shape shape, int width, boolean signed, int count, Random random)
    {
        long[] values = new long[count];
        switch (shape) {
            case DIRECT -> {
                if (width == 1) {
                    // two 0s and a 1 over and over: no runs of three, not monotonic
                    for (int i = 0; i < count; i++) {
                        values[i] = i % 3 == 2 ? 1 : 0;
                    }
                }
                else {
                    for (int i = 0; i < count; i++) {
                        long value;
                        do {
                            value = encodedOfWidth(width, random, i % 7 == 0);
                        }
                        while (i >= 1 && value == values[i - 1]);
                        values[i] = value;
                    }
                }
                unzigzagAll(values, signed);
            }
            case PATCHED -> {
                long base = signed ? -(random.nextInt(1000)) : random.nextInt(1000);
                int small = Math.max(1, width - 12);
                for (int i = 0; i < count; i++) {
                    boolean outlier = random.nextInt(100) < 3;
                    int bits = outlier ? width : small;
                    long magnitude = bits >= 63 ? random.nextLong() >>> 1 : random.nextLong() & ((1L << bits) - 1);
                    if (outlier && bits < 63) {
                        magnitude |= 1L << (bits - 1);
                    }
                    // keep the sum in range
                    values[i] = base + Math.min(magnitude, Long.MAX_VALUE - 1000);
                }
            }
            case DELTA -> {
                boolean down = random.nextBoolean();
                // deltas of the width, short of overflowing the sum of a run
                int bits = Math.min(width, 50);
                long value = down ? Long.MAX_VALUE / 2 : signed ? Long.MIN_VALUE / 4 : 0;
                for (int i = 0; i < count; i++) {
                    values[i] = value;
                    long delta = bits == 1 ? (i % 3 == 1 ? 0 : 1) : encodedOfWidth(bits, random, i % 3 == 0);
                    value = down ? value - delta : value + delta;
                }
                if (!signed) {
                    long min = Long.MAX_VALUE;
                    for (long v : values) {
                        min = Math.min(min, v);
                    }
                    for (int i = 0; i < count; i++) {
                        values[i] -= min;
                    }
                }
            }
            case REPEAT -> {
                int i = 0;
                long previous = -1;
                while (i < count) {
                    long value;
                    do {
                        // (every value of width 1 is 1: then 0s too)
                        value = encodedOfWidth(width, random, width > 1);
                    }
                    while (value == previous);
                    previous = value;
                    int copies = Math.min(count - i, 3 + random.nextInt(8));
                    for (int k = 0; k < copies; k++) {
                        values[i++] = value;
                    }
                }
                unzigzagAll(values, signed);
            }
        }
        return values;
    }

    /**
     * A value whose encoded form (zigzagged when signed) has {@code width} bits, exactly when
     * {@code full}.
     */
    private static long encodedOfWidth(int width, Random random, boolean full)
    {
        long mask = width == 64 ? -1L : (1L << width) - 1;
        long value = random.nextLong() & mask;
        if (full) {
            value |= 1L << (width - 1);
        }
        return value;
    }

    private static void unzigzagAll(long[] values, boolean signed)
    {
        if (signed) {
            for (int i = 0; i < values.length; i++) {
                values[i] = (values[i] >>> 1) ^ -(values[i] & 1);
            }
        }
    }

    private static String encodingName(int encoding)
    {
        return switch (encoding) {
            case SHORT_REPEAT -> "SHORT_REPEAT";
            case DIRECT -> "DIRECT";
            case PATCHED_BASE -> "PATCHED_BASE";
            default -> "DELTA";
        };
    }

    private record Encoded(byte[] bytes, List<long[]> positions, List<Integer> positionValues)
    {
        DecompressedStream stream(boolean compressed)
        {
            return new DecompressedStream("test", bytes, 0, bytes.length, compressed ? new OrcCodec(OrcCodec.Kind.ZLIB) : null, CHUNK);
        }
    }

    /**
     * The values encoded by ORC's writer, with the positions it records (as a row index would)
     * before some of the values.
     */
    private static Encoded encode(long[] values, boolean signed, boolean compressed, boolean aligned, Random random)
            throws IOException
    {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        PhysicalWriter.OutputReceiver receiver = new PhysicalWriter.OutputReceiver()
        {
            @Override
            public void output(ByteBuffer buffer)
            {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                output.write(bytes, 0, bytes.length);
            }

            @Override
            public void suppress()
            {
                throw new UnsupportedOperationException();
            }
        };
        StreamOptions options = new StreamOptions(CHUNK);
        CompressionCodec codec = null;
        if (compressed) {
            codec = OrcCodecPool.getCodec(CompressionKind.ZLIB);
            options.withCodec(codec, codec.getDefaultOptions());
        }
        OutStream stream = new OutStream("test", options, receiver);
        RunLengthIntegerWriterV2 writer = new RunLengthIntegerWriterV2(stream, signed, aligned);
        List<long[]> positions = new ArrayList<>();
        List<Integer> positionValues = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            if (i == 0 || random.nextInt(97) == 0) {
                List<Long> recorded = new ArrayList<>();
                writer.getPosition(recorded::add);
                positions.add(recorded.stream().mapToLong(Long::longValue).toArray());
                positionValues.add(i);
            }
            writer.write(values[i]);
        }
        writer.flush();
        if (codec != null) {
            OrcCodecPool.returnCodec(CompressionKind.ZLIB, codec);
        }
        return new Encoded(output.toByteArray(), positions, positionValues);
    }
}
