package io.tarn.storage.catalog;

import io.tarn.storage.ColumnAlreadyExistsException;
import io.tarn.storage.ColumnNotFoundException;
import io.tarn.storage.CommitConflictException;
import io.tarn.storage.TableNotEmptyException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.ForwardingFileIO;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.RowType;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;
import static org.apache.paimon.types.DataTypes.ARRAY;
import static org.apache.paimon.types.DataTypes.DOUBLE;
import static org.apache.paimon.types.DataTypes.FIELD;
import static org.apache.paimon.types.DataTypes.INT;
import static org.apache.paimon.types.DataTypes.ROW;
import static org.apache.paimon.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FileSystemCatalog#alterTable}: the schema Tarn publishes equals the one Apache Paimon's
 * own schema evolution publishes for the same changes, and both readers read the table alike
 * afterwards; changes that race all land unless they collide; a NOT NULL column is refused on a
 * table with rows, including rows committed while the change runs.
 */
public class TestSchemaChangeCommit
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
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        if (paimon != null) {
            paimon.close();
        }
    }

    @Test
    public void testSameSchemaAndRowsAsPaimon()
            throws Exception
    {
        Schema schema = Schema.newBuilder()
                .column("a", INT())
                .column("b", STRING())
                .column("p", STRING())
                .partitionKeys("p")
                .build();
        List<FileStoreTable> tables = List.of(paimon.create("evolved_by_paimon", schema), paimon.create("evolved_by_tarn", schema));
        for (FileStoreTable table : tables) {
            paimon.write(table, GenericRow.of(1, BinaryString.fromString("one"), BinaryString.fromString("x")), GenericRow.of(2, null, BinaryString.fromString("y")));
        }

        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create("db", "evolved_by_paimon"), List.of(
                org.apache.paimon.schema.SchemaChange.addColumn("n", ROW(FIELD(0, "x", INT()), FIELD(1, "y", ARRAY(ROW(FIELD(2, "z", INT()))))), "nested",
                        org.apache.paimon.schema.SchemaChange.Move.first("n")),
                org.apache.paimon.schema.SchemaChange.addColumn("c", DOUBLE(), null, org.apache.paimon.schema.SchemaChange.Move.after("c", "a")),
                org.apache.paimon.schema.SchemaChange.renameColumn("b", "b2"),
                org.apache.paimon.schema.SchemaChange.dropColumn("a")), false);
        RowType nested = RowType.of(List.of(
                new DataField(0, "x", DataTypes.integer()),
                new DataField(0, "y", new ArrayType(RowType.of(List.of(new DataField(0, "z", DataTypes.integer()))), true))));
        TableSchema altered = catalog.alterTable(Identifier.parse("db.evolved_by_tarn"), List.of(
                new SchemaChange.AddColumn("n", nested, Optional.of("nested"), ColumnPosition.first()),
                new SchemaChange.AddColumn("c", DataTypes.doubleType(), Optional.empty(), ColumnPosition.after("a")),
                new SchemaChange.RenameColumn("b", "b2"),
                new SchemaChange.DropColumn("a")));

        TableSchema byPaimon = PaimonTable.load(catalog, Identifier.parse("db.evolved_by_paimon")).latestSchema();
        TableSchema byTarn = PaimonTable.load(catalog, Identifier.parse("db.evolved_by_tarn")).latestSchema();
        assertThat(byTarn).isEqualTo(altered);
        assertThat(byTarn.id()).isEqualTo(byPaimon.id());
        assertThat(byTarn.fields()).isEqualTo(byPaimon.fields());
        assertThat(byTarn.highestFieldId()).isEqualTo(byPaimon.highestFieldId());
        assertThat(byTarn.partitionKeys()).isEqualTo(byPaimon.partitionKeys());

        // Paimon writes with the new schema; old files read the new columns as null, the dropped one not at all
        GenericRow row = GenericRow.of(GenericRow.of(7, new GenericArray(new Object[] {GenericRow.of(8)})), 2.5, BinaryString.fromString("three"), BinaryString.fromString("x"));
        paimon.write(paimon.table("evolved_by_paimon"), row);
        paimon.write(paimon.table("evolved_by_tarn"), row);
        CanonicalRows expected = ReferenceReader.read(Path.of(paimon.warehouse()), "db.evolved_by_paimon");
        assertThat(expected.rowCount()).isEqualTo(3);
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), "db.evolved_by_tarn")).isEqualTo(expected);
        assertThat(tarnRows("db.evolved_by_tarn")).isEqualTo(expected.text());
    }

    @Test
    public void testRacingChanges()
            throws Exception
    {
        paimon.create("racing", Schema.newBuilder().column("id", INT()).build());
        Identifier racing = Identifier.parse("db.racing");
        int threads = 4;
        // every thread adds its own column, and each adds one that only one of them can add
        List<SchemaChange> changes = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            changes.add(new SchemaChange.AddColumn("col" + i, DataTypes.integer(), Optional.empty(), ColumnPosition.last()));
            changes.add(new SchemaChange.AddColumn("shared", DataTypes.integer(), Optional.empty(), ColumnPosition.last()));
        }
        List<Optional<Exception>> outcomes = race(racing, changes);
        for (int i = 0; i < threads; i++) {
            assertThat(outcomes.get(2 * i)).as("adding col%s", i).isEmpty();
        }
        List<Optional<Exception>> shared = List.of(outcomes.get(1), outcomes.get(3), outcomes.get(5), outcomes.get(7));
        assertThat(shared).filteredOn(Optional::isEmpty).hasSize(1);
        assertThat(shared).filteredOn(Optional::isPresent).allSatisfy(failure -> assertThat(failure.orElseThrow())
                .isInstanceOf(ColumnAlreadyExistsException.class)
                .hasMessage("Table db.racing already has a column 'shared'"));

        // five changes landed, each in its own schema, each column with its own id
        TableSchema latest = PaimonTable.load(catalog, racing).latestSchema();
        assertThat(new SchemaManager(catalog.fileIO(), catalog.tablePath(racing), "main").listIds()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(latest.fieldNames()).containsExactlyInAnyOrder("id", "col0", "col1", "col2", "col3", "shared");
        assertThat(latest.fields().stream().map(DataField::id).toList()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
        assertThat(latest.highestFieldId()).isEqualTo(5);
        assertThat(paimon.table("racing").rowType().getFieldNames()).isEqualTo(latest.fieldNames());

        // a rename and a drop of the same column collide: the one applied second finds it gone
        List<Optional<Exception>> collided = race(racing, List.of(new SchemaChange.RenameColumn("col0", "renamed"), new SchemaChange.DropColumn("col0")));
        assertThat(collided).filteredOn(Optional::isEmpty).hasSize(1);
        assertThat(collided).filteredOn(Optional::isPresent).singleElement().satisfies(failure -> assertThat(failure.orElseThrow())
                .isInstanceOf(ColumnNotFoundException.class)
                .hasMessage("Table db.racing has no column 'col0'"));
        assertThat(PaimonTable.load(catalog, racing).latestSchema().fieldNames()).doesNotContain("col0");
    }

    /**
     * Runs each change in its own thread, all released at once; the failure of each, if any.
     */
    private List<Optional<Exception>> race(Identifier table, List<SchemaChange> changes)
            throws Exception
    {
        CyclicBarrier barrier = new CyclicBarrier(changes.size());
        ExecutorService executor = Executors.newFixedThreadPool(changes.size());
        try {
            List<Future<Optional<Exception>>> results = new ArrayList<>();
            for (SchemaChange change : changes) {
                results.add(executor.submit(() -> {
                    barrier.await(30, TimeUnit.SECONDS);
                    try {
                        catalog.alterTable(table, List.of(change));
                        return Optional.<Exception>empty();
                    }
                    catch (IOException e) {
                        return Optional.<Exception>of(e);
                    }
                }));
            }
            List<Optional<Exception>> outcomes = new ArrayList<>();
            for (Future<Optional<Exception>> result : results) {
                outcomes.add(result.get(60, TimeUnit.SECONDS));
            }
            return outcomes;
        }
        finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    public void testNotNullColumnNeedsEmptyTable()
            throws Exception
    {
        SchemaChange notNull = new SchemaChange.AddColumn("b", DataTypes.string().withNullable(false), Optional.empty(), ColumnPosition.last());
        paimon.create("empty_nn", Schema.newBuilder().column("a", INT()).build());
        catalog.alterTable(Identifier.parse("db.empty_nn"), List.of(notNull));
        FileStoreTable empty = paimon.table("empty_nn");
        assertThat(empty.rowType().getField("b").type().isNullable()).isFalse();
        paimon.write(empty, GenericRow.of(1, BinaryString.fromString("b")));
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), "db.empty_nn")).isEqualTo(CanonicalRows.of(List.of("1\tb")));

        FileStoreTable full = paimon.create("full_nn", Schema.newBuilder().column("a", INT()).build());
        paimon.write(full, GenericRow.of(1));
        assertThatThrownBy(() -> catalog.alterTable(Identifier.parse("db.full_nn"), List.of(notNull)))
                .isInstanceOf(TableNotEmptyException.class)
                .hasMessage("Unable to add NOT NULL column 'b' for non-empty table: db.full_nn");
        assertThat(new SchemaManager(catalog.fileIO(), catalog.tablePath(Identifier.parse("db.full_nn")), "main").listIds()).containsExactly(0L);
    }

    @Test
    public void testNotNullColumnRacingInsert()
            throws Exception
    {
        FileStoreTable table = paimon.create("raced_nn", Schema.newBuilder().column("a", INT()).build());
        Identifier raced = Identifier.parse("db.raced_nn");
        // an INSERT that read schema 0 commits between the emptiness check and the schema commit
        AtomicBoolean inserted = new AtomicBoolean();
        FileIO fileIO = new HookedFileIO(new LocalFileIO(), path -> {
            if (path.endsWith("/raced_nn/schema/schema-1") && !inserted.getAndSet(true)) {
                paimon.write(table, GenericRow.of(1));
            }
        }, path -> {});
        FileSystemCatalog racingCatalog = new FileSystemCatalog(fileIO, paimon.warehouse());
        assertThatThrownBy(() -> racingCatalog.alterTable(raced, List.of(new SchemaChange.AddColumn("b", DataTypes.integer().withNullable(false), Optional.empty(), ColumnPosition.last()))))
                .isInstanceOf(TableNotEmptyException.class)
                .hasMessage("Unable to add NOT NULL column 'b' for non-empty table: db.raced_nn (rows were committed concurrently; schema 2 drops the column again)");
        assertThat(inserted).isTrue();

        // the column is gone again, its id spent; both readers read the row the INSERT wrote
        TableSchema latest = PaimonTable.load(catalog, raced).latestSchema();
        assertThat(latest.id()).isEqualTo(2);
        assertThat(latest.fieldNames()).containsExactly("a");
        assertThat(latest.highestFieldId()).isEqualTo(1);
        CanonicalRows expected = CanonicalRows.of(List.of("1"));
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), "db.raced_nn")).isEqualTo(expected);
        assertThat(tarnRows("db.raced_nn")).isEqualTo(expected.text());

    }

    @Test
    public void testNotNullColumnWithInsertAfterIt()
            throws Exception
    {
        paimon.create("calm_nn", Schema.newBuilder().column("a", INT()).build());
        // an INSERT that read the new schema commits right after it: its rows fill the column
        AtomicBoolean inserted = new AtomicBoolean();
        FileIO fileIO = new HookedFileIO(new LocalFileIO(), path -> {}, path -> {
            if (path.endsWith("/calm_nn/schema/schema-1") && !inserted.getAndSet(true)) {
                paimon.write(paimon.table("calm_nn"), GenericRow.of(1, 2));
            }
        });
        TableSchema altered = new FileSystemCatalog(fileIO, paimon.warehouse()).alterTable(Identifier.parse("db.calm_nn"),
                List.of(new SchemaChange.AddColumn("b", DataTypes.integer().withNullable(false), Optional.empty(), ColumnPosition.last())));
        assertThat(inserted).isTrue();
        assertThat(altered.id()).isEqualTo(1);
        assertThat(PaimonTable.load(catalog, Identifier.parse("db.calm_nn")).latestSchema()).isEqualTo(altered);
        assertThat(ReferenceReader.read(Path.of(paimon.warehouse()), "db.calm_nn")).isEqualTo(CanonicalRows.of(List.of("1\t2")));
    }

    @Test
    public void testGivesUpAfterLosingEveryRace()
            throws Exception
    {
        paimon.create("stormy", Schema.newBuilder().column("a", INT()).build());
        Identifier stormy = Identifier.parse("db.stormy");
        SchemaManager schemas = new SchemaManager(new LocalFileIO(), catalog.tablePath(stormy), "main");
        // another writer publishes every schema id just before this change can
        FileIO fileIO = new HookedFileIO(new LocalFileIO(), path -> {
            long id = Long.parseLong(path.substring(path.lastIndexOf('-') + 1));
            assertThat(schemas.commit(schemas.latest().orElseThrow().withId(id))).isTrue();
        }, path -> {});
        assertThatThrownBy(() -> new FileSystemCatalog(fileIO, paimon.warehouse()).alterTable(stormy,
                List.of(new SchemaChange.AddColumn("b", DataTypes.integer(), Optional.empty(), ColumnPosition.last()))))
                .isInstanceOf(CommitConflictException.class)
                .hasMessage("Schema 20 of table db.stormy was written concurrently 20 times in a row; run the change again");
        assertThat(schemas.latest().orElseThrow().fieldNames()).containsExactly("a");
    }

    @Test
    public void testRefusesColumnsTheReaderCannotRead()
            throws Exception
    {
        paimon.create("deep", Schema.newBuilder().column("a", INT()).build());
        // each ARRAY nests two Parquet levels: 32 of them are one level too many
        DataType type = DataTypes.integer();
        for (int i = 0; i < 32; i++) {
            type = new ArrayType(type, true);
        }
        SchemaChange tooDeep = new SchemaChange.AddColumn("b", type, Optional.empty(), ColumnPosition.last());
        assertThatThrownBy(() -> catalog.alterTable(Identifier.parse("db.deep"), List.of(tooDeep)))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Table db.deep: column 'b' of type ")
                .hasMessageContaining("at most 64 levels can be read back");
        assertThat(new SchemaManager(catalog.fileIO(), catalog.tablePath(Identifier.parse("db.deep")), "main").listIds()).containsExactly(0L);
    }

    @Test
    public void testBadRequests()
    {
        SchemaChange drop = new SchemaChange.DropColumn("a");
        assertThatThrownBy(() -> catalog.alterTable(Identifier.parse("db.missing"), List.of(drop)))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("db.missing");
        assertThatThrownBy(() -> catalog.alterTable(Identifier.parse("db.missing"), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No schema change for table db.missing");
    }

    private String tarnRows(String name)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(name));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), lines));
        return CanonicalRowSet.of(lines).text();
    }

    private interface CreateHook
    {
        void run(String path)
                throws Exception;
    }

    /**
     * A file system that runs hooks around each atomic create, where a schema file is published:
     * the places to let a concurrent writer in.
     */
    private static final class HookedFileIO
            extends ForwardingFileIO
    {
        private final CreateHook beforeCreate;
        private final CreateHook afterCreate;

        HookedFileIO(FileIO delegate, CreateHook beforeCreate, CreateHook afterCreate)
        {
            super(delegate);
            this.beforeCreate = requireNonNull(beforeCreate, "beforeCreate is null");
            this.afterCreate = requireNonNull(afterCreate, "afterCreate is null");
        }

        @Override
        public boolean tryCreateAtomically(String path, byte[] content)
                throws IOException
        {
            run(beforeCreate, path);
            boolean created = delegate().tryCreateAtomically(path, content);
            run(afterCreate, path);
            return created;
        }

        private static void run(CreateHook hook, String path)
                throws IOException
        {
            try {
                hook.run(path);
            }
            catch (Exception e) {
                throw new IOException("Hook around creating " + path + " failed", e);
            }
        }
    }
}
