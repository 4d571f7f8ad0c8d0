package io.tarn.storage.scan;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How much file indexes save: a Bloom filter on a high-cardinality column keeps at most the files
 * holding the value plus about fpp of the others (the bound checked is 2·fpp), and a bitmap
 * equality decodes only the selected rows, leaving the other pages undecoded.
 */
public class TestFileIndexPruning
{
    private static final int FILES = 20;
    private static final int ROWS_PER_FILE = 100;
    private static final double FPP = 0.05;

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-file-index-pruning");
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        allocator = new RootAllocator();
        long seed = 20_260_429L;
        System.out.println("TestFileIndexPruning seed " + seed);
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < FILES * ROWS_PER_FILE; i++) {
            ids.add(i);
        }
        // shuffled, so that every file's id statistics span nearly the whole range and prune nothing
        Collections.shuffle(ids, new Random(seed));
        try (Catalog paimon = PaimonFileIndexTables.open(warehouse)) {
            paimon.createDatabase("fi", true);
            Schema bloom = Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("payload", DataTypes.STRING())
                    .option("file-index.bloom-filter.columns", "id")
                    .option("file-index.bloom-filter.id.items", Integer.toString(ROWS_PER_FILE))
                    .option("file-index.bloom-filter.id.fpp", Double.toString(FPP))
                    .build();
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString("fi.bloom"), bloom, false);
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString("fi.bloom"));
            for (int file = 0; file < FILES; file++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int row = 0; row < ROWS_PER_FILE; row++) {
                    int id = ids.get(file * ROWS_PER_FILE + row);
                    rows.add(GenericRow.of(id, BinaryString.fromString("p" + id)));
                }
                write(table, rows);
            }

            Schema clustered = Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("payload", DataTypes.STRING())
                    .build();
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString("fi.clustered_source"), clustered, false);
            List<GenericRow> rows = new ArrayList<>();
            for (int row = 0; row < 3000; row++) {
                rows.add(GenericRow.of(row / 300, BinaryString.fromString("payload-" + row + "-" + "x".repeat(row % 17))));
            }
            write((FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString("fi.clustered_source")), rows);
        }
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testBloomEqualityReadsFilesHoldingTheValuePlusFewOthers()
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("fi.bloom"));
        FieldRef id = FieldRef.of(table.schema().rowType().field("id").orElseThrow());
        long filesRead = 0;
        long filesPlanned = 0;
        int probes = 0;
        for (int value = 7; value < FILES * ROWS_PER_FILE; value += 67) {
            Result result = read(table, Predicates.equal(id, value));
            assertThat(result.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(1);
            filesRead += result.metrics().get(Counter.FILES_READ);
            filesPlanned += result.filesPlanned();
            probes++;
        }
        // each probe: its one file, plus false positives among the others
        double bound = probes * (1 + 2 * FPP * (FILES - 1));
        System.out.printf("Bloom equality: %d probes, %d files kept by statistics, %d files read, bound %.1f%n", probes, filesPlanned, filesRead, bound);
        assertThat(filesPlanned).as("statistics alone keep nearly every file").isGreaterThan(probes * (FILES - 3L));
        assertThat((double) filesRead).isLessThanOrEqualTo(bound);
    }

    @Test
    public void testBitmapEqualityDecodesOnlyTheSelectedRows()
            throws IOException
    {
        // small pages, so that the 300 rows of one key span a few pages out of many
        PaimonTable indexed = copy("fi.clustered", Map.of("file-index.bitmap.columns", "k", "parquet.page.size", "1024", "parquet.enable.dictionary", "false"));
        PaimonTable plain = copy("fi.clustered_no_index", Map.of("parquet.page.size", "1024", "parquet.enable.dictionary", "false"));
        FieldRef k = FieldRef.of(indexed.schema().rowType().field("k").orElseThrow());
        Predicate filter = Predicates.equal(k, 3);
        Result withIndex = read(indexed, filter);
        Result withoutIndex = read(plain, filter);
        System.out.printf("Bitmap equality: with index %s; without %s%n", withIndex.metrics().asMap(), withoutIndex.metrics().asMap());
        assertThat(withIndex.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(300);
        assertThat(withoutIndex.metrics().get(Counter.ROWS_RETURNED)).isEqualTo(300);
        assertThat(withIndex.metrics().get(Counter.ROWS_SELECTED_BY_INDEX)).isEqualTo(300);
        // the bitmap answers the equality exactly: every column decoded once, for the 300
        // selected rows only
        assertThat(withIndex.metrics().get(Counter.ROWS_READ)).isEqualTo(300);
        // without the index, the page index of the clustered key still narrows the filter
        // column's pass to the pages around the key, whose every row is then tested; the other
        // columns of the 300 matches are decoded in a second pass
        assertThat(withoutIndex.metrics().get(Counter.ROWS_READ)).isBetween(300L, 2999L);
        assertThat(withoutIndex.metrics().get(Counter.ROWS_READ_AGAIN)).isEqualTo(300);
        assertThat(withIndex.metrics().get(Counter.ROWS_READ_AGAIN)).isZero();
        assertThat(withoutIndex.metrics().get(Counter.ROWS_FILTERED)).isEqualTo(2700);
        // both read each page they need once (the filter pass hands the key's values of the
        // matching rows to the read of the other columns), but never more with the index
        assertThat(withIndex.metrics().get(Counter.BYTES_READ)).isLessThanOrEqualTo(withoutIndex.metrics().get(Counter.BYTES_READ));
    }

    private record Result(Counters metrics, long filesPlanned) {}

    private Result read(PaimonTable table, Predicate filter)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).withFilter(filter).plan(table.snapshot(new ScanVersion.Latest()));
        List<DataField> columns = plan.readSchema().fields();
        Counters metrics = TableRead.forEachBatch(table, plan, ReadRequest.of(columns).withFilter(filter), allocator, batch -> {});
        // files the statistics keep: the planned ones and those the embedded index skipped
        return new Result(metrics, plan.files().size() + plan.metrics().get(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX));
    }

    private PaimonTable copy(String name, Map<String, String> extraOptions)
            throws IOException
    {
        PaimonTable source = PaimonTable.load(catalog, Identifier.parse("fi.clustered_source"));
        TableSchema schema = source.schema();
        Map<String, String> options = new LinkedHashMap<>(schema.options());
        options.putAll(extraOptions);
        catalog.createTable(Identifier.parse(name), new TableSchema(schema.version(), 0, schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), options, schema.comment(), schema.timeMillis()));
        PaimonTable copy = PaimonTable.load(catalog, Identifier.parse(name));
        ScanPlan plan = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest()));
        try (AppendTableWriter writer = new AppendTableWriter(copy, allocator)) {
            TableRead.forEachBatch(source, plan, ReadRequest.of(plan.readSchema().fields()), allocator, writer::write);
            new TableCommit(copy, "pruning-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
        return PaimonTable.load(catalog, Identifier.parse(name));
    }

    @SuppressWarnings("try") // Paimon's close() declares Exception
    private static void write(FileStoreTable table, List<GenericRow> rows)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }
}
