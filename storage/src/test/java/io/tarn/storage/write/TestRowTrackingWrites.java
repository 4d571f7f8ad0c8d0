package io.tarn.storage.write;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.RowTrackingReads;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.sort.SortCompactRequest;
import io.tarn.storage.sort.SortCompaction;
import io.tarn.storage.sort.SortStrategy;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.RowTrackingTables;
import io.tarn.types.DataField;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tarn's appends to a table that tracks rows ({@code row-tracking.enabled}): its commits give the
 * files they add their first row ids and advance the snapshot's {@code nextRowId}, as Paimon's
 * commits do, so Paimon's row-tracking view of a table that both wrote gives every row a row id
 * of its own, Paimon's own appends and compactions go on from there, and Tarn reads the same
 * {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} as Paimon.
 */
public class TestRowTrackingWrites
{
    private PaimonTables paimon;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        paimon = new PaimonTables();
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
        allocator.close();
        paimon.close();
    }

    @Test
    public void testTarnAppendsGetRowIdsLikePaimonAppends()
            throws Exception
    {
        FileStoreTable tracked = paimon.create("tracked", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("part", DataTypes.STRING())
                .column("name", DataTypes.STRING())
                .partitionKeys("part")
                .option("row-tracking.enabled", "true")
                .option("compaction.min.file-num", "3")
                .build());
        FileStoreTable staging = paimon.create("staging", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("part", DataTypes.STRING())
                .column("name", DataTypes.STRING())
                .build());
        paimon.write(tracked, rows(0, 10));
        paimon.write(staging, rows(100, 40));

        // two commits by Tarn, each of files in both partitions, between Paimon's
        Snapshot first = appendWithTarn("db.tracked", "db.staging");
        Snapshot second = appendWithTarn("db.tracked", "db.staging");
        paimon.write(tracked, rows(300, 5));

        assertThat(first.nextRowId()).contains(50L);
        assertThat(second.nextRowId()).contains(90L);
        assertThat(tracked.snapshotManager().latestSnapshot().nextRowId()).isEqualTo(95L);
        assertSameAsPaimon("tracked", 95);
        // each file was its writer's first, so its rows have the sequence number of the snapshot
        // that added them, as Paimon's commits give: Paimon's snapshots 1 and 4, Tarn's 2 and 3
        assertThat(sequenceNumbersByFirstId("tracked")).isEqualTo(Map.of(0, List.of(1L), 100, List.of(2L, 3L), 300, List.of(4L)));

        // Paimon compacts the files both wrote, storing the row ids, and appends again
        RowTrackingTables.compact(paimon.table("tracked"));
        paimon.write(paimon.table("tracked"), rows(400, 3));
        assertSameAsPaimon("tracked", 98);
        // and Tarn appends after Paimon's compaction
        appendWithTarn("db.tracked", "db.staging");
        assertSameAsPaimon("tracked", 138);
    }

    @Test
    public void testSortCompactionIsRefused()
            throws Exception
    {
        paimon.write(paimon.create("tracked_sorted", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("part", DataTypes.STRING())
                .column("name", DataTypes.STRING())
                .option("row-tracking.enabled", "true")
                .build()), rows(0, 10));
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db.tracked_sorted"));
        long snapshots = table.snapshot(new ScanVersion.Latest()).orElseThrow().id();
        // a rewrite would have to store every row's id in the new files
        assertThatThrownBy(() -> SortCompaction.run(table, SortCompactRequest.of(SortStrategy.ORDER, List.of("id")), allocator))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.tracked_sorted")
                .hasMessageContaining("row-tracking.enabled");
        assertThat(PaimonTable.load(catalog, Identifier.parse("db.tracked_sorted")).snapshot(new ScanVersion.Latest()).orElseThrow().id()).isEqualTo(snapshots);
    }

    @Test
    public void testDataEvolutionTablesAreRefused()
            throws Exception
    {
        paimon.create("evolving", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .option("row-tracking.enabled", "true")
                .option("data-evolution.enabled", "true")
                .build());
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db.evolving"));
        assertThatThrownBy(() -> new AppendTableWriter(table, allocator))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.evolving")
                .hasMessageContaining("data-evolution.enabled");
    }

    /**
     * Tarn creates no table that Paimon's schema validation would refuse: row tracking without
     * fixed buckets and without a primary key, data evolution only on row tracking and without
     * deletion vectors. Nothing is written for a refused table.
     */
    @Test
    public void testCreatingTablesThatTrackRowsFollowsPaimonsRules()
            throws IOException
    {
        List<DataField> fields = List.of(new DataField(0, "id", io.tarn.types.DataTypes.integer()), new DataField(1, "name", io.tarn.types.DataTypes.string()));
        assertRefused("tracked_bucketed", fields, List.of(), Map.of("row-tracking.enabled", "true", "bucket", "4", "bucket-key", "id"), "bucket = -1, not 4");
        assertRefused("tracked_keyed", fields, List.of("id"), Map.of("row-tracking.enabled", "true"), "cannot have a primary key");
        assertRefused("evolving_untracked", fields, List.of(), Map.of("data-evolution.enabled", "true"), "needs row-tracking.enabled = 'true'");
        assertRefused("evolving_deleting", fields, List.of(), Map.of("row-tracking.enabled", "true", "data-evolution.enabled", "true", "deletion-vectors.enabled", "true"),
                "does not go with deletion-vectors.enabled");
        catalog.createTable(Identifier.parse("db.tracked_created"), schema(fields, List.of(), Map.of("row-tracking.enabled", "true")));
        assertThat(PaimonTable.load(catalog, Identifier.parse("db.tracked_created")).schema().options()).containsEntry("row-tracking.enabled", "true");
    }

    private void assertRefused(String name, List<DataField> fields, List<String> primaryKeys, Map<String, String> options, String message)
    {
        assertThatThrownBy(() -> catalog.createTable(Identifier.parse("db." + name), schema(fields, primaryKeys, options)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db." + name)
                .hasMessageContaining(message);
        assertThat(Path.of(catalog.location(Identifier.parse("db." + name)))).doesNotExist();
    }

    private static TableSchema schema(List<DataField> fields, List<String> primaryKeys, Map<String, String> options)
    {
        return new TableSchema(TableSchema.CURRENT_VERSION, 0, fields, fields.size() - 1, List.of(), primaryKeys, options, Optional.empty(), System.currentTimeMillis());
    }

    /**
     * Tarn reads the rows, row ids and sequence numbers of Paimon's row-tracking view, and the
     * row ids are {@code 0 .. rows - 1}, each once.
     */
    private void assertSameAsPaimon(String name, int rows)
            throws IOException
    {
        List<String> expected = ReferenceReader.readWithRowTracking(Path.of(paimon.warehouse()), "db." + name).lines();
        assertThat(expected).hasSize(rows);
        // _ROW_ID is the fourth column of the view (id, part, name, _ROW_ID, _SEQUENCE_NUMBER)
        List<Long> rowIds = expected.stream().map(line -> Long.parseLong(line.split("\t")[3])).sorted().toList();
        assertThat(rowIds).isEqualTo(LongStream.range(0, rows).boxed().toList());
        assertThat(RowTrackingReads.rows(PaimonTable.load(catalog, Identifier.parse("db." + name)), Optional.empty(), allocator)).isEqualTo(CanonicalRowSet.of(expected).text());
    }

    /**
     * The distinct {@code _SEQUENCE_NUMBER}s in Paimon's row-tracking view, by the first id of
     * the {@link #rows} call that wrote the row (ids 0.., 100.., 300..).
     */
    private Map<Integer, List<Long>> sequenceNumbersByFirstId(String name)
    {
        return ReferenceReader.readWithRowTracking(Path.of(paimon.warehouse()), "db." + name).lines().stream()
                .map(line -> line.split("\t"))
                .collect(Collectors.groupingBy(columns -> Integer.parseInt(columns[0]) / 100 * 100,
                        Collectors.collectingAndThen(Collectors.mapping(columns -> Long.parseLong(columns[4]), Collectors.toCollection(TreeSet::new)), List::copyOf)));
    }

    /**
     * Appends every row of {@code source} to {@code target} with Tarn's writer, in batches of 7
     * rows, as one commit.
     */
    private Snapshot appendWithTarn(String target, String source)
            throws IOException
    {
        PaimonTable from = PaimonTable.load(catalog, Identifier.parse(source));
        PaimonTable to = PaimonTable.load(catalog, Identifier.parse(target));
        ScanPlan plan = new ScanPlanner(from).plan(from.snapshot(new ScanVersion.Latest()));
        try (AppendTableWriter writer = new AppendTableWriter(to, allocator)) {
            TableRead.forEachBatch(from, plan, ReadRequest.of(plan.readSchema().fields()).withBatchSize(7), allocator, writer::write);
            return new TableCommit(to, "row-tracking-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
    }

    /**
     * {@code count} rows with ids from {@code firstId}, alternately in partitions {@code a} and
     * {@code b}, every fifth name null.
     */
    private static InternalRow[] rows(int firstId, int count)
    {
        InternalRow[] rows = new InternalRow[count];
        for (int i = 0; i < count; i++) {
            int id = firstId + i;
            rows[i] = GenericRow.of(id, BinaryString.fromString(id % 2 == 0 ? "a" : "b"), id % 5 == 4 ? null : BinaryString.fromString("row " + id));
        }
        return rows;
    }
}
