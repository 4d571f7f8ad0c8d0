package io.tarn.vector.orc;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The writer's run-length encoders, checked through the reader's decoders: random and edge
 * sequences (runs of every length around the encoders' limits, negatives, Long.MIN_VALUE and
 * Long.MAX_VALUE, every bit width) encode to bytes the decoders read back as written, without
 * compression and with chunks compressed (and some stored as they are); and every position the
 * encoders record, as a row index entry does, lets a decoder start reading there.
 */
public class TestRunLengthEncoders
{
    private static final long SEED = new Random().nextLong();

    static {
        System.out.println("TestRunLengthEncoders seed: " + SEED);
    }

    @DataProvider
    public Object[][] codecs()
    {
        // a block size of 100 bytes: many chunks, some not shrinking
        return new Object[][] {{OrcCodec.Kind.NONE, 100}, {OrcCodec.Kind.ZLIB, 100}, {OrcCodec.Kind.ZSTD, 1000}, {OrcCodec.Kind.SNAPPY, 64}, {OrcCodec.Kind.LZ4, 256}};
    }

    @Test(dataProvider = "codecs")
    public void testIntegersRoundTrip(OrcCodec.Kind codec, int blockSize)
    {
        Random random = new Random(SEED);
        for (long[] values : integerSequences(random)) {
            for (boolean signed : new boolean[] {true, false}) {
                long[] written = signed ? values : Arrays.stream(values).map(Math::abs).map(value -> value == Long.MIN_VALUE ? Long.MAX_VALUE : value).toArray();
                Encoded encoded = encode(codec, blockSize, random, written.length, buffer -> {
                    IntegerRleV2Encoder encoder = new IntegerRleV2Encoder(buffer, signed);
                    return new Encoder(i -> encoder.write(written[i]), encoder::recordPosition, encoder::flush);
                });
                for (int start : encoded.starts()) {
                    IntegerDecoder decoder = IntegerDecoder.create(encoded.stream(), signed, true);
                    decoder.seek(new PositionCursor(encoded.positions(start)));
                    long[] read = new long[written.length - start];
                    decoder.next(read, 0, read.length);
                    assertThat(read).as("%s values from %s, signed %s, seed %s", written.length, start, signed, SEED)
                            .containsExactly(Arrays.copyOfRange(written, start, written.length));
                }
            }
        }
    }

    @Test(dataProvider = "codecs")
    public void testBytesRoundTrip(OrcCodec.Kind codec, int blockSize)
    {
        Random random = new Random(SEED);
        for (long[] sequence : integerSequences(random)) {
            byte[] written = new byte[sequence.length];
            for (int i = 0; i < written.length; i++) {
                written[i] = (byte) sequence[i];
            }
            Encoded encoded = encode(codec, blockSize, random, written.length, buffer -> {
                ByteRleEncoder encoder = new ByteRleEncoder(buffer);
                return new Encoder(i -> encoder.write(written[i]), encoder::recordPosition, encoder::flush);
            });
            for (int start : encoded.starts()) {
                ByteRleDecoder decoder = new ByteRleDecoder(encoded.stream());
                decoder.seek(new PositionCursor(encoded.positions(start)));
                byte[] read = new byte[written.length - start];
                decoder.next(read, 0, read.length);
                assertThat(read).as("%s bytes from %s, seed %s", written.length, start, SEED).containsExactly(Arrays.copyOfRange(written, start, written.length));
            }
        }
    }

    @Test(dataProvider = "codecs")
    public void testBooleansRoundTrip(OrcCodec.Kind codec, int blockSize)
    {
        Random random = new Random(SEED);
        for (long[] sequence : integerSequences(random)) {
            boolean[] written = new boolean[sequence.length];
            for (int i = 0; i < written.length; i++) {
                written[i] = (sequence[i] & 1) != 0;
            }
            Encoded encoded = encode(codec, blockSize, random, written.length, buffer -> {
                BooleanEncoder encoder = new BooleanEncoder(buffer);
                return new Encoder(i -> encoder.write(written[i]), encoder::recordPosition, encoder::flush);
            });
            for (int start : encoded.starts()) {
                BooleanDecoder decoder = new BooleanDecoder(encoded.stream());
                decoder.seek(new PositionCursor(encoded.positions(start)));
                boolean[] read = new boolean[written.length - start];
                decoder.next(read, 0, read.length);
                assertThat(read).as("%s booleans from %s, seed %s", written.length, start, SEED).containsExactly(Arrays.copyOfRange(written, start, written.length));
            }
        }
    }

    @Test
    public void testEncodingsChosen()
    {
        // 3..10 equal values: SHORT_REPEAT, one header byte and the value's bytes
        assertThat(encodeUncompressed(true, 5, 5, 5)).containsExactly(0x00, 0x0a);
        assertThat(encodeUncompressed(false, 1000, 1000, 1000, 1000)).containsExactly(0x09, 0x03, 0xe8);
        // 11 and more: DELTA with a fixed delta of 0: header, base varint, delta 0
        assertThat(encodeUncompressed(true, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)).containsExactly(0xc0, 0x0a, 0x01, 0x00);
        // distinct values: DIRECT, as in the specification's example [23713, 43806, 57005, 48879]
        assertThat(encodeUncompressed(false, 23713, 43806, 57005, 48879)).containsExactly(0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef);
    }

    @Test
    public void testPackingWidths()
    {
        for (int bits = 0; bits <= 64; bits++) {
            int width = IntegerRleV2Encoder.fixedWidth(bits);
            assertThat(width).isGreaterThanOrEqualTo(bits);
            assertThat(IntegerRleV2Decoder.decodeBitWidth(IntegerRleV2Encoder.widthCode(width))).isEqualTo(width);
        }
    }

    private static int[] encodeUncompressed(boolean signed, long... values)
    {
        OrcOutputBuffer buffer = new OrcOutputBuffer(null, 0);
        IntegerRleV2Encoder encoder = new IntegerRleV2Encoder(buffer, signed);
        for (long value : values) {
            encoder.write(value);
        }
        encoder.flush();
        byte[] bytes = buffer.toByteArray();
        int[] unsigned = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            unsigned[i] = bytes[i] & 0xff;
        }
        return unsigned;
    }

    private static List<long[]> integerSequences(Random random)
    {
        List<long[]> sequences = new ArrayList<>();
        sequences.add(new long[] {0});
        sequences.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE});
        for (int length : new int[] {2, 3, 9, 10, 11, 127, 128, 129, 130, 131, 511, 512, 513, 1500}) {
            sequences.add(runs(random, length, length));
            sequences.add(runs(random, length, 1 + random.nextInt(12)));
        }
        for (int bits = 1; bits <= 64; bits++) {
            long[] values = new long[200 + random.nextInt(400)];
            for (int i = 0; i < values.length; i++) {
                values[i] = bits == 64 ? random.nextLong() : random.nextLong() >> (64 - bits);
            }
            sequences.add(values);
        }
        for (int i = 0; i < 20; i++) {
            sequences.add(runs(random, 1 + random.nextInt(3000), 1 + random.nextInt(40)));
        }
        return sequences;
    }

    /**
     * A sequence of {@code length} values in runs of up to {@code maxRun} equal values, drawn
     * from small numbers, negatives and the extremes.
     */
    private static long[] runs(Random random, int length, int maxRun)
    {
        long[] pool = {0, 1, -1, 2, 63, -64, 127, -128, 255, 1 << 20, -(1L << 40), Long.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE};
        long[] values = new long[length];
        int i = 0;
        while (i < length) {
            long value = random.nextBoolean() ? pool[random.nextInt(pool.length)] : random.nextLong() >> random.nextInt(64);
            int run = 1 + random.nextInt(maxRun);
            for (int j = 0; j < run && i < length; j++) {
                values[i++] = value;
            }
        }
        return values;
    }

    /**
     * One encoder under test: writes the value of an index, records a position, flushes.
     */
    private record Encoder(IntConsumer write, Consumer<OrcOutputBuffer.PositionList> record, Runnable flush) {}

    /**
     * Encodes {@code count} values, recording the position before value 0 and before random
     * other values as a row index would.
     */
    private static Encoded encode(OrcCodec.Kind codec, int blockSize, Random random, int count, Function<OrcOutputBuffer, Encoder> factory)
    {
        ChunkCompressor compressor = codec == OrcCodec.Kind.NONE ? null : new ChunkCompressor(codec, 3);
        OrcOutputBuffer buffer = new OrcOutputBuffer(compressor, blockSize);
        Encoder encoder = factory.apply(buffer);
        List<Integer> starts = new ArrayList<>();
        List<long[]> positions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (i == 0 || random.nextInt(50) == 0) {
                OrcOutputBuffer.PositionList list = new OrcOutputBuffer.PositionList();
                encoder.record().accept(list);
                starts.add(i);
                positions.add(Arrays.copyOf(list.values(), list.size()));
            }
            encoder.write().accept(i);
        }
        encoder.flush().run();
        byte[] bytes = buffer.toByteArray();
        if (compressor != null) {
            compressor.close();
        }
        return new Encoded(bytes, codec, blockSize, starts, positions);
    }

    private record Encoded(byte[] bytes, OrcCodec.Kind codec, int blockSize, List<Integer> starts, List<long[]> recorded)
    {
        DecompressedStream stream()
        {
            return new DecompressedStream("test", bytes, 0, bytes.length, codec == OrcCodec.Kind.NONE ? null : new OrcCodec(codec), blockSize);
        }

        long[] positions(int start)
        {
            return recorded.get(starts.indexOf(start));
        }
    }
}
