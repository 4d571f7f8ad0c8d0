package io.tarn.vector.avro;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.types.RowType;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import io.tarn.vector.reader.TestDataGenerator;
import io.tarn.vector.rows.CanonicalRowFormatter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.GenericRow;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestAvroReader
{
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(AvroTestFiles.ALL_TYPES);

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] codecs()
    {
        return new Object[][] {{"null"}, {"deflate"}, {"snappy"}, {"zstd"}, {"zstandard"}};
    }

    @Test(dataProvider = "codecs")
    public void testAllTypes(String codec)
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(codec.hashCode()).rows(AvroTestFiles.ALL_TYPES, 1200);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, codec);
        List<String> expected = AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES);
        try (AvroReader reader = open(file, ReadOptions.of(FIELDS).withBatchSize(97))) {
            assertThat(reader.fileRowCount()).isEqualTo(rows.size());
            assertThat(readAll(reader)).containsExactlyElementsOf(expected);
            // several blocks: Avro ends a block after about 64 KB of records
            assertThat(reader.metrics().rowGroups()).isGreaterThan(1);
            assertThat(reader.metrics().rowsRead()).isEqualTo(rows.size());
        }
    }

    @Test
    public void testProjectionOrderMissingAndRepeatedColumns()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(3).rows(AvroTestFiles.ALL_TYPES, 300);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "zstd");
        org.apache.paimon.types.RowType projected = AvroTestFiles.project(AvroTestFiles.ALL_TYPES, "mm", "s", "r", "id", "ms", "dec38");
        List<DataField> columns = new ArrayList<>(ParquetTestFiles.tarnFields(projected));
        List<String> expected = AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES, projected);
        assertThat(read(file, columns)).containsExactlyElementsOf(expected);

        // a column added after the file was written, a ROW field added later, the same column twice
        DataField added = new DataField(500, "added", DataTypes.string());
        DataField row = FIELDS.stream().filter(field -> field.name().equals("r")).findFirst().orElseThrow();
        RowType rowType = (RowType) row.type();
        List<DataField> rowFields = new ArrayList<>(rowType.fields());
        rowFields.add(new DataField(501, "z", DataTypes.bigint()));
        DataField widenedRow = row.withType(new RowType(rowFields, rowType.nullable()));
        DataField id = columns.get(3);
        List<String> actual = read(file, List.of(id, added, widenedRow, id));
        List<String> idAndRow = AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES, AvroTestFiles.project(AvroTestFiles.ALL_TYPES, "id", "r"));
        for (int i = 0; i < rows.size(); i++) {
            String[] parts = idAndRow.get(i).split("\t");
            String rowText = parts[1].equals("\\N") ? "\\N" : parts[1].substring(0, parts[1].length() - 1) + ",null}";
            assertThat(actual.get(i)).isEqualTo(parts[0] + "\t\\N\t" + rowText + "\t" + parts[0]);
        }
    }

    @Test
    public void testRowSelection()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(42).rows(AvroTestFiles.ALL_TYPES, 2000);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "snappy");
        List<String> expected = AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES);

        RoaringBitmap sparse = new RoaringBitmap();
        for (int i = 3; i < rows.size(); i += 37) {
            sparse.add(i);
        }
        RoaringBitmap dense = RoaringBitmap.bitmapOfRange(0, rows.size());
        dense.remove(0);
        dense.remove(101);
        dense.remove(777);
        dense.remove(1999);
        RoaringBitmap tail = RoaringBitmap.bitmapOfRange(1900, 1950);
        tail.add(5);
        RoaringBitmap beyond = RoaringBitmap.bitmapOf(1999, 2000, 100_000);

        for (RoaringBitmap selection : List.of(sparse, dense, tail, beyond, new RoaringBitmap())) {
            List<String> wanted = new ArrayList<>();
            List<Integer> wantedPositions = new ArrayList<>();
            selection.forEach((int position) -> {
                if (position < rows.size()) {
                    wanted.add(expected.get(position));
                    wantedPositions.add(position);
                }
            });
            List<String> actual = new ArrayList<>();
            List<Integer> positions = new ArrayList<>();
            ReaderMetrics metrics;
            try (AvroReader reader = open(file, ReadOptions.of(FIELDS).withBatchSize(64).withRowSelection(selection))) {
                int[] batchPositions = new int[64];
                while (reader.nextBatch()) {
                    CanonicalRowFormatter.appendLines(reader.root(), FIELDS, actual);
                    reader.batchPositions(batchPositions);
                    for (int i = 0; i < reader.root().getRowCount(); i++) {
                        positions.add(batchPositions[i]);
                    }
                }
                metrics = reader.metrics();
            }
            assertThat(actual).containsExactlyElementsOf(wanted);
            assertThat(positions).containsExactlyElementsOf(wantedPositions);
            assertThat(metrics.rowsRead()).isEqualTo(wanted.size());
            assertThat(metrics.rowsSkippedBySelection()).isEqualTo(rows.size() - wanted.size());
            if (selection == tail || selection.isEmpty()) {
                // blocks without selected rows are not read
                assertThat(metrics.pagesSkipped()).isGreaterThan(0);
            }
        }
    }

    @Test
    public void testBatchPositionsWithoutSelection()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(8).rows(AvroTestFiles.ALL_TYPES, 500);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "deflate");
        int next = 0;
        try (AvroReader reader = open(file, ReadOptions.of(FIELDS.subList(0, 3)).withBatchSize(33))) {
            int[] positions = new int[33];
            while (reader.nextBatch()) {
                reader.batchPositions(positions);
                for (int i = 0; i < reader.root().getRowCount(); i++) {
                    assertThat(positions[i]).isEqualTo(next++);
                }
            }
        }
        assertThat(next).isEqualTo(500);
    }

    @Test
    public void testReopenReadsOtherColumnsWithoutTheHeader()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(11).rows(AvroTestFiles.ALL_TYPES, 1500);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "zstd");
        org.apache.paimon.types.RowType first = AvroTestFiles.project(AvroTestFiles.ALL_TYPES, "id", "i");
        org.apache.paimon.types.RowType second = AvroTestFiles.project(AvroTestFiles.ALL_TYPES, "s", "deep", "id");
        RoaringBitmap selection = RoaringBitmap.bitmapOf(2, 3, 500, 1499);
        List<String> secondExpected = AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES, second);
        try (AvroReader reader = open(file, ReadOptions.of(ParquetTestFiles.tarnFields(first)));
                AvroReader reopened = reader.reopen(ReadOptions.of(ParquetTestFiles.tarnFields(second)).withRowSelection(selection), allocator)) {
            assertThat(readAll(reader)).containsExactlyElementsOf(AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES, first));
            assertThat(reopened.fileRowCount()).isEqualTo(1500);
            List<String> actual = new ArrayList<>();
            while (reopened.nextBatch()) {
                CanonicalRowFormatter.appendLines(reopened.root(), ParquetTestFiles.tarnFields(second), actual);
            }
            assertThat(actual).containsExactly(secondExpected.get(2), secondExpected.get(3), secondExpected.get(500), secondExpected.get(1499));
            // the reopened reader read only the blocks of the selected rows, not the header again
            assertThat(reopened.metrics().bytesRead()).isLessThan(reader.metrics().bytesRead());
        }
    }

    @Test
    public void testFileIsReadInFewLargeReads()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(23).rows(AvroTestFiles.ALL_TYPES, 3000);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "null");
        int readBytes = 256 << 10;
        int windows = (file.length + readBytes - 1) / readBytes;
        CountingInput input = new CountingInput(file);
        List<String> actual = new ArrayList<>();
        int blocks;
        try (AvroReader reader = AvroReader.open(input, ReadOptions.of(FIELDS), FIELDS, allocator, readBytes)) {
            while (reader.nextBatch()) {
                CanonicalRowFormatter.appendLines(reader.root(), FIELDS, actual);
            }
            blocks = (int) reader.metrics().rowGroups();
            assertThat(reader.metrics().bytesRead()).isEqualTo(input.bytes);
        }
        assertThat(actual).containsExactlyElementsOf(AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES));
        // the walk over the block headers and the read of the blocks, each in windows, not per block
        assertThat(blocks).isGreaterThanOrEqualTo(3 * windows);
        assertThat(input.reads).isLessThanOrEqualTo(2 * windows + 2);

        // only the block of the one selected row is read after the walk
        input.reads = 0;
        try (AvroReader reader = AvroReader.open(input, ReadOptions.of(FIELDS).withRowSelection(RoaringBitmap.bitmapOf(2999)), FIELDS, allocator, readBytes)) {
            List<String> last = new ArrayList<>();
            while (reader.nextBatch()) {
                CanonicalRowFormatter.appendLines(reader.root(), FIELDS, last);
            }
            assertThat(last).containsExactly(actual.get(2999));
            assertThat(reader.metrics().pagesSkipped()).isEqualTo(blocks - 1);
        }
        assertThat(input.reads).isLessThanOrEqualTo(windows + 2);
    }

    @Test
    public void testBatchesBoundedInBytes()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(17).rows(AvroTestFiles.ALL_TYPES, 1000);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "zstd");
        List<String> actual = new ArrayList<>();
        int batches = 0;
        try (AvroReader reader = open(file, ReadOptions.of(FIELDS).withBatchSize(1000).withMaxBatchBytes(8 << 10))) {
            while (reader.nextBatch()) {
                batches++;
                assertThat(reader.root().getRowCount()).isLessThan(200);
                CanonicalRowFormatter.appendLines(reader.root(), FIELDS, actual);
            }
        }
        assertThat(batches).isGreaterThan(5);
        assertThat(actual).containsExactlyElementsOf(AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES));
    }

    @Test
    public void testFilterIsIgnoredAndNoVerdictsAreGiven()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(19).rows(AvroTestFiles.ALL_TYPES, 200);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "zstd");
        List<DataField> columns = FIELDS.subList(0, 12);
        ReadOptions options = ReadOptions.of(columns)
                .withFilter(Predicates.equal(FieldRef.of(columns.get(11)), "v1"))
                .withFilterColumnsMatched()
                .withDictionaryIds();
        List<String> actual = new ArrayList<>();
        try (AvroReader reader = open(file, options)) {
            while (reader.nextBatch()) {
                assertThat(reader.filterMatches()).isEmpty();
                assertThat(reader.dictionaryIds(11)).isEmpty();
                CanonicalRowFormatter.appendLines(reader.root(), columns, actual);
            }
        }
        assertThat(actual).containsExactlyElementsOf(AvroTestFiles.expected(rows, AvroTestFiles.ALL_TYPES, AvroTestFiles.project(AvroTestFiles.ALL_TYPES,
                "id", "b", "ti", "si", "i", "bi", "f", "d", "dec9", "dec18", "dec38", "s")));
    }

    @Test
    public void testUnsupportedConversionNamesFileAndColumn()
    {
        List<GenericRow> rows = new TestDataGenerator(1).rows(AvroTestFiles.ALL_TYPES, 10);
        byte[] file = AvroTestFiles.write(AvroTestFiles.ALL_TYPES, rows, "zstd");
        DataField binary = FIELDS.stream().filter(field -> field.name().equals("bin")).findFirst().orElseThrow();
        assertThatThrownBy(() -> read(file, List.of(binary.withType(DataTypes.integer()))))
                .isInstanceOf(DataFileUnsupportedException.class)
                .hasMessageContaining("test.avro")
                .hasMessageContaining("bin");
    }

    private static final class CountingInput
            implements DataFileInput
    {
        private final DataFileInput delegate;
        private int reads;
        private long bytes;

        CountingInput(byte[] file)
        {
            this.delegate = DataFileInput.of("test.avro", file);
        }

        @Override
        public String name()
        {
            return delegate.name();
        }

        @Override
        public long length()
                throws IOException
        {
            return delegate.length();
        }

        @Override
        public void readFully(long position, byte[] buffer, int offset, int length)
                throws IOException
        {
            reads++;
            bytes += length;
            delegate.readFully(position, buffer, offset, length);
        }
    }

    private AvroReader open(byte[] file, ReadOptions options)
            throws IOException
    {
        return AvroReader.open(DataFileInput.of("test.avro", file), options, FIELDS, allocator);
    }

    private List<String> read(byte[] file, List<DataField> columns)
            throws IOException
    {
        try (AvroReader reader = open(file, ReadOptions.of(columns).withBatchSize(50))) {
            List<String> rows = new ArrayList<>();
            while (reader.nextBatch()) {
                assertThat(reader.root().getRowCount()).isBetween(1, 50);
                CanonicalRowFormatter.appendLines(reader.root(), columns, rows);
            }
            return rows;
        }
    }

    private static List<String> readAll(AvroReader reader)
            throws IOException
    {
        List<String> rows = new ArrayList<>();
        while (reader.nextBatch()) {
            CanonicalRowFormatter.appendLines(reader.root(), reader.root().getSchema().getFields().stream()
                    .map(field -> FIELDS.stream().filter(candidate -> candidate.name().equals(field.getName())).findFirst().orElseThrow())
                    .toList(), rows);
        }
        return rows;
    }
}
