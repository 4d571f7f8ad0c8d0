package io.tarn.vector.avro;

import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.TestDataGenerator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.paimon.data.GenericRow;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Broken Avro files fail with {@link DataFileCorruptionException} (or, for what the reader does
 * not implement, {@link DataFileUnsupportedException}) naming the file, never with another
 * exception, a hang or leaked Arrow memory.
 */
public class TestAvroReaderCorruption
{
    private static final String NAME = "test.avro";
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(AvroTestFiles.ALL_TYPES);

    private final RootAllocator allocator = new RootAllocator();
    private final List<GenericRow> rows = new TestDataGenerator(5).rows(AvroTestFiles.ALL_TYPES, 1200);
    // by codec, the file of all rows: several blocks
    private final Map<String, byte[]> files = new HashMap<>();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] codecs()
    {
        return new Object[][] {{"null"}, {"deflate"}, {"snappy"}, {"zstd"}};
    }

    @Test(dataProvider = "codecs")
    public void testValidFileReads(String codec)
            throws IOException
    {
        byte[] file = file(codec);
        assertThat(readAll(file)).isEqualTo(rows.size());
        assertThat(blocks(file).blockCount()).isGreaterThan(2);
    }

    @Test(dataProvider = "codecs")
    public void testTruncated(String codec)
            throws IOException
    {
        byte[] file = file(codec);
        AvroFile blocks = blocks(file);
        long firstBlock = blocks.blockStart(0);
        for (long length : new long[] {0, 3, 4, 20, firstBlock / 2, firstBlock - 3, firstBlock + 5, blocks.blockStart(1) - 1, file.length - 17, file.length - 1}) {
            byte[] truncated = Arrays.copyOf(file, (int) length);
            assertCorrupt(truncated);
        }
    }

    @Test
    public void testBadMagic()
    {
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows.subList(0, 10), "zstd");
        byte[] first = file.clone();
        first[0] = 'X';
        assertCorrupt(first).hasMessageContaining("magic");
        byte[] version = file.clone();
        version[3] = 2;
        assertCorrupt(version).hasMessageContaining("magic");
    }

    @Test(dataProvider = "codecs")
    public void testBadBlockLength(String codec)
            throws IOException
    {
        byte[] file = file(codec);
        AvroFile blocks = blocks(file);
        // block 1's count and size follow block 0's sync marker
        int header = (int) (blocks.blockStart(0) + blocks.blockSize(0) + 16);
        int size = header + varintLength(file, header);
        for (int delta : new int[] {2, -2, 1}) {
            // +2 / -2: one byte more or less (zig-zag); 1: a negative size
            byte[] corrupt = file.clone();
            corrupt[size] = (byte) ((corrupt[size] & 0x80) | ((corrupt[size] + delta) & 0x7F));
            assertCorrupt(corrupt).hasMessageContaining("block");
        }
        // a size far past the end of the file, in a varint of the same length
        byte[] huge = file.clone();
        for (int i = size; (huge[i] & 0x80) != 0; i++) {
            huge[i] = (byte) 0xFE;
        }
        assertCorrupt(huge).hasMessageContaining("block");
    }

    @Test(dataProvider = "codecs")
    public void testBadBlockCount(String codec)
            throws IOException
    {
        byte[] file = file(codec);
        AvroFile blocks = blocks(file);
        int header = (int) (blocks.blockStart(0) + blocks.blockSize(0) + 16);
        for (int delta : new int[] {2, -2, 1}) {
            // one record more, one less, a negative count
            byte[] corrupt = file.clone();
            corrupt[header] = (byte) ((corrupt[header] & 0x80) | ((corrupt[header] + delta) & 0x7F));
            assertCorrupt(corrupt);
        }
    }

    @Test(dataProvider = "codecs")
    public void testBadSyncMarker(String codec)
            throws IOException
    {
        byte[] file = file(codec);
        AvroFile blocks = blocks(file);
        for (int block : new int[] {0, blocks.blockCount() - 1}) {
            byte[] corrupt = file.clone();
            corrupt[(int) (blocks.blockStart(block) + blocks.blockSize(block) + 7)] ^= 0x10;
            assertCorrupt(corrupt).hasMessageContaining("sync");
        }
        // the header's copy of the marker: no block matches it any more
        int syncAt = (int) (blocks.blockStart(0) + blocks.blockSize(0));
        byte[] header = file.clone();
        header[indexOf(file, Arrays.copyOfRange(file, syncAt, syncAt + 16))] ^= 0x01;
        assertCorrupt(header).hasMessageContaining("sync");
    }

    @DataProvider
    public Object[][] compressedCodecs()
    {
        return new Object[][] {{"deflate"}, {"snappy"}, {"zstd"}};
    }

    @Test(dataProvider = "compressedCodecs")
    public void testBadCompressedBlock(String codec)
            throws IOException
    {
        byte[] file = file(codec);
        AvroFile blocks = blocks(file);
        int start = (int) blocks.blockStart(1);
        int end = start + blocks.blockSize(1);
        // the start of the compressed data: the deflate block type, the Snappy length, the ZSTD magic
        byte[] head = file.clone();
        Arrays.fill(head, start, start + 4, (byte) 0xFF);
        assertCorrupt(head, RoaringBitmap.bitmapOf((int) blocks.firstRow(1)));
        // the end: the Snappy checksum, the last deflate or ZSTD block
        byte[] tail = file.clone();
        for (int i = end - 4; i < end; i++) {
            tail[i] ^= 0x5A;
        }
        assertCorrupt(tail, RoaringBitmap.bitmapOf((int) blocks.firstRow(1)));
    }

    @Test
    public void testBadSchema()
    {
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows.subList(0, 10), "zstd");
        byte[] corrupt = file.clone();
        int record = indexOf(corrupt, "\"record\"".getBytes(StandardCharsets.UTF_8));
        corrupt[record + 1] = 'X';
        assertCorrupt(corrupt).hasMessageContaining("schema");
    }

    @Test
    public void testFileNotAsItsSchemaSays()
    {
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows.subList(0, 10), "zstd");
        ReadOptions options = ReadOptions.of(FIELDS.subList(0, 2));
        // a field of the schema the file lacks
        List<DataField> extra = new ArrayList<>(FIELDS);
        extra.add(new DataField(999, "gone", DataTypes.integer()));
        assertThatThrownBy(() -> readAll(file, options, extra))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("gone");
        // a file field the schema lacks
        assertThatThrownBy(() -> readAll(file, options, FIELDS.subList(0, 20)))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining(FIELDS.get(20).name());
        // a field of another type
        List<DataField> retyped = new ArrayList<>(FIELDS);
        retyped.set(4, retyped.get(4).withType(DataTypes.string()));
        assertThatThrownBy(() -> readAll(file, options, retyped))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining(FIELDS.get(4).name());
    }

    @Test
    public void testUnsupportedCodec()
            throws IOException
    {
        Schema schema = SchemaBuilder.record("record").fields().requiredLong("id").endRecord();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
            writer.setCodec(CodecFactory.bzip2Codec());
            writer.create(schema, bytes);
            GenericRecord record = new GenericData.Record(schema);
            record.put("id", 7L);
            writer.append(record);
        }
        List<DataField> fields = List.of(new DataField(0, "id", DataTypes.bigint().withNullable(false)));
        assertThatThrownBy(() -> readAll(bytes.toByteArray(), ReadOptions.of(fields), fields))
                .isInstanceOf(DataFileUnsupportedException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("bzip2");
    }

    /**
     * Thousands of random mutations (flipped bits, overwritten bytes and runs, truncations,
     * inserted and dropped bytes) of small files of every codec, each read whole, read with a
     * row selection and read by a small read size: every read ends, within a time limit, in
     * rows or in a corruption or unsupported-feature error naming the file.
     */
    @Test(dataProvider = "codecs")
    public void testMutations(String codec)
            throws Exception
    {
        long seed = new Random().nextLong();
        System.out.println("TestAvroReaderCorruption.testMutations seed " + seed + " codec " + codec);
        Random random = new Random(seed);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows.subList(0, 150), codec);
        ExecutorService executor = Executors.newSingleThreadExecutor();
        int outcomes = 0;
        try {
            for (int i = 0; i < 1000; i++) {
                byte[] mutated = mutate(file, random);
                int variant = i % 3;
                Future<Long> read = executor.submit(() -> switch (variant) {
                    case 0 -> readAll(mutated, ReadOptions.of(FIELDS).withBatchSize(64), FIELDS);
                    case 1 -> readAll(mutated, ReadOptions.of(FIELDS.subList(10, 20)).withRowSelection(RoaringBitmap.bitmapOf(1, 2, 75, 149)), FIELDS);
                    default -> readSmallReads(mutated);
                });
                try {
                    read.get(20, TimeUnit.SECONDS);
                }
                catch (TimeoutException e) {
                    read.cancel(true);
                    fail("Mutation " + i + " (seed " + seed + ") did not finish");
                }
                catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (!(cause instanceof DataFileCorruptionException || cause instanceof DataFileUnsupportedException)) {
                        throw new AssertionError("Mutation " + i + " (seed " + seed + ") failed with " + cause, cause);
                    }
                    assertThat(cause.getMessage()).as("mutation %s (seed %s)", i, seed).contains(NAME);
                    outcomes++;
                }
            }
        }
        finally {
            executor.shutdownNow();
        }
        // most mutations break the file
        assertThat(outcomes).isGreaterThan(300);
        assertThat(allocator.getAllocatedMemory()).isZero();
    }

    private byte[] file(String codec)
    {
        return files.computeIfAbsent(codec, name -> AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, name));
    }

    private static byte[] mutate(byte[] file, Random random)
    {
        byte[] bytes = file.clone();
        int position = random.nextInt(bytes.length);
        return switch (random.nextInt(6)) {
            case 0 -> {
                bytes[position] ^= (byte) (1 << random.nextInt(8));
                yield bytes;
            }
            case 1 -> {
                bytes[position] = (byte) random.nextInt(256);
                yield bytes;
            }
            case 2 -> {
                Arrays.fill(bytes, position, Math.min(bytes.length, position + 1 + random.nextInt(16)), random.nextBoolean() ? (byte) 0xFF : 0);
                yield bytes;
            }
            case 3 -> Arrays.copyOf(bytes, position);
            case 4 -> {
                byte[] longer = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, longer, 0, position);
                longer[position] = (byte) random.nextInt(256);
                System.arraycopy(bytes, position, longer, position + 1, bytes.length - position);
                yield longer;
            }
            default -> {
                byte[] shorter = new byte[bytes.length - 1];
                System.arraycopy(bytes, 0, shorter, 0, position);
                System.arraycopy(bytes, position + 1, shorter, position, bytes.length - position - 1);
                yield shorter;
            }
        };
    }

    private long readSmallReads(byte[] file)
            throws IOException
    {
        long rows = 0;
        try (AvroReader reader = AvroReader.open(DataFileInput.of(NAME, file), ReadOptions.of(FIELDS).withBatchSize(100), FIELDS, allocator, 512)) {
            while (reader.nextBatch()) {
                rows += reader.root().getRowCount();
            }
        }
        return rows;
    }

    private static AvroFile blocks(byte[] file)
            throws IOException
    {
        return AvroFile.read(DataFileInput.of(NAME, file));
    }

    private static int varintLength(byte[] bytes, int offset)
    {
        int length = 1;
        while ((bytes[offset + length - 1] & 0x80) != 0) {
            length++;
        }
        return length;
    }

    private static int indexOf(byte[] bytes, byte[] pattern)
    {
        for (int i = 0; i <= bytes.length - pattern.length; i++) {
            if (Arrays.equals(bytes, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        throw new IllegalArgumentException("Pattern not found");
    }

    private org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertCorrupt(byte[] file)
    {
        return assertThatThrownBy(() -> readAll(file))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME);
    }

    private org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertCorrupt(byte[] file, RoaringBitmap selection)
    {
        return assertThatThrownBy(() -> readAll(file, ReadOptions.of(FIELDS).withRowSelection(selection), FIELDS))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME);
    }

    private long readAll(byte[] file)
            throws IOException
    {
        return readAll(file, ReadOptions.of(FIELDS), FIELDS);
    }

    private long readAll(byte[] file, ReadOptions options, List<DataField> fileFields)
            throws IOException
    {
        long rows = 0;
        try (AvroReader reader = AvroReader.open(DataFileInput.of(NAME, file), options, fileFields, allocator)) {
            while (reader.nextBatch()) {
                rows += reader.root().getRowCount();
            }
        }
        return rows;
    }
}
