package io.tarn.storage.write;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.predicate.PredicateBuilder;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Append tables written by Tarn, checked with Apache Paimon: the rows of each reference table,
 * read by Tarn and written by Tarn into a new table, are read back by Paimon identically; Paimon
 * can append to a Tarn-written table and both readers then agree; a partition overwrite replaces
 * exactly that partition; files roll at the target size.
 */
public class TestAppendTableWriter
{
    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-append-writer");
        allocator = new RootAllocator();
        for (ReferenceTable table : sources()) {
            ReferenceTables.create(warehouse, table);
        }
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws IOException
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    private static List<ReferenceTable> sources()
    {
        return List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED, ReferenceTables.APPEND_PARTITIONED,
                ReferenceTables.APPEND_DATE_PARTITIONED, ReferenceTables.APPEND_BUCKETED);
    }

    @DataProvider
    public Object[][] tables()
    {
        return sources().stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testPaimonReadsWhatTarnWrites(ReferenceTable source)
            throws Exception
    {
        String copyName = source.identifier() + "_tarn";
        PaimonTable copy = TableCopies.copyWithTarn(catalog, allocator, source.identifier(), copyName, Map.of());
        CanonicalRows expected = ReferenceReader.read(warehouse, source.identifier());
        assertThat(ReferenceReader.read(warehouse, copyName).text()).as("Paimon reads %s", copyName).isEqualTo(expected.text());
        assertThat(TableCopies.tarnRows(copy, allocator)).as("Tarn reads %s", copyName).isEqualTo(expected.text());

        // Paimon appends to the table Tarn wrote; both readers agree afterwards
        TableCopies.appendNullsWithPaimon(warehouse, copyName);
        String paimonRows = ReferenceReader.read(warehouse, copyName).text();
        assertThat(ReferenceReader.read(warehouse, copyName).rowCount()).isEqualTo(expected.rowCount() + 1);
        assertThat(TableCopies.tarnRows(table(copyName), allocator)).isEqualTo(paimonRows);
    }

    @Test
    public void testFilesRollAtTheTargetSize()
            throws Exception
    {
        PaimonTable copy = TableCopies.copyWithTarn(catalog, allocator, "ref.append_all_types", "ref.append_all_types_small_files", Map.of("target-file-size", "4kb"));
        ScanPlan plan = new ScanPlanner(copy).plan(copy.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).hasSizeGreaterThan(1);
        assertThat(ReferenceReader.read(warehouse, "ref.append_all_types_small_files").text())
                .isEqualTo(ReferenceReader.read(warehouse, "ref.append_all_types").text());
    }

    @DataProvider
    public Object[][] overwriteKinds()
    {
        return new Object[][] {{false}, {true}};
    }

    /**
     * Partition dt=2024-01-01 (two partitions, with region) is replaced by its rows as of tag t1:
     * statically by naming dt, dynamically by the partitions the new rows fall in.
     */
    @Test(dataProvider = "overwriteKinds")
    public void testPartitionOverwrite(boolean dynamic)
            throws Exception
    {
        String name = "ref.append_partitioned_overwritten_" + (dynamic ? "dynamic" : "static");
        TableCopies.copyWithTarn(catalog, allocator, "ref.append_partitioned", name, Map.of());
        PaimonTable target = table(name);
        PaimonTable source = table("ref.append_partitioned");
        // the rows of partition dt=2024-01-01 as of tag t1 replace that partition
        Predicate firstDay = Predicates.equal(FieldRef.of(source.schema().rowType().field("dt").orElseThrow()), "2024-01-01");
        ScanPlan tagged = new ScanPlanner(source).withFilter(firstDay).plan(source.snapshot(new ScanVersion.TagName("t1")));
        List<ManifestEntry> adds;
        try (AppendTableWriter writer = new AppendTableWriter(target, allocator)) {
            TableRead.forEachBatch(source, tagged, ReadRequest.of(tagged.readSchema().fields()).withFilter(firstDay), allocator, writer::write);
            adds = writer.prepareCommit();
        }
        if (dynamic) {
            new TableCommit(target, "overwrite-test").overwritePartitionsOf(adds, 1);
        }
        else {
            TableSchema schema = target.schema();
            new TableCommit(target, "overwrite-test").overwrite(adds,
                    partition -> "2024-01-01".equals(partition.value(0, schema.partitionType().fields().get(0).type())), 1);
        }

        ReferenceScan sourceScan = ReferenceScan.of("ref.append_partitioned");
        PredicateBuilder builder = ReferenceReader.predicateBuilder(warehouse, sourceScan);
        List<String> expected = new ArrayList<>();
        expected.addAll(ReferenceReader.read(warehouse, sourceScan.withFilter(PredicateBuilder.or(
                builder.notEqual(0, BinaryString.fromString("2024-01-01")), builder.isNull(0)))).lines());
        expected.addAll(ReferenceReader.read(warehouse, sourceScan.atTag("t1").withFilter(builder.equal(0, BinaryString.fromString("2024-01-01")))).lines());
        assertThat(ReferenceReader.read(warehouse, name).text()).isEqualTo(CanonicalRows.of(expected).text());
        assertThat(TableCopies.tarnRows(table(name), allocator)).isEqualTo(CanonicalRows.of(expected).text());
    }

    private PaimonTable table(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(name));
    }
}
