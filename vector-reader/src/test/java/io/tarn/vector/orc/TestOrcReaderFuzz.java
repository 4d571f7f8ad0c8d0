package io.tarn.vector.orc;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.TestDataGenerator;
import org.apache.arrow.memory.RootAllocator;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 10,000 mutations of real ORC files of Paimon's writer (one with Bloom filters, which equality
 * filters read; bytes flipped, set, inserted and removed; files truncated; lengths and counts
 * nudged; mutations concentrated on the tail and stripe footers, where they reach the most code)
 * never hang a read, never exhaust the JVM, leak no Arrow memory, and fail only with
 * {@link DataFileCorruptionException} or {@link DataFileUnsupportedException}. The seed is printed; set {@code tarn.fuzz.seed} to replay.
 */
public class TestOrcReaderFuzz
{
    private static final int MUTATIONS = 10_000;
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);

    private final RootAllocator allocator = new RootAllocator();
    private final ExecutorService executor = Executors.newSingleThreadExecutor();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        executor.shutdownNow();
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testMutationsFailOnlyAsCorruptOrUnsupported()
            throws Exception
    {
        long seed = Long.getLong("tarn.fuzz.seed", System.nanoTime());
        System.out.println("TestOrcReaderFuzz seed " + seed);
        Random random = new Random(seed);
        List<byte[]> files = List.of(
                OrcTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(1).rows(TestDataGenerator.ALL_TYPES, 40), Map.of(), "zstd"),
                OrcTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(2).rows(TestDataGenerator.ALL_TYPES, 40), Map.of("orc.dictionary.key.threshold", "1"), "none"),
                OrcTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(3).rows(TestDataGenerator.ALL_TYPES, 40), Map.of("orc.write.format", "0.11"), "zlib"),
                OrcTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(4).rows(TestDataGenerator.ALL_TYPES, 40), Map.of("orc.bloom.filter.columns", "i,s"), "none"));
        FieldRef filterField = FieldRef.of(FIELDS.get(4));
        FieldRef stringField = FieldRef.of(FIELDS.get(11));
        List<String> failures = new ArrayList<>();
        int corrupt = 0;
        int read = 0;
        for (int iteration = 0; iteration < MUTATIONS; iteration++) {
            byte[] original = files.get(iteration % files.size());
            StringBuilder description = new StringBuilder();
            byte[] mutated = mutate(original, random, description);
            ReadOptions options = ReadOptions.of(FIELDS).withBatchSize(1 + random.nextInt(50));
            if (random.nextInt(4) == 0) {
                int value = random.nextInt(40) - 10;
                // equality reaches the Bloom filters of the fourth file
                options = options.withFilter(switch (random.nextInt(3)) {
                    case 0 -> Predicates.greaterThan(filterField, value);
                    case 1 -> Predicates.equal(filterField, value);
                    default -> Predicates.or(Predicates.equal(filterField, value), Predicates.equal(stringField, "s" + value));
                });
            }
            if (random.nextInt(4) == 0) {
                options = options.withRowSelection(RoaringBitmap.bitmapOfRange(random.nextInt(20), 20 + random.nextInt(30)));
            }
            ReadOptions readOptions = options;
            Future<Throwable> outcome = executor.submit(() -> read(mutated, readOptions));
            Throwable failure;
            try {
                failure = outcome.get(30, TimeUnit.SECONDS);
            }
            catch (TimeoutException e) {
                outcome.cancel(true);
                throw new AssertionError("Read hangs after mutation " + iteration + " (seed " + seed + "): " + description, e);
            }
            if (failure == null) {
                read++;
            }
            else if (failure instanceof DataFileCorruptionException || failure instanceof DataFileUnsupportedException) {
                corrupt++;
                if (!failure.getMessage().contains("fuzz.orc")) {
                    failures.add(iteration + " " + description + ": message does not name the file: " + failure.getMessage());
                }
            }
            else {
                StringBuilder trace = new StringBuilder(failure.toString());
                for (StackTraceElement element : Arrays.copyOf(failure.getStackTrace(), Math.min(6, failure.getStackTrace().length))) {
                    trace.append("\n    at ").append(element);
                }
                failures.add(iteration + " " + description + ": " + trace);
            }
        }
        System.out.println("TestOrcReaderFuzz: " + corrupt + " mutations failed as corrupt or unsupported, " + read + " read");
        assertThat(failures).as("mutations that failed otherwise (seed %s)", seed).isEmpty();
        assertThat(corrupt).isGreaterThan(MUTATIONS / 10);
    }

    private Throwable read(byte[] file, ReadOptions options)
    {
        try (DataFileReader reader = OrcReader.open(DataFileInput.of("fuzz.orc", file), options, FIELDS, allocator)) {
            int[] positions = new int[options.batchSize()];
            while (reader.nextBatch()) {
                reader.batchPositions(positions);
            }
            return null;
        }
        catch (Throwable e) {
            return e;
        }
    }

    private static byte[] mutate(byte[] file, Random random, StringBuilder description)
    {
        byte[] bytes = file.clone();
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            // half the mutations hit the tail (postscript, footer, metadata) or the end of the body (stripe footers)
            int position = random.nextBoolean()
                    ? Math.max(0, bytes.length - 1 - random.nextInt(Math.min(bytes.length, 600)))
                    : random.nextInt(bytes.length);
            switch (random.nextInt(7)) {
                case 0 -> {
                    int bit = random.nextInt(8);
                    bytes[position] ^= (byte) (1 << bit);
                    description.append("flip ").append(position).append(':').append(bit).append(' ');
                }
                case 1 -> {
                    int value = random.nextInt(256);
                    bytes[position] = (byte) value;
                    description.append("set ").append(position).append('=').append(value).append(' ');
                }
                case 2 -> {
                    // a length or count nudged: small changes keep varints valid
                    int delta = random.nextInt(9) - 4;
                    bytes[position] = (byte) (bytes[position] + delta);
                    description.append("add ").append(position).append(delta >= 0 ? "+" : "").append(delta).append(' ');
                }
                case 3 -> {
                    // a varint made long: continuation bit set
                    bytes[position] |= (byte) 0x80;
                    description.append("continue ").append(position).append(' ');
                }
                case 4 -> {
                    int length = random.nextInt(bytes.length);
                    bytes = Arrays.copyOf(bytes, length);
                    description.append("truncate ").append(length).append(' ');
                    if (bytes.length == 0) {
                        return bytes;
                    }
                }
                case 5 -> {
                    byte[] longer = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, longer, 0, position);
                    longer[position] = (byte) random.nextInt(256);
                    System.arraycopy(bytes, position, longer, position + 1, bytes.length - position);
                    bytes = longer;
                    description.append("insert ").append(position).append(' ');
                }
                default -> {
                    byte[] shorter = new byte[bytes.length - 1];
                    System.arraycopy(bytes, 0, shorter, 0, position);
                    System.arraycopy(bytes, position + 1, shorter, position, bytes.length - position - 1);
                    bytes = shorter;
                    description.append("remove ").append(position).append(' ');
                    if (bytes.length == 0) {
                        return bytes;
                    }
                }
            }
        }
        return bytes;
    }
}
