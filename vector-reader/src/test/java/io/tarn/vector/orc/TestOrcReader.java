package io.tarn.vector.orc;

import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ArrowRowFormatter;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import io.tarn.vector.reader.TestDataGenerator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.GenericRow;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads ORC files that Apache Paimon's ORC writer wrote, with every Paimon type, every codec,
 * both run-length encoding versions, direct and dictionary strings, several stripes and row
 * groups, and compares each row with what Paimon's own ORC reader returns for the same file.
 */
public class TestOrcReader
{
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);

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
                {"none", "0.12", "0.8"},
                {"zlib", "0.12", "0.8"},
                {"snappy", "0.12", "0"},
                {"lz4", "0.12", "1"},
                {"zstd", "0.12", "0.8"},
                {"zlib", "0.11", "0.8"},
                {"none", "0.11", "0"},
                {"zstd", "0.11", "1"},
        };
    }

    @Test(dataProvider = "layouts")
    public void testAllTypes(String compression, String version, String dictionaryThreshold)
            throws IOException
    {
        long seed = compression.hashCode() * 31L + version.hashCode() * 7L + dictionaryThreshold.hashCode();
        System.out.println("seed " + seed);
        List<GenericRow> rows = new TestDataGenerator(seed).rows(TestDataGenerator.ALL_TYPES, 1500);
        Map<String, String> options = Map.of(
                "orc.write.format", version,
                "orc.dictionary.key.threshold", dictionaryThreshold,
                "orc.row.index.stride", "1000",
                "orc.stripe.size", "40000",
                "orc.rows.between.memory.checks", "200",
                "orc.compress.size", "4096");
        byte[] file = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, rows, options, compression);
        List<String> expected = OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, file, options);
        assertThat(expected).hasSize(rows.size());
        // the file has the layout this case is about
        OrcTail tail = OrcTail.read(DataFileInput.of("test.orc", file));
        assertThat(tail.footer().stripes().size()).as("stripes").isGreaterThan(1);
        Set<StripeFooter.Encoding.Kind> encodings = EnumSet.noneOf(StripeFooter.Encoding.Kind.class);
        for (int stripe = 0; stripe < tail.footer().stripes().size(); stripe++) {
            StripeStreams streams = StripeStreams.read(DataFileInput.of("test.orc", file), tail, stripe, tail.newCodec(), Set.of(), Set.of(), Set.of());
            for (int column = 0; column < tail.footer().types().size(); column++) {
                encodings.add(streams.encoding(column).kind());
            }
        }
        boolean v2 = version.equals("0.12");
        assertThat(encodings).contains(v2 ? StripeFooter.Encoding.Kind.DIRECT_V2 : StripeFooter.Encoding.Kind.DIRECT);
        if (!v2) {
            // (version 2 files still encode floating point, booleans, bytes and structs DIRECT)
            assertThat(encodings).doesNotContain(StripeFooter.Encoding.Kind.DIRECT_V2, StripeFooter.Encoding.Kind.DICTIONARY_V2);
        }
        if (!dictionaryThreshold.equals("0")) {
            assertThat(encodings).contains(v2 ? StripeFooter.Encoding.Kind.DICTIONARY_V2 : StripeFooter.Encoding.Kind.DICTIONARY);
        }
        try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), ReadOptions.of(FIELDS).withBatchSize(97), FIELDS, allocator)) {
            List<String> actual = new ArrayList<>();
            while (reader.nextBatch()) {
                actual.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
            }
            assertThat(actual).containsExactlyElementsOf(expected);
            assertThat(reader.fileRowCount()).isEqualTo(rows.size());
            assertThat(reader.metrics().rowsRead()).isEqualTo(rows.size());
        }
    }

    @Test
    public void testRowSelection()
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(42).rows(TestDataGenerator.ALL_TYPES, 3000);
        Map<String, String> options = Map.of("orc.row.index.stride", "1000", "orc.stripe.size", "50000", "orc.rows.between.memory.checks", "100");
        byte[] file = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, rows, options, "zstd");
        List<String> expected = OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, file, options);

        RoaringBitmap sparse = new RoaringBitmap();
        for (int i = 3; i < rows.size(); i += 37) {
            sparse.add(i);
        }
        RoaringBitmap dense = RoaringBitmap.bitmapOfRange(0, rows.size());
        dense.remove(0);
        dense.remove(1001);
        dense.remove(2999);
        RoaringBitmap runs = RoaringBitmap.bitmapOfRange(550, 1720);
        runs.add(2400L, 2410L);
        RoaringBitmap beyond = RoaringBitmap.bitmapOf(2999, 3000, 100_000);
        for (RoaringBitmap selection : List.of(sparse, dense, runs, beyond, new RoaringBitmap())) {
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
            try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), ReadOptions.of(FIELDS).withBatchSize(64).withRowSelection(selection), FIELDS, allocator)) {
                int[] batchPositions = new int[64];
                while (reader.nextBatch()) {
                    assertThat(reader.root().getRowCount()).isBetween(1, 64);
                    actual.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
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
        }
    }

    @DataProvider
    public Object[][] seekLayouts()
    {
        return new Object[][] {
                {"zstd", "0.12", "0.8"},
                {"zlib", "0.11", "1"},
                {"snappy", "0.12", "0"},
        };
    }

    /**
     * Row selections that leave out whole row groups move every column (nested ones and their
     * children too) to the next selected group by its row index instead of decoding the rows
     * between: a few rows at the start, middle and end of every other group, across stripes.
     */
    @Test(dataProvider = "seekLayouts")
    public void testRowGroupSeeks(String compression, String version, String dictionaryThreshold)
            throws IOException
    {
        List<GenericRow> rows = new TestDataGenerator(version.hashCode() + compression.hashCode()).rows(TestDataGenerator.ALL_TYPES, 4000);
        Map<String, String> options = Map.of(
                "orc.write.format", version,
                "orc.dictionary.key.threshold", dictionaryThreshold,
                "orc.row.index.stride", "1000",
                "orc.stripe.size", "150000",
                "orc.rows.between.memory.checks", "500",
                "orc.compress.size", "2048");
        byte[] file = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, rows, options, compression);
        List<String> expected = OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, file, options);
        RoaringBitmap selection = new RoaringBitmap();
        for (int group = 0; group < 4; group += 2) {
            int start = group * 1000 + (group == 2 ? 0 : 7);
            selection.add(start, start + 3);
            selection.add(group * 1000 + 517);
            selection.add(group * 1000 + 999);
        }
        selection.add(3999);
        List<String> wanted = new ArrayList<>();
        selection.forEach((int position) -> wanted.add(expected.get(position)));
        List<String> actual = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), ReadOptions.of(FIELDS).withBatchSize(4).withRowSelection(selection), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                actual.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
            }
            assertThat(reader.metrics().rowGroups()).as("stripes").isGreaterThan(1);
        }
        assertThat(actual).containsExactlyElementsOf(wanted);
    }
}
