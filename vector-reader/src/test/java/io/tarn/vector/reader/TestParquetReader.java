package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.types.DataField;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.metadata.ParquetFooter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestParquetReader
{
    private final RootAllocator allocator = new RootAllocator();

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
                {"uncompressed", "true", "v1"},
                {"zstd", "true", "v1"},
                {"zstd", "false", "v1"},
                {"snappy", "true", "v2"},
                {"snappy", "false", "v2"},
                {"gzip", "true", "v1"},
                {"lz4_raw", "false", "v1"},
                {"zstd", "false", "v2"},
                {"uncompressed", "true", "v2"},
                {"lz4", "true", "v2"},
        };
    }

    @Test(dataProvider = "layouts")
    public void testAllTypes(String compression, String dictionary, String writerVersion)
            throws IOException
    {
        long seed = compression.hashCode() * 31L + dictionary.hashCode() * 7L + writerVersion.hashCode();
        List<GenericRow> rows = new TestDataGenerator(seed).rows(TestDataGenerator.ALL_TYPES, 700);
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(
                "parquet.enable.dictionary", dictionary,
                "parquet.writer.version", writerVersion,
                "parquet.page.size", "2048",
                "parquet.page.row.count.limit", "120",
                "parquet.block.size", "20000"), compression);
        List<DataField> fields = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
        List<String> actual = readAll(file, ReadOptions.of(fields).withBatchSize(97));
        assertThat(actual).containsExactlyElementsOf(expected(rows, TestDataGenerator.ALL_TYPES));
    }

    @Test
    public void testRowSelection()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(42).rows(TestDataGenerator.ALL_TYPES, 1500);
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(
                "parquet.enable.dictionary", "false",
                "parquet.page.row.count.limit", "100",
                "parquet.block.size", "40000"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
        List<String> expected = expected(rows, TestDataGenerator.ALL_TYPES);

        RoaringBitmap sparse = new RoaringBitmap();
        for (int i = 3; i < rows.size(); i += 37) {
            sparse.add(i);
        }
        RoaringBitmap dense = RoaringBitmap.bitmapOfRange(0, rows.size());
        dense.remove(0);
        dense.remove(101);
        dense.remove(777);
        dense.remove(1499);
        RoaringBitmap pages = RoaringBitmap.bitmapOfRange(550, 720);
        pages.add(1400L, 1410L);
        pages.add(5);
        RoaringBitmap beyond = RoaringBitmap.bitmapOf(1499, 1500, 100_000);

        for (RoaringBitmap selection : List.of(sparse, dense, pages, beyond, new RoaringBitmap())) {
            ReadOptions options = ReadOptions.of(fields).withBatchSize(64).withRowSelection(selection);
            List<String> wanted = new ArrayList<>();
            selection.forEach((int position) -> {
                if (position < rows.size()) {
                    wanted.add(expected.get(position));
                }
            });
            ReaderMetrics metrics;
            List<String> actual = new ArrayList<>();
            try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                while (reader.nextBatch()) {
                    actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
                }
                metrics = reader.metrics();
            }
            assertThat(actual).containsExactlyElementsOf(wanted);
            assertThat(metrics.rowsRead()).isEqualTo(wanted.size());
            assertThat(metrics.rowsSkippedBySelection()).isEqualTo(rows.size() - wanted.size());
            if (selection == pages) {
                assertThat(metrics.pagesSkipped()).isGreaterThan(0);
            }
        }
    }

    @Test
    public void testDenseRowSelectionOfFlatColumns()
            throws IOException
    {
        // no repeated columns (structs of flat columns included): dense windows are read in one
        // pass per column that copies only the selected rows' values
        org.apache.paimon.types.RowType flat = new org.apache.paimon.types.RowType(TestDataGenerator.ALL_TYPES.getFields().stream()
                .filter(field -> !(field.type() instanceof org.apache.paimon.types.ArrayType)
                        && !(field.type() instanceof org.apache.paimon.types.MapType)
                        && !(field.type() instanceof org.apache.paimon.types.MultisetType)
                        && !(field.type() instanceof org.apache.paimon.types.RowType row && containsRepeated(row)))
                .toList());
        assertThat(flat.getFields()).anyMatch(field -> field.type() instanceof org.apache.paimon.types.RowType);
        List<GenericRow> rows = new TestDataGenerator(7).rows(flat, 3000);
        List<DataField> fields = ParquetTestFiles.tarnFields(flat);
        List<String> expected = expected(rows, flat);
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        RoaringBitmap tenPercentDeleted = new RoaringBitmap();
        RoaringBitmap mixed = new RoaringBitmap();
        for (int i = 0; i < rows.size(); i++) {
            if (random.nextInt(10) != 0) {
                tenPercentDeleted.add(i);
            }
            // dense in the first half, sparse in the second: both paths in one file
            if (i < rows.size() / 2 ? random.nextInt(20) != 0 : random.nextInt(20) == 0) {
                mixed.add(i);
            }
        }
        for (String dictionary : List.of("true", "false")) {
            byte[] file = ParquetTestFiles.write(flat, rows, Map.of(
                    "parquet.enable.dictionary", dictionary,
                    "parquet.page.row.count.limit", "250"), "zstd");
            for (RoaringBitmap selection : List.of(tenPercentDeleted, mixed)) {
                for (int batchSize : List.of(64, 1000)) {
                    List<String> wanted = new ArrayList<>();
                    selection.forEach((int position) -> wanted.add(expected.get(position)));
                    ReadOptions options = ReadOptions.of(fields).withBatchSize(batchSize).withRowSelection(selection);
                    List<String> actual = new ArrayList<>();
                    try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                        while (reader.nextBatch()) {
                            assertThat(reader.root().getRowCount()).isLessThanOrEqualTo(batchSize);
                            actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
                        }
                        assertThat(reader.metrics().rowsRead()).isEqualTo(wanted.size());
                        assertThat(reader.metrics().rowsSkippedBySelection()).isEqualTo(rows.size() - wanted.size());
                    }
                    assertThat(actual).as("dictionary %s, batch %s", dictionary, batchSize).containsExactlyElementsOf(wanted);
                }
            }
        }
    }

    @Test
    public void testWithoutPageIndexes()
            throws IOException
    {
        // files of writers without column and offset indexes: row boundaries come from the levels
        for (String writerVersion : List.of("v1", "v2")) {
            List<GenericRow> rows = new TestDataGenerator(23).rows(TestDataGenerator.ALL_TYPES, 900);
            byte[] file = stripPageIndexes(ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(
                    "parquet.enable.dictionary", "false",
                    "parquet.writer.version", writerVersion,
                    "parquet.page.size", "1024",
                    "parquet.page.row.count.limit", "70"), "snappy"));
            List<DataField> fields = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
            List<String> expected = expected(rows, TestDataGenerator.ALL_TYPES);
            assertThat(readAll(file, ReadOptions.of(fields).withBatchSize(61))).containsExactlyElementsOf(expected);

            RoaringBitmap selection = RoaringBitmap.bitmapOfRange(300, 420);
            selection.add(7);
            selection.add(899);
            List<String> wanted = new ArrayList<>();
            selection.forEach((int position) -> wanted.add(expected.get(position)));
            try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(fields).withBatchSize(50).withRowSelection(selection), allocator)) {
                List<String> actual = new ArrayList<>();
                while (reader.nextBatch()) {
                    actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
                }
                assertThat(actual).containsExactlyElementsOf(wanted);
                // flat columns still skip whole pages by their value counts (v1) or row counts (v2)
                assertThat(reader.metrics().pagesSkipped()).isGreaterThan(0);
            }
        }
    }

    private static byte[] stripPageIndexes(byte[] file)
            throws IOException
    {
        ParquetFooter footer = ParquetFooter.read(DataFileInput.of("original.parquet", file));
        org.apache.parquet.format.FileMetaData metadata = footer.metadata().deepCopy();
        for (org.apache.parquet.format.RowGroup rowGroup : metadata.getRow_groups()) {
            for (org.apache.parquet.format.ColumnChunk chunk : rowGroup.getColumns()) {
                assertThat(chunk.isSetOffset_index_offset()).isTrue();
                chunk.unsetOffset_index_offset();
                chunk.unsetOffset_index_length();
                chunk.unsetColumn_index_offset();
                chunk.unsetColumn_index_length();
            }
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(file, 0, (int) footer.footerStart());
        java.io.ByteArrayOutputStream serialized = new java.io.ByteArrayOutputStream();
        org.apache.parquet.format.Util.writeFileMetaData(metadata, serialized);
        out.write(serialized.toByteArray());
        int length = serialized.size();
        out.write(new byte[] {(byte) length, (byte) (length >>> 8), (byte) (length >>> 16), (byte) (length >>> 24)});
        out.write(ParquetFooter.MAGIC);
        return out.toByteArray();
    }

    @Test
    public void testBatchPositionsNameTheFileRowsOfEachBatch()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING())));
        List<GenericRow> rows = new TestDataGenerator(5).rows(rowType, 3000);
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of(
                "parquet.page.row.count.limit", "100",
                "parquet.block.size", "8000"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<String> expected = expected(rows, rowType);
        FieldRef id = FieldRef.of(fields.get(0));
        RoaringBitmap sparse = new RoaringBitmap();
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int i = 0; i < rows.size(); i++) {
            if (random.nextInt(i < 1500 ? 2 : 30) == 0) {
                sparse.add(i);
            }
        }
        RoaringBitmap dense = RoaringBitmap.bitmapOfRange(0, rows.size());
        dense.remove(7);
        dense.remove(2000, 2100);
        List<ReadOptions> cases = new ArrayList<>();
        for (int batchSize : List.of(64, 500)) {
            ReadOptions plain = ReadOptions.of(fields).withBatchSize(batchSize);
            cases.add(plain);
            cases.add(plain.withRowSelection(sparse));
            cases.add(plain.withRowSelection(dense));
            // the page index leaves out pages, the selection single rows
            cases.add(plain.withFilter(Predicates.greaterOrEqual(id, 2450L)));
            cases.add(plain.withFilter(Predicates.greaterOrEqual(id, 1450L)).withRowSelection(sparse));
        }
        for (ReadOptions options : cases) {
            int[] positions = new int[options.batchSize()];
            int batches = 0;
            try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                int previous = -1;
                while (reader.nextBatch()) {
                    reader.batchPositions(positions);
                    List<String> batch = ArrowRowFormatter.rows(reader.root(), fields);
                    for (int row = 0; row < batch.size(); row++) {
                        assertThat(positions[row]).as("%s, batch %s row %s", options, batches, row).isGreaterThan(previous);
                        assertThat(batch.get(row)).as("%s, batch %s row %s", options, batches, row).isEqualTo(expected.get(positions[row]));
                        int position = positions[row];
                        options.rowSelection().ifPresent(selection -> assertThat(selection.contains(position)).isTrue());
                        previous = positions[row];
                    }
                    batches++;
                }
            }
            assertThat(batches).isPositive();
        }
    }

    @Test
    public void testReopenReadsOtherColumnsWithoutTheFooter()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING())));
        List<GenericRow> rows = new TestDataGenerator(11).rows(rowType, 2000);
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.page.row.count.limit", "100"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<String> expected = expected(rows, rowType);
        RoaringBitmap selection = RoaringBitmap.bitmapOf(3, 250, 251, 1999);
        ReadOptions second = ReadOptions.of(fields).withRowSelection(selection);

        List<String> reopenedRows = new ArrayList<>();
        long reopenedBytes;
        try (ParquetReader first = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(fields.subList(0, 1)), allocator)) {
            assertThat(first.nextBatch()).isTrue();
            try (ParquetReader reopened = first.reopen(second, allocator)) {
                // independent of the first reader, which is closed before the second is read
                first.close();
                while (reopened.nextBatch()) {
                    reopenedRows.addAll(ArrowRowFormatter.rows(reopened.root(), fields));
                }
                reopenedBytes = reopened.metrics().bytesRead();
            }
        }
        long freshBytes;
        try (ParquetReader fresh = ParquetReader.open(DataFileInput.of("test.parquet", file), second, allocator)) {
            while (fresh.nextBatch()) {
                // read to the end, as the reopened reader was
            }
            freshBytes = fresh.metrics().bytesRead();
        }
        assertThat(reopenedRows).containsExactly(expected.get(3), expected.get(250), expected.get(251), expected.get(1999));
        int footerLength = java.nio.ByteBuffer.wrap(file, file.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        // what opening reads of the footer and of the file's head and tail is not read again
        assertThat(freshBytes - reopenedBytes).isEqualTo(footerLength + 20);
    }

    /**
     * A selection of few rows loads only the pages that hold them (and the dictionaries), not
     * whole column chunks, and reads the same rows as a selection of all but a few.
     */
    @Test
    public void testLargeRowGroupIsReadAWindowAtATimeInBatchesBoundedInBytes()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING())));
        int rowCount = 6000;
        int length = 4096;
        List<GenericRow> rows = new ArrayList<>();
        for (int row = 0; row < rowCount; row++) {
            rows.add(GenericRow.of((long) row, BinaryString.fromString(Integer.toString(row).repeat(length)).substring(0, length)));
        }
        // one row group (Paimon's writer closes them at 128 MB) of 24 MB of strings, stored as they are
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.enable.dictionary", "false"), "uncompressed");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        long stringBytes = (long) rowCount * length;
        long maxRows = ReadOptions.DEFAULT_MAX_BATCH_BYTES / length;
        long peakHeap = 0;
        int read = 0;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(fields), allocator)) {
            while (reader.nextBatch()) {
                int batchRows = reader.root().getRowCount();
                assertThat(batchRows).isBetween(1, (int) maxRows);
                for (int row = 0; row < batchRows; row += 97) {
                    assertThat(((BigIntVector) reader.root().getVector(0)).get(row)).isEqualTo(read + row);
                    assertThat(new String(((VarCharVector) reader.root().getVector(1)).get(row), StandardCharsets.UTF_8))
                            .isEqualTo(rows.get(read + row).getString(1).toString());
                }
                read += batchRows;
                peakHeap = Math.max(peakHeap, reader.retainedHeapBytes());
            }
            assertThat(reader.metrics().rowGroups()).isEqualTo(1);
        }
        assertThat(read).isEqualTo(rowCount);
        // the decoded batch and a window of the chunk, never the row group's 24 MB of strings
        assertThat(peakHeap).isLessThan(stringBytes / 2);
    }

    @Test
    public void testSparseSelectionLoadsOnlyItsPages()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING())));
        List<GenericRow> rows = new TestDataGenerator(17).rows(rowType, 4000);
        // without dictionaries, which would be loaded whole and outweigh the pages here
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.page.row.count.limit", "100", "parquet.enable.dictionary", "false"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<String> expected = expected(rows, rowType);
        RoaringBitmap few = RoaringBitmap.bitmapOf(5, 6, 1999, 3999);
        List<String> actual = new ArrayList<>();
        long bytesRead;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(fields).withRowSelection(few), allocator)) {
            while (reader.nextBatch()) {
                actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
            }
            bytesRead = reader.metrics().bytesRead();
        }
        assertThat(actual).containsExactly(expected.get(5), expected.get(6), expected.get(1999), expected.get(3999));
        // three pages of forty per column, the footer and the offset indexes
        assertThat(bytesRead).isLessThan(file.length / 4);

        RoaringBitmap most = RoaringBitmap.bitmapOfRange(0, 4000);
        most.remove(7);
        assertThat(readAll(file, ReadOptions.of(fields).withRowSelection(most))).hasSize(3999);
    }

    /**
     * A filter pass collects the kept rows' values of its fixed-width columns (with nulls, across
     * batches and row groups); the reopened reader of those rows takes them from there, equal to
     * a plain read of the rows, without reading their pages.
     */
    @Test
    public void testReopenWithCarriedColumns()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "n", org.apache.paimon.types.DataTypes.INT()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING()),
                new org.apache.paimon.types.DataField(2, "d", org.apache.paimon.types.DataTypes.DECIMAL(10, 2))));
        List<GenericRow> rows = new TestDataGenerator(13).rows(rowType, 3000);
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.page.row.count.limit", "100", "parquet.block.size", "8000"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<DataField> filterFields = List.of(fields.get(0), fields.get(2));
        RoaringBitmap kept = new RoaringBitmap();
        try (CarriedColumn n = new CarriedColumn(org.apache.arrow.vector.types.pojo.Field.nullable("n", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)), allocator);
                ParquetReader filterPass = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(filterFields).withBatchSize(700), allocator)) {
            CarriedColumn d = null;
            try {
                int[] positions = new int[700];
                while (filterPass.nextBatch()) {
                    filterPass.batchPositions(positions);
                    // every third row, and every row of one stretch across a batch boundary
                    int[] selected = java.util.stream.IntStream.range(0, filterPass.root().getRowCount())
                            .filter(row -> positions[row] % 3 == 0 || (positions[row] >= 690 && positions[row] < 720))
                            .toArray();
                    if (d == null) {
                        d = new CarriedColumn(filterPass.root().getVector(1).getField(), allocator);
                    }
                    n.append(filterPass.root().getVector(0), selected, selected.length);
                    d.append(filterPass.root().getVector(1), selected, selected.length);
                    for (int row : selected) {
                        kept.add(positions[row]);
                    }
                }
                assertThat(filterPass.metrics().rowGroups()).isGreaterThan(1);
                assertThat(n.rowCount()).isEqualTo(kept.getCardinality());
                ReadOptions rowsOptions = ReadOptions.of(fields).withBatchSize(256).withRowSelection(kept);
                Map<Integer, CarriedColumn> carried = Map.of(0, n, 2, d);
                assertThatThrownBy(() -> filterPass.reopen(rowsOptions.withFilter(Predicates.isNotNull(FieldRef.of(fields.get(0)))), allocator, carried))
                        .isInstanceOf(IllegalArgumentException.class);
                List<String> actual = new ArrayList<>();
                long carriedBytes;
                try (ParquetReader reopened = filterPass.reopen(rowsOptions, allocator, carried)) {
                    while (reopened.nextBatch()) {
                        actual.addAll(ArrowRowFormatter.rows(reopened.root(), fields));
                    }
                    carriedBytes = reopened.metrics().bytesRead();
                }
                List<String> plain = new ArrayList<>();
                long plainBytes;
                try (ParquetReader reader = filterPass.reopen(rowsOptions, allocator)) {
                    while (reader.nextBatch()) {
                        plain.addAll(ArrowRowFormatter.rows(reader.root(), fields));
                    }
                    plainBytes = reader.metrics().bytesRead();
                }
                List<String> expected = expected(rows, rowType);
                assertThat(actual).containsExactlyElementsOf(java.util.Arrays.stream(kept.toArray()).mapToObj(expected::get).toList());
                assertThat(actual).containsExactlyElementsOf(plain);
                assertThat(carriedBytes).as("the carried columns' pages are not read").isLessThan(plainBytes);
            }
            finally {
                if (d != null) {
                    d.close();
                }
            }
        }
    }

    @Test
    public void testLatePruningFilterPrunesTheRowGroupsAfterItArrives()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING())));
        List<GenericRow> rows = new TestDataGenerator(7).rows(rowType, 3000);
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.block.size", "8000"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<String> expected = expected(rows, rowType);
        Predicate lastRows = Predicates.greaterOrEqual(FieldRef.of(fields.get(0)), 2950L);

        // the filter is not there when the first row group is read, and arrives before the second
        AtomicInteger asked = new AtomicInteger();
        Supplier<Optional<Predicate>> late = () -> asked.incrementAndGet() == 1 ? Optional.empty() : Optional.of(lastRows);
        ReadOptions options = ReadOptions.of(fields).withBatchSize(500).withLatePruning(late);
        List<String> actual = new ArrayList<>();
        ReaderMetrics metrics;
        long firstRowGroupRows;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
            ParquetFooter footer = ParquetFooter.read(DataFileInput.of("test.parquet", file));
            firstRowGroupRows = footer.metadata().getRow_groups().get(0).getNum_rows();
            while (reader.nextBatch()) {
                actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
            }
            metrics = reader.metrics();
        }
        assertThat(metrics.rowGroups()).isGreaterThan(3);
        // the first row group is read whole; of the others, only the last holds ids from 2950
        assertThat(metrics.rowGroupsSkipped()).isEqualTo(metrics.rowGroups() - 2);
        assertThat(actual).startsWith(expected.subList(0, (int) firstRowGroupRows).toArray(String[]::new));
        assertThat(actual).endsWith(expected.subList(2950, 3000).toArray(String[]::new));
        assertThat(actual).isSubsetOf(expected);
        // a filter that never arrives prunes nothing, and a read without a filter has no late one either
        assertThat(readAll(file, ReadOptions.of(fields).withLatePruning(Optional::empty))).containsExactlyElementsOf(expected);
        assertThat(readAll(file, ReadOptions.of(fields).withLatePruning(() -> Optional.of(lastRows)).withoutFilter())).containsExactlyElementsOf(expected);
    }

    @Test
    public void testFilterSkipsRowGroupsAndPages()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "s", org.apache.paimon.types.DataTypes.STRING()),
                new org.apache.paimon.types.DataField(2, "l", org.apache.paimon.types.DataTypes.ARRAY(org.apache.paimon.types.DataTypes.INT()))));
        List<GenericRow> rows = new TestDataGenerator(7).rows(rowType, 3000);
        byte[] file = ParquetTestFiles.write(rowType, rows, Map.of(
                "parquet.page.row.count.limit", "100",
                "parquet.block.size", "8000"), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<String> expected = expected(rows, rowType);
        FieldRef id = FieldRef.of(fields.get(0));

        ReadOptions options = ReadOptions.of(fields).withBatchSize(500).withFilter(Predicates.greaterOrEqual(id, 2950L));
        List<String> actual = new ArrayList<>();
        ReaderMetrics metrics;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
            while (reader.nextBatch()) {
                actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
            }
            metrics = reader.metrics();
        }
        assertThat(metrics.rowGroups()).isGreaterThan(2);
        assertThat(metrics.rowGroupsSkipped()).isEqualTo(metrics.rowGroups() - 1);
        assertThat(metrics.pagesSkipped()).isGreaterThan(0);
        // the filter never drops single rows, only whole pages: every matching row is there, in order
        assertThat(actual).containsSubsequence(expected.subList(2950, 3000));
        assertThat(actual.size()).isLessThan(1000);
        assertThat(actual).isSubsetOf(expected);

        // nothing matches: every row group is skipped
        options = ReadOptions.of(fields).withFilter(Predicates.lessThan(id, 0L));
        assertThat(readAll(file, options)).isEmpty();
        // a filter on a column that is absent or of another type prunes nothing
        FieldRef wrongType = new FieldRef(0, "id", io.tarn.types.DataTypes.integer());
        options = ReadOptions.of(fields).withFilter(Predicates.lessThan(wrongType, 0));
        assertThat(readAll(file, options)).containsExactlyElementsOf(expected);
    }

    @Test
    public void testFilterSkipsRowGroupsByDictionary()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "id", org.apache.paimon.types.DataTypes.BIGINT().notNull()),
                new org.apache.paimon.types.DataField(1, "cat", org.apache.paimon.types.DataTypes.STRING()),
                new org.apache.paimon.types.DataField(2, "n", org.apache.paimon.types.DataTypes.INT())));
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            // before row 2500 only "a" and "c" (and 10, 30): the bounds of every row group include "b" (and 20)
            boolean late = i >= 2500;
            String category = late ? "b" : i % 2 == 0 ? "a" : "c";
            rows.add(GenericRow.of((long) i, org.apache.paimon.data.BinaryString.fromString(category), late ? 20 : i % 2 == 0 ? 10 : 30));
        }
        for (String writerVersion : List.of("v1", "v2")) {
            byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.block.size", "4000", "parquet.writer.version", writerVersion), "snappy");
            List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
            List<String> expected = expected(rows, rowType);
            for (Predicate filter : List.of(
                    Predicates.equal(FieldRef.of(fields.get(1)), "b"),
                    Predicates.in(FieldRef.of(fields.get(2)), List.of(20, 25)))) {
                ReadOptions options = ReadOptions.of(fields).withFilter(filter);
                List<String> actual = new ArrayList<>();
                ReaderMetrics metrics;
                try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                    while (reader.nextBatch()) {
                        actual.addAll(ArrowRowFormatter.rows(reader.root(), fields));
                    }
                    metrics = reader.metrics();
                }
                assertThat(metrics.rowGroups()).isGreaterThan(2);
                assertThat(metrics.rowGroupsSkipped()).as(filter.toString()).isGreaterThan(0);
                assertThat(actual).containsSubsequence(expected.subList(2500, 3000));
                assertThat(actual).isSubsetOf(expected);
                assertThat(actual.size()).isLessThan(3000);
            }
        }
    }

    @Test
    public void testMissingColumnsAreNull()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(3).rows(TestDataGenerator.ALL_TYPES, 50);
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(), "zstd");
        List<DataField> fields = List.of(
                new DataField(4, "i", io.tarn.types.DataTypes.integer()),
                new DataField(500, "absent", io.tarn.types.DataTypes.string()),
                new DataField(501, "absent_list", new io.tarn.types.ArrayType(io.tarn.types.DataTypes.integer(), true)),
                new DataField(26, "r", io.tarn.types.RowType.of(List.of(
                        new DataField(101, "y", io.tarn.types.DataTypes.string()),
                        new DataField(502, "z", io.tarn.types.DataTypes.bigint())))));
        List<String> actual = readAll(file, ReadOptions.of(fields).withBatchSize(16));
        List<String> wanted = new ArrayList<>();
        for (GenericRow row : rows) {
            String i = row.isNullAt(4) ? "\\N" : Integer.toString(row.getInt(4));
            String r;
            if (row.isNullAt(26)) {
                r = "\\N";
            }
            else {
                org.apache.paimon.data.InternalRow nested = row.getRow(26, 2);
                r = "{" + (nested.isNullAt(1) ? "null" : CanonicalValueFormatter.quoteNestedString(nested.getString(1).toString())) + ",null}";
            }
            wanted.add(i + "\t\\N\t\\N\t" + r);
        }
        assertThat(actual).containsExactlyElementsOf(wanted);
    }

    @Test
    public void testWidenedTypes()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "i", org.apache.paimon.types.DataTypes.INT()),
                new org.apache.paimon.types.DataField(1, "f", org.apache.paimon.types.DataTypes.FLOAT()),
                new org.apache.paimon.types.DataField(2, "d9", org.apache.paimon.types.DataTypes.DECIMAL(9, 2)),
                new org.apache.paimon.types.DataField(3, "d18", org.apache.paimon.types.DataTypes.DECIMAL(18, 4)),
                new org.apache.paimon.types.DataField(4, "d38", org.apache.paimon.types.DataTypes.DECIMAL(30, 6)),
                new org.apache.paimon.types.DataField(5, "si", org.apache.paimon.types.DataTypes.SMALLINT()),
                new org.apache.paimon.types.DataField(6, "ts", org.apache.paimon.types.DataTypes.TIMESTAMP(3))));
        List<GenericRow> rows = new TestDataGenerator(11).rows(rowType, 300);
        for (String dictionary : List.of("true", "false")) {
            byte[] file = ParquetTestFiles.write(rowType, rows, Map.of("parquet.enable.dictionary", dictionary), "snappy");
            List<DataField> fields = List.of(
                    new DataField(0, "i", io.tarn.types.DataTypes.bigint()),
                    new DataField(1, "f", io.tarn.types.DataTypes.doubleType()),
                    new DataField(2, "d9", io.tarn.types.DataTypes.decimal(20, 5)),
                    new DataField(3, "d18", io.tarn.types.DataTypes.decimal(38, 10)),
                    new DataField(4, "d38", io.tarn.types.DataTypes.decimal(38, 8)),
                    new DataField(5, "si", io.tarn.types.DataTypes.integer()),
                    new DataField(6, "ts", io.tarn.types.DataTypes.timestamp(6)),
                    new DataField(0, "i_text", io.tarn.types.DataTypes.string()),
                    new DataField(1, "f_text", io.tarn.types.DataTypes.varchar(6)));
            List<String> wanted = new ArrayList<>();
            for (GenericRow row : rows) {
                List<String> values = new ArrayList<>();
                values.add(row.isNullAt(0) ? "\\N" : Long.toString(row.getInt(0)));
                values.add(row.isNullAt(1) ? "\\N" : Double.toString(row.getFloat(1)));
                values.add(row.isNullAt(2) ? "\\N" : row.getDecimal(2, 9, 2).toBigDecimal().setScale(5).toPlainString());
                values.add(row.isNullAt(3) ? "\\N" : row.getDecimal(3, 18, 4).toBigDecimal().setScale(10).toPlainString());
                values.add(row.isNullAt(4) ? "\\N" : row.getDecimal(4, 30, 6).toBigDecimal().setScale(8).toPlainString());
                values.add(row.isNullAt(5) ? "\\N" : Integer.toString(row.getShort(5)));
                values.add(row.isNullAt(6) ? "\\N" : CanonicalValueFormatter.formatTimestamp(row.getTimestamp(6, 3).getMillisecond(), 0, 6));
                // Paimon's numeric-to-string cast: toString, cut to the VARCHAR length
                values.add(row.isNullAt(0) ? "\\N" : Integer.toString(row.getInt(0)));
                values.add(row.isNullAt(1) ? "\\N" : Float.toString(row.getFloat(1)).substring(0, Math.min(6, Float.toString(row.getFloat(1)).length())));
                wanted.add(String.join("\t", values));
            }
            assertThat(readAll(file, ReadOptions.of(fields).withBatchSize(1000))).containsExactlyElementsOf(wanted);
        }
    }

    @Test
    public void testIncompatibleTypeIsUnsupported()
    {
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(1).rows(TestDataGenerator.ALL_TYPES, 5), Map.of(), "zstd");
        List<DataField> fields = List.of(new DataField(11, "s", io.tarn.types.DataTypes.integer()));
        assertThatThrownBy(() -> readAll(file, ReadOptions.of(fields)))
                .isInstanceOf(ParquetUnsupportedException.class)
                .hasMessageContaining("test.parquet")
                .hasMessageContaining("INT");
        List<DataField> nested = List.of(new DataField(23, "arr", io.tarn.types.DataTypes.integer()));
        assertThatThrownBy(() -> readAll(file, ReadOptions.of(nested)))
                .isInstanceOf(ParquetUnsupportedException.class);
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
    }

    @Test
    public void testByteStreamSplit()
            throws IOException
    {
        RowType rowType = new RowType(List.of(
                new org.apache.paimon.types.DataField(0, "f", org.apache.paimon.types.DataTypes.FLOAT()),
                new org.apache.paimon.types.DataField(1, "d", org.apache.paimon.types.DataTypes.DOUBLE()),
                new org.apache.paimon.types.DataField(2, "i", org.apache.paimon.types.DataTypes.INT()),
                new org.apache.paimon.types.DataField(3, "l", org.apache.paimon.types.DataTypes.BIGINT()),
                new org.apache.paimon.types.DataField(4, "dec", org.apache.paimon.types.DataTypes.DECIMAL(25, 3))));
        List<GenericRow> rows = new TestDataGenerator(17).rows(rowType, 400);
        byte[] file = ParquetTestFiles.writeByteStreamSplit(rowType, rows);
        ParquetFooter footer = ParquetFooter.read(DataFileInput.of("test.parquet", file));
        assertThat(footer.metadata().getRow_groups().get(0).getColumns().get(0).getMeta_data().getEncodings())
                .contains(org.apache.parquet.format.Encoding.BYTE_STREAM_SPLIT);
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        assertThat(readAll(file, ReadOptions.of(fields).withBatchSize(33))).containsExactlyElementsOf(expected(rows, rowType));
        // and with a row selection that skips inside pages
        RoaringBitmap selection = new RoaringBitmap();
        for (int i = 0; i < rows.size(); i += 3) {
            selection.add(i);
        }
        List<String> wanted = new ArrayList<>();
        List<String> all = expected(rows, rowType);
        selection.forEach((int position) -> wanted.add(all.get(position)));
        assertThat(readAll(file, ReadOptions.of(fields).withRowSelection(selection))).containsExactlyElementsOf(wanted);
    }

    @Test
    public void testBatchesReuseBuffers()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(8).rows(TestDataGenerator.ALL_TYPES, 1000);
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(), "zstd");
        List<DataField> fields = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(fields).withBatchSize(100), allocator)) {
            assertThat(reader.fileRowCount()).isEqualTo(1000);
            assertThat(reader.root().getSchema()).isEqualTo(ArrowTypes.toArrowSchema(fields));
            assertThat(reader.nextBatch()).isTrue();
            assertThat(reader.nextBatch()).isTrue();
            long address = reader.root().getVector("i").getDataBuffer().memoryAddress();
            long stringAddress = reader.root().getVector("s").getOffsetBuffer().memoryAddress();
            long memory = allocator.getAllocatedMemory();
            int batches = 2;
            while (reader.nextBatch()) {
                batches++;
                assertThat(reader.root().getVector("i").getDataBuffer().memoryAddress()).isEqualTo(address);
                assertThat(reader.root().getVector("s").getOffsetBuffer().memoryAddress()).isEqualTo(stringAddress);
            }
            assertThat(batches).isEqualTo(10);
            assertThat(allocator.getAllocatedMemory()).isLessThanOrEqualTo(memory * 2);
            assertThat(reader.nextBatch()).isFalse();
            assertThat(reader.metrics().rowsRead()).isEqualTo(1000);
        }
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
    }

    @Test
    public void testEmptyFileAndNoColumns()
            throws IOException
    {
        List<DataField> fields = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
        byte[] empty = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, List.of(), Map.of(), "zstd");
        assertThat(readAll(empty, ReadOptions.of(fields))).isEmpty();

        List<GenericRow> rows = new TestDataGenerator(9).rows(TestDataGenerator.ALL_TYPES, 250);
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(), "zstd");
        int count = 0;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), ReadOptions.of(List.of()).withBatchSize(100), allocator)) {
            while (reader.nextBatch()) {
                count += reader.root().getRowCount();
            }
        }
        assertThat(count).isEqualTo(250);
    }

    @Test
    public void testVariantIsUnsupported()
    {
        byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, List.of(), Map.of(), "zstd");
        List<DataField> fields = List.of(new DataField(1, "v", new io.tarn.types.AtomicType(io.tarn.types.TypeRoot.VARIANT, 0, 0, true)));
        assertThatThrownBy(() -> readAll(file, ReadOptions.of(fields)))
                .isInstanceOf(ParquetUnsupportedException.class)
                .hasMessageContaining("VARIANT");
    }

    private static boolean containsRepeated(org.apache.paimon.types.RowType row)
    {
        return row.getFields().stream().anyMatch(field -> field.type() instanceof org.apache.paimon.types.ArrayType
                || field.type() instanceof org.apache.paimon.types.MapType
                || field.type() instanceof org.apache.paimon.types.MultisetType
                || field.type() instanceof org.apache.paimon.types.RowType nested && containsRepeated(nested));
    }

    static List<String> expected(List<GenericRow> rows, RowType rowType)
    {
        List<String> expected = new ArrayList<>();
        for (GenericRow row : rows) {
            expected.add(CanonicalValueFormatter.formatRow(row, rowType));
        }
        return expected;
    }

    List<String> readAll(byte[] file, ReadOptions options)
            throws IOException
    {
        List<String> rows = new ArrayList<>();
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
            while (reader.nextBatch()) {
                assertThat(reader.root().getRowCount()).isBetween(1, options.batchSize());
                rows.addAll(ArrowRowFormatter.rows(reader.root(), options.columns()));
            }
        }
        return rows;
    }

    static RoaringBitmap bitmap(int... positions)
    {
        return RoaringBitmap.bitmapOf(positions);
    }
}
