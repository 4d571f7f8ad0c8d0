package io.tarn.vector.reader;

import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flat columns of every fixed width and strings of every dictionary kernel, written by Paimon's
 * Parquet writer with null patterns that put all-valid, all-null and mixed stretches across
 * window (4096 levels), page and batch boundaries, read whole and under sparse, dense and
 * edge-case row selections; expected rows come from the rows Paimon wrote.
 */
public class TestReaderFastPaths
{
    private static final int ROWS = 14_000;
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataType[] {
                    DataTypes.BIGINT().notNull(), DataTypes.INT(), DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(),
                    DataTypes.DECIMAL(9, 2), DataTypes.DECIMAL(18, 2), DataTypes.DECIMAL(30, 2), DataTypes.DATE(),
                    DataTypes.STRING(), DataTypes.STRING(), DataTypes.STRING(), DataTypes.STRING(), DataTypes.STRING(), DataTypes.BOOLEAN()},
            new String[] {"id", "small_int", "random_long", "f", "d", "dec9", "dec18", "dec30", "day", "s8", "s16", "s32", "s64", "text", "flag"});
    private static final String[] S8 = {"", "A", "AIR", "REG AIR", "TRUCK12!"};
    private static final String[] S16 = {"COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] S32 = {"DELIVER IN PERSON", "abcdefghijklmnopqrstuvwxyz012345", "short"};
    private static final String[] S64 = {"a".repeat(33), "b".repeat(60), "c"};

    private final RootAllocator allocator = new RootAllocator();
    private final List<GenericRow> rows = rows();
    private final List<String> expected = TestParquetReader.expected(rows, ROW_TYPE);
    private final List<DataField> fields = ParquetTestFiles.tarnFields(ROW_TYPE);

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] layouts()
    {
        return new Object[][] {
                // dictionary pages, falling back to plain pages in the same column chunk for the high-cardinality columns
                {"true", "v1", "20000", "zstd"},
                {"true", "v2", "1000", "zstd"},
                {"false", "v1", "1500", "uncompressed"},
                {"false", "v2", "20000", "zstd"},
                // all-NULL v2 pages have an empty value section, stored without a codec frame
                {"true", "v2", "1000", "snappy"},
                {"false", "v2", "20000", "gzip"},
        };
    }

    @Test(dataProvider = "layouts")
    public void testWholeFile(String dictionary, String writerVersion, String pageRows, String compression)
            throws IOException
    {
        byte[] file = write(dictionary, writerVersion, pageRows, compression);
        for (int batchSize : new int[] {1000, 4099, 20_000}) {
            assertThat(read(file, ReadOptions.of(fields).withBatchSize(batchSize)))
                    .as("batch size %s", batchSize)
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test(dataProvider = "layouts")
    public void testSelections(String dictionary, String writerVersion, String pageRows, String compression)
            throws IOException
    {
        byte[] file = write(dictionary, writerVersion, pageRows, compression);
        SplittableRandom random = new SplittableRandom(dictionary.hashCode() + pageRows.hashCode());
        RoaringBitmap twoPercent = new RoaringBitmap();
        for (int i = 0; i < ROWS; i++) {
            if (random.nextInt(50) == 0) {
                twoPercent.add(i);
            }
        }
        // runs starting and ending inside null stretches, valid stretches and at their edges
        RoaringBitmap runs = new RoaringBitmap();
        runs.add(4090L, 4100L);
        runs.add(4999L, 5001L);
        runs.add(7990L, 8003L);
        runs.add(8500L, 8501L);
        runs.add(11_000L, 12_500L);
        runs.add(13_999L, 14_000L);
        RoaringBitmap single = RoaringBitmap.bitmapOf(6000);
        RoaringBitmap everyOther = new RoaringBitmap();
        for (int i = 1; i < ROWS; i += 2) {
            everyOther.add(i);
        }
        for (RoaringBitmap selection : List.of(twoPercent, runs, single, everyOther, new RoaringBitmap(), RoaringBitmap.bitmapOf(0, ROWS - 1))) {
            List<String> wanted = new ArrayList<>();
            selection.forEach((int position) -> wanted.add(expected.get(position)));
            for (int batchSize : new int[] {7, 1024}) {
                assertThat(read(file, ReadOptions.of(fields).withBatchSize(batchSize).withRowSelection(selection)))
                        .as("selection of %s rows, batch size %s", selection.getCardinality(), batchSize)
                        .containsExactlyElementsOf(wanted);
            }
        }
    }

    @DataProvider
    public Object[][] denseLayouts()
    {
        // dictionary and plain pages, v1 and v2 levels, pages shorter and longer than a batch
        return new Object[][] {
                {"true", "v1", "20000", "zstd"},
                {"true", "v2", "1000", "zstd"},
                {"false", "v1", "1500", "uncompressed"},
                {"false", "v2", "20000", "zstd"},
        };
    }

    @Test(dataProvider = "denseLayouts")
    public void testDenseSelections(String dictionary, String writerVersion, String pageRows, String compression)
            throws IOException
    {
        // all rows but a few: the windows the reader reads in one pass per column, copying only the selected values
        byte[] file = write(dictionary, writerVersion, pageRows, compression);
        SplittableRandom random = new SplittableRandom(pageRows.hashCode() * 31L + writerVersion.hashCode());
        List<RoaringBitmap> selections = new ArrayList<>();
        for (int removedPercent : new int[] {1, 11, 50}) {
            RoaringBitmap selection = RoaringBitmap.bitmapOfRange(0, ROWS);
            for (int i = 0; i < ROWS; i++) {
                if (random.nextInt(100) < removedPercent) {
                    selection.remove(i);
                }
            }
            selections.add(selection);
        }
        // the first and the last row; runs across batch (1000, 4099), mask word (64), window (4096) and page (1000, 1500) boundaries
        RoaringBitmap edges = RoaringBitmap.bitmapOfRange(0, ROWS);
        edges.remove(0);
        edges.remove(ROWS - 1);
        for (long start : new long[] {995, 1495, 2990, 4090, 4197, 5990, 8195, 12_003}) {
            edges.remove(start, start + 13);
        }
        selections.add(edges);
        // a whole page of 1000 rows inside a dense window of 4099: skipped undecoded
        RoaringBitmap page = RoaringBitmap.bitmapOfRange(0, ROWS);
        page.remove(2000L, 3000L);
        page.remove(3001);
        selections.add(page);
        for (RoaringBitmap selection : selections) {
            List<String> wanted = new ArrayList<>();
            selection.forEach((int position) -> wanted.add(expected.get(position)));
            for (int batchSize : new int[] {1000, 4099}) {
                ReadOptions options = ReadOptions.of(fields).withBatchSize(batchSize).withRowSelection(selection);
                List<String> actual = new ArrayList<>();
                int[] positions = new int[batchSize];
                List<Integer> actualPositions = new ArrayList<>();
                try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                    while (reader.nextBatch()) {
                        actual.addAll(ArrowRowFormatter.rows(reader.root(), options.columns()));
                        reader.batchPositions(positions);
                        for (int i = 0; i < reader.root().getRowCount(); i++) {
                            actualPositions.add(positions[i]);
                        }
                    }
                    assertThat(reader.metrics().rowsSkippedBySelection()).isEqualTo(ROWS - wanted.size());
                    if (selection == page && batchSize == 4099 && pageRows.equals("1000")) {
                        assertThat(reader.metrics().pagesSkipped()).as("pages skipped").isGreaterThan(0);
                    }
                }
                assertThat(actual)
                        .as("selection of %s rows, batch size %s", selection.getCardinality(), batchSize)
                        .containsExactlyElementsOf(wanted);
                assertThat(actualPositions).containsExactlyElementsOf(Arrays.stream(selection.toArray()).boxed().toList());
            }
        }
    }

    @Test
    public void testSelectionsAcrossContainers()
            throws IOException
    {
        // more rows than one selection container (65,536): dense windows cut from bitmap, run and
        // array containers, from a missing (empty) container, and across container boundaries
        int rowCount = 150_000;
        RowType rowType = RowType.of(
                new org.apache.paimon.types.DataType[] {DataTypes.BIGINT().notNull(), DataTypes.INT(), DataTypes.STRING()},
                new String[] {"id", "n", "s"});
        SplittableRandom random = new SplittableRandom(65_536);
        List<GenericRow> manyRows = new ArrayList<>();
        for (int row = 0; row < rowCount; row++) {
            manyRows.add(GenericRow.of((long) row, random.nextInt(20) == 0 ? null : random.nextInt(), BinaryString.fromString(S32[random.nextInt(S32.length)])));
        }
        byte[] file = ParquetTestFiles.write(rowType, manyRows, Map.of("parquet.page.row.count.limit", "5000"), "zstd");
        List<String> all = TestParquetReader.expected(manyRows, rowType);
        List<DataField> manyFields = ParquetTestFiles.tarnFields(rowType);
        // a bitmap container (11% removed), an empty container, then a run container (one row removed)
        RoaringBitmap containers = new RoaringBitmap();
        for (int row = 0; row < 65_536; row++) {
            if (random.nextInt(100) >= 11) {
                containers.add(row);
            }
        }
        containers.add(131_072L, rowCount);
        containers.remove(140_000);
        containers.runOptimize();
        // an array container: a few rows scattered over the second container
        RoaringBitmap sparseMiddle = RoaringBitmap.bitmapOfRange(0, rowCount);
        sparseMiddle.remove(65_536L, 131_072L);
        for (int i = 0; i < 300; i++) {
            sparseMiddle.add(65_536 + random.nextInt(65_536));
        }
        for (RoaringBitmap selection : List.of(containers, sparseMiddle)) {
            List<String> wanted = new ArrayList<>();
            selection.forEach((int position) -> wanted.add(all.get(position)));
            for (int batchSize : new int[] {4096, 4099}) {
                ReadOptions options = ReadOptions.of(manyFields).withBatchSize(batchSize).withRowSelection(selection);
                assertThat(read(file, options)).as("batch size %s", batchSize).containsExactlyElementsOf(wanted);
            }
        }
    }

    private List<String> read(byte[] file, ReadOptions options)
            throws IOException
    {
        List<String> result = new ArrayList<>();
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
            while (reader.nextBatch()) {
                result.addAll(ArrowRowFormatter.rows(reader.root(), options.columns()));
            }
        }
        return result;
    }

    private byte[] write(String dictionary, String writerVersion, String pageRows, String compression)
    {
        return ParquetTestFiles.write(ROW_TYPE, rows, Map.of(
                "parquet.enable.dictionary", dictionary,
                "parquet.writer.version", writerVersion,
                "parquet.page.row.count.limit", pageRows,
                "parquet.dictionary.page.size", "4096",
                "parquet.block.size", "400000"), compression);
    }

    /**
     * Null patterns by row: no nulls across the first window boundary, then all null for
     * several windows, alternating, about 2% at random, no nulls but the very last row.
     */
    private static boolean isNull(int row, SplittableRandom random)
    {
        if (row < 5000) {
            return false;
        }
        if (row < 8000) {
            return true;
        }
        if (row < 9000) {
            return row % 2 == 1;
        }
        if (row < 12_000) {
            return random.nextInt(50) == 0;
        }
        return row == ROWS - 1;
    }

    private static List<GenericRow> rows()
    {
        SplittableRandom random = new SplittableRandom(20261129);
        List<GenericRow> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            Object[] values = new Object[ROW_TYPE.getFieldCount()];
            values[0] = (long) row;
            values[1] = random.nextInt(100) - 50;
            values[2] = random.nextLong();
            values[3] = (float) random.nextInt(20) / 4;
            values[4] = random.nextDouble();
            values[5] = Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextInt(2000) - 1000, 2), 9, 2);
            values[6] = Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000_000L, 2), 18, 2);
            values[7] = Decimal.fromBigDecimal(new BigDecimal(new BigInteger(95, new java.util.Random(random.nextLong())).subtract(BigInteger.ONE.shiftLeft(94)), 2), 30, 2);
            values[8] = 18_000 + random.nextInt(30);
            values[9] = BinaryString.fromString(S8[random.nextInt(S8.length)]);
            values[10] = BinaryString.fromString(S16[random.nextInt(S16.length)]);
            values[11] = BinaryString.fromString(S32[random.nextInt(S32.length)]);
            values[12] = BinaryString.fromString(S64[random.nextInt(S64.length)]);
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(60);
            for (int k = 0; k < length; k++) {
                text.append((char) ('a' + random.nextInt(26)));
            }
            values[13] = BinaryString.fromString(text.toString());
            values[14] = random.nextBoolean();
            for (int column = 1; column < values.length; column++) {
                if (isNull(row, random)) {
                    values[column] = null;
                }
            }
            rows.add(GenericRow.of(values));
        }
        return rows;
    }
}
