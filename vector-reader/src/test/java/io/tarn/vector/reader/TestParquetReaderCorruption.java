package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.GenericRow;
import org.apache.parquet.format.ColumnMetaData;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.DateTimeException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

public class TestParquetReaderCorruption
{
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);

    private final RootAllocator allocator = new RootAllocator();
    private final byte[] file = ParquetTestFiles.write(
            TestDataGenerator.ALL_TYPES,
            new TestDataGenerator(5).rows(TestDataGenerator.ALL_TYPES, 60),
            Map.of("parquet.page.row.count.limit", "20"),
            "zstd");

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testValidFileReads()
            throws IOException
    {
        assertThat(readAll(file)).isEqualTo(60);
    }

    @Test
    public void testTruncated()
    {
        for (int length : new int[] {0, 3, 11, 12, 100, file.length / 2, file.length - 9, file.length - 1}) {
            byte[] truncated = Arrays.copyOf(file, length);
            assertThatThrownBy(() -> readAll(truncated))
                    .isInstanceOf(ParquetCorruptionException.class)
                    .hasMessageContaining("test.parquet");
        }
    }

    @Test
    public void testBadMagic()
    {
        byte[] tail = file.clone();
        tail[tail.length - 1] = 'X';
        assertThatThrownBy(() -> readAll(tail))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining("test.parquet")
                .hasMessageContaining("magic");
        byte[] head = file.clone();
        head[0] = 'X';
        assertThatThrownBy(() -> readAll(head))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining("magic");
    }

    @Test
    public void testFooterLengthPastEnd()
    {
        for (int footerLength : new int[] {file.length, file.length - 11, Integer.MAX_VALUE, -1}) {
            byte[] corrupt = file.clone();
            ByteBuffer.wrap(corrupt).order(ByteOrder.LITTLE_ENDIAN).putInt(corrupt.length - 8, footerLength);
            assertThatThrownBy(() -> readAll(corrupt))
                    .isInstanceOf(ParquetCorruptionException.class)
                    .hasMessageContaining("test.parquet")
                    .hasMessageContaining("footer");
        }
    }

    @Test
    public void testCorruptFooter()
    {
        byte[] corrupt = file.clone();
        int footerLength = ByteBuffer.wrap(corrupt).order(ByteOrder.LITTLE_ENDIAN).getInt(corrupt.length - 8);
        Arrays.fill(corrupt, corrupt.length - 8 - footerLength, corrupt.length - 8 - footerLength + 40, (byte) 0xFF);
        assertThatThrownBy(() -> readAll(corrupt))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining("test.parquet");
    }

    @Test
    public void testCorruptPageHeader()
            throws IOException
    {
        ColumnMetaData column = firstColumn();
        byte[] corrupt = file.clone();
        Arrays.fill(corrupt, (int) column.getData_page_offset(), (int) column.getData_page_offset() + 6, (byte) 0xFF);
        assertThatThrownBy(() -> readAll(corrupt))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining("test.parquet")
                .hasMessageContaining("id")
                .hasMessageContaining("page header");
    }

    @Test
    public void testCorruptCompressedData()
            throws IOException
    {
        ColumnMetaData column = firstColumn();
        byte[] corrupt = file.clone();
        // the page body follows a header of a few dozen bytes; overwrite the zstd frame
        int start = (int) column.getData_page_offset();
        int end = (int) (column.getData_page_offset() + column.getTotal_compressed_size());
        for (int i = start + 30; i < end; i++) {
            corrupt[i] = (byte) 0xA5;
        }
        assertThatThrownBy(() -> readAll(corrupt))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining("test.parquet")
                .hasMessageContaining("id");
    }

    @Test
    public void testFlippedBitFailsTheChecksum()
            throws IOException
    {
        ColumnMetaData column = firstColumn();
        for (int bit = 0; bit < 8; bit++) {
            byte[] corrupt = file.clone();
            // the last byte of the first column's chunk belongs to the body of its last page
            int position = (int) (column.getData_page_offset() + column.getTotal_compressed_size() - 1);
            corrupt[position] ^= (byte) (1 << bit);
            assertThatThrownBy(() -> readAll(corrupt))
                    .isInstanceOf(ParquetCorruptionException.class)
                    .hasMessageContaining("test.parquet")
                    .hasMessageContaining("id")
                    .hasMessageContaining("checksum");
        }
    }

    @Test
    public void testFuzz()
    {
        long seed = System.nanoTime();
        System.out.println("TestParquetReaderCorruption.testFuzz seed " + seed);
        Random random = new Random(seed);
        String compression = List.of("zstd", "uncompressed", "snappy", "gzip", "lz4_raw", "lz4").get(random.nextInt(6));
        String dictionary = random.nextBoolean() ? "true" : "false";
        String writerVersion = random.nextBoolean() ? "v1" : "v2";
        System.out.println("TestParquetReaderCorruption.testFuzz file: " + compression + ", dictionary " + dictionary + ", " + writerVersion);
        byte[] small = ParquetTestFiles.write(
                TestDataGenerator.ALL_TYPES,
                new TestDataGenerator(seed).rows(TestDataGenerator.ALL_TYPES, 12),
                Map.of("parquet.page.row.count.limit", "5", "parquet.enable.dictionary", dictionary, "parquet.writer.version", writerVersion),
                compression);
        FieldRef id = FieldRef.of(FIELDS.get(0));
        long deadline = System.nanoTime() + 60_000_000_000L;
        int iterations = 0;
        int failures = 0;
        for (; iterations < 10_000 && System.nanoTime() < deadline; iterations++) {
            byte[] mutated = mutate(small, random);
            ReadOptions options = ReadOptions.of(FIELDS).withBatchSize(1 + random.nextInt(8));
            switch (random.nextInt(3)) {
                case 0 -> {
                    RoaringBitmap selection = new RoaringBitmap();
                    for (int row = 0; row < 12; row++) {
                        if (random.nextBoolean()) {
                            selection.add(row);
                        }
                    }
                    options = options.withRowSelection(selection);
                }
                case 1 -> options = options.withFilter(Predicates.or(
                        Predicates.greaterOrEqual(id, (long) random.nextInt(12)),
                        Predicates.equal(FieldRef.of(FIELDS.get(11)), "v" + random.nextInt(5))));
                default -> {
                }
            }
            try {
                readAll(mutated, options);
            }
            catch (ParquetCorruptionException | ParquetUnsupportedException e) {
                failures++;
            }
            catch (Throwable e) {
                throw new AssertionError("Seed " + seed + ", iteration " + iterations + ": unexpected " + e, e);
            }
            if (allocator.getAllocatedMemory() != 0) {
                fail("Seed " + seed + ", iteration " + iterations + ": memory leaked");
            }
        }
        System.out.println("TestParquetReaderCorruption.testFuzz " + iterations + " iterations, " + failures + " rejected");
        assertThat(failures).isGreaterThan(0);
    }

    private static byte[] mutate(byte[] original, Random random)
    {
        byte[] bytes = original.clone();
        int kind = random.nextInt(10);
        if (kind == 0) {
            return Arrays.copyOf(bytes, random.nextInt(bytes.length));
        }
        int footerLength = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(bytes.length - 8);
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            int position;
            if (kind < 5) {
                // the footer, where one byte changes offsets, counts and types
                position = bytes.length - 8 - 1 - random.nextInt(footerLength);
            }
            else {
                position = random.nextInt(bytes.length);
            }
            switch (random.nextInt(3)) {
                case 0 -> bytes[position] = (byte) random.nextInt(256);
                case 1 -> bytes[position] ^= (byte) (1 << random.nextInt(8));
                default -> bytes[position] = (byte) (random.nextBoolean() ? 0 : 0xFF);
            }
        }
        return bytes;
    }

    private ColumnMetaData firstColumn()
            throws IOException
    {
        return ParquetFooter.read(DataFileInput.of("test.parquet", file)).metadata().getRow_groups().get(0).getColumns().get(0).getMeta_data();
    }

    private int readAll(byte[] bytes)
            throws IOException
    {
        return readAll(bytes, ReadOptions.of(FIELDS).withBatchSize(7));
    }

    private int readAll(byte[] bytes, ReadOptions options)
            throws IOException
    {
        int rows = 0;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", bytes), options, allocator)) {
            while (reader.nextBatch()) {
                rows += reader.root().getRowCount();
                // corrupt bytes may decode to any value, but never to vectors whose offsets break reading
                try {
                    ArrowRowFormatter.rows(reader.root(), options.columns());
                }
                catch (DateTimeException e) {
                    // a TIME or DATE value out of the range java.time formats
                }
            }
        }
        return rows;
    }
}
