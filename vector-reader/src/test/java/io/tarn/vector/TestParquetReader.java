package io.tarn.vector;

import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.types.DataField;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

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
        List<String> actual = readAll(file, ParquetReadOptions.of(fields).withBatchSize(97));
        assertThat(actual).containsExactlyElementsOf(expected(rows, TestDataGenerator.ALL_TYPES));
    }

    static List<String> expected(List<GenericRow> rows, RowType rowType)
    {
        List<String> expected = new ArrayList<>();
        for (GenericRow row : rows) {
            expected.add(CanonicalValueFormatter.formatRow(row, rowType));
        }
        return expected;
    }

    List<String> readAll(byte[] file, ParquetReadOptions options)
            throws IOException
    {
        List<String> rows = new ArrayList<>();
        try (ParquetReader reader = ParquetReader.open(ParquetInput.of("test.parquet", file), options, allocator)) {
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
