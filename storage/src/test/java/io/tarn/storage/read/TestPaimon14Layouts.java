package io.tarn.storage.read;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.RowTrackingTables;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.BlobData;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.variant.GenericVariant;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The table layouts Apache Paimon 1.4 writes: Tarn reads those it knows with exactly Paimon's
 * rows, and refuses the others with an error naming the table and the feature.
 */
public class TestPaimon14Layouts
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
    public void testRowTrackingReadsLikePaimon()
            throws Exception
    {
        FileStoreTable table = paimon.create("row_tracking", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .option("row-tracking.enabled", "true")
                .build());
        for (int commit = 0; commit < 3; commit++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                rows.add(GenericRow.of(commit * 100 + i, BinaryString.fromString("row " + commit + "-" + i)));
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
        }

        PaimonTable tarnTable = tarnTable("row_tracking");
        Snapshot snapshot = tarnTable.snapshot(new ScanVersion.Latest()).orElseThrow();
        assertThat(snapshot.nextRowId()).contains(60L);
        ScanPlan plan = new ScanPlanner(tarnTable).plan(Optional.of(snapshot));
        assertThat(plan.splits()).isNotEmpty();
        assertThat(plan.files()).allMatch(file -> file.file().firstRowId().isPresent());
        assertThat(tarnRows("row_tracking")).isEqualTo(ReferenceReader.read(Path.of(paimon.warehouse()), "db.row_tracking").text());

    }

    @DataProvider
    public Object[][] fileFormats()
    {
        return new Object[][] {{"parquet"}, {"orc"}, {"avro"}};
    }

    /**
     * {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} as Paimon's row-tracking view of the table
     * gives them: first from the files' metadata (first row id plus position, the file's largest
     * sequence number), then, after a compaction rewrote the files, as the files store them; the
     * row ids stay those the rows were first given. A filter reads the tracking columns of its
     * matching rows only (late materialization), at their positions in the file.
     */
    @Test(dataProvider = "fileFormats")
    public void testRowTrackingColumnsReadLikePaimon(String format)
            throws Exception
    {
        String name = "row_tracking_columns_" + format;
        FileStoreTable table = createRowTrackingTable(name, format);
        // Paimon 1.4.2 fails to read the row-tracking columns of Avro files (an index out of
        // bounds in DataFileRecordReader's row-based path), so it can neither compact such a
        // table nor be the oracle: a Parquet twin written by the same commits, whose row ids and
        // sequence numbers are the same, is
        boolean avro = format.equals("avro");
        String oracleName = avro ? name + "_twin" : name;
        FileStoreTable oracle = avro ? createRowTrackingTable(oracleName, "parquet") : table;
        for (int commit = 0; commit < 4; commit++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                rows.add(GenericRow.of(commit * 100 + i, BinaryString.fromString("row " + commit + "-" + i)));
            }
            writeBoth(table, oracle, rows.toArray(InternalRow[]::new));
        }
        assertThat(rowTrackingRows(name, Optional.empty())).isEqualTo(paimonRowTrackingRows(oracleName, id -> true));

        // a compaction rewrites the four files into one that stores both columns
        if (!avro) {
            RowTrackingTables.compact(table);
        }
        writeBoth(table, oracle, GenericRow.of(1000, BinaryString.fromString("after compaction")), GenericRow.of(1001, null));
        PaimonTable tarnTable = tarnTable(name);
        ScanPlan plan = new ScanPlanner(tarnTable).plan(tarnTable.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).anyMatch(file -> file.file().writeCols().isEmpty());
        if (!avro) {
            assertThat(plan.files()).anyMatch(file -> file.file().writeCols().orElse(List.of()).contains("_ROW_ID"));
        }
        assertThat(plan.files()).allMatch(file -> file.file().fileName().endsWith("." + format));

        assertThat(rowTrackingRows(name, Optional.empty())).isEqualTo(paimonRowTrackingRows(oracleName, id -> true));
        Predicate filter = Predicates.greaterOrEqual(FieldRef.of(tarnTable.schema().fields().get(0)), 210);
        assertThat(rowTrackingRows(name, Optional.of(filter)))
                .isEqualTo(paimonRowTrackingRows(oracleName, id -> id >= 210));

        // a table that does not track rows has no such columns
        paimon.write(paimon.create("not_row_tracking_" + format, Schema.newBuilder().column("id", DataTypes.INT()).build()), GenericRow.of(1));
        PaimonTable plain = tarnTable("not_row_tracking_" + format);
        assertThat(RowTrackingFields.of(plain.name(), plain.schema())).isEmpty();
        assertThatThrownBy(() -> read(plain, new ScanPlanner(plain).plan(plain.snapshot(new ScanVersion.Latest())), ReadRequest.of(List.of(RowTrackingFields.ROW_ID))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.not_row_tracking_" + format + " does not track rows");
    }

    private FileStoreTable createRowTrackingTable(String name, String format)
            throws Exception
    {
        return paimon.create(name, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .option("row-tracking.enabled", "true")
                .option("file.format", format)
                .option("compaction.min.file-num", "3")
                .build());
    }

    private void writeBoth(FileStoreTable table, FileStoreTable oracle, InternalRow... rows)
            throws Exception
    {
        paimon.write(table, rows);
        if (oracle != table) {
            paimon.write(oracle, rows);
        }
    }

    @Test
    public void testDataEvolutionIsRefused()
            throws Exception
    {
        FileStoreTable table = paimon.create("data_evolution", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .option("row-tracking.enabled", "true")
                .option("data-evolution.enabled", "true")
                .build());
        paimon.write(table, GenericRow.of(1, BinaryString.fromString("one")), GenericRow.of(2, BinaryString.fromString("two")));
        assertRefused("data_evolution", "data-evolution.enabled");
    }

    @Test
    public void testBlobColumnIsRefused()
            throws Exception
    {
        FileStoreTable table = paimon.create("blob", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("picture", DataTypes.BLOB())
                .option("row-tracking.enabled", "true")
                .option("data-evolution.enabled", "true")
                .build());
        paimon.write(table, GenericRow.of(1, new BlobData(new byte[] {1, 2, 3})));
        assertThatThrownBy(() -> tarnRows("blob"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.blob")
                .hasMessageContaining("BLOB");
    }

    @Test
    public void testVectorColumnIsRefused()
            throws Exception
    {
        // Paimon 1.4 keeps VECTOR columns in vector files (Lance), which this oracle cannot write:
        // the schema file is Paimon's own serialization of a schema with a VECTOR column
        FileStoreTable table = paimon.create("vector", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("embedding", DataTypes.ARRAY(DataTypes.FLOAT()))
                .build());
        TableSchema schema = table.schema();
        List<DataField> fields = new ArrayList<>(schema.fields());
        fields.set(1, fields.get(1).newType(DataTypes.VECTOR(3, DataTypes.FLOAT())));
        TableSchema withVector = new TableSchema(schema.version(), schema.id(), fields, schema.highestFieldId(), schema.partitionKeys(), schema.primaryKeys(),
                schema.options(), schema.comment(), schema.timeMillis());
        Files.writeString(Path.of(paimon.tableRoot("vector"), "schema", "schema-0"), withVector.toString());
        assertThat(TableSchema.fromJson(withVector.toString()).fields().get(1).type()).isEqualTo(DataTypes.VECTOR(3, DataTypes.FLOAT()));
        assertThatThrownBy(() -> tarnRows("vector"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.vector")
                .hasMessageContaining("VECTOR");
    }

    @Test
    public void testVariantColumnIsRefusedButOtherColumnsRead()
            throws Exception
    {
        FileStoreTable table = paimon.create("variant", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("payload", DataTypes.VARIANT())
                .build());
        paimon.write(table, GenericRow.of(1, GenericVariant.fromJson("{\"a\": 1, \"b\": [true, null]}")), GenericRow.of(2, null));
        assertThatThrownBy(() -> tarnRows("variant"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.variant")
                .hasMessageContaining("VARIANT");
        // without the VARIANT column, the table reads
        PaimonTable tarnTable = tarnTable("variant");
        ScanPlan plan = new ScanPlanner(tarnTable).plan(tarnTable.snapshot(new ScanVersion.Latest()));
        ReadRequest request = ReadRequest.of(List.of(tarnTable.schema().fields().get(0)));
        assertThat(read(tarnTable, plan, request)).isEqualTo("1\n2\nrows=2 sha256=" + CanonicalRowSet.of(List.of("1", "2")).sha256() + "\n");
    }

    @Test
    public void testPostponeBucketReadsLikePaimon()
            throws Exception
    {
        // postpone.batch-write-fixed-bucket (Paimon 1.4, default true) is for engines' batch jobs
        FileStoreTable fixed = paimon.create("postpone_fixed", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "-2")
                .build());
        paimon.write(fixed, GenericRow.of(1, BinaryString.fromString("a")), GenericRow.of(2, BinaryString.fromString("b")));
        paimon.write(fixed, GenericRow.of(1, BinaryString.fromString("c")), GenericRow.ofKind(RowKind.DELETE, 2, null));
        assertThat(tarnRows("postpone_fixed")).isEqualTo(ReferenceReader.read(Path.of(paimon.warehouse()), "db.postpone_fixed").text());

        // without it, they stay in the postpone bucket, which batch reads do not see
        FileStoreTable postponed = paimon.create("postpone", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "-2")
                .option("postpone.batch-write-fixed-bucket", "false")
                .build());
        paimon.write(postponed, GenericRow.of(1, BinaryString.fromString("a")));
        assertThat(Files.isDirectory(Path.of(paimon.tableRoot("postpone"), "bucket-postpone"))).isTrue();
        assertThat(tarnRows("postpone")).isEqualTo(ReferenceReader.read(Path.of(paimon.warehouse()), "db.postpone").text());
    }

    @Test
    public void testDeletionVectorsTurnedOnReadLikePaimon()
            throws Exception
    {
        // Paimon 1.4 lets deletion vectors be switched on and off with deletion-vectors.modifiable
        FileStoreTable table = paimon.create("dv_switched", Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .option("deletion-vectors.modifiable", "true")
                .build());
        paimon.write(table, GenericRow.of(1, BinaryString.fromString("a")), GenericRow.of(2, BinaryString.fromString("b")));
        paimon.compact(table);
        paimon.write(table, GenericRow.of(1, BinaryString.fromString("c")));
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create("db", "dv_switched"), SchemaChange.setOption("deletion-vectors.enabled", "true"), false);
        assertThat(tarnRows("dv_switched")).as("switched on, before a commit").isEqualTo(ReferenceReader.read(Path.of(paimon.warehouse()), "db.dv_switched").text());
        paimon.write(paimon.table("dv_switched"), GenericRow.of(2, BinaryString.fromString("d")));
        assertThat(tarnRows("dv_switched")).as("switched on, after a commit").isEqualTo(ReferenceReader.read(Path.of(paimon.warehouse()), "db.dv_switched").text());
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create("db", "dv_switched"), SchemaChange.setOption("deletion-vectors.enabled", "false"), false);
        assertThat(tarnRows("dv_switched")).as("switched off again").isEqualTo(ReferenceReader.read(Path.of(paimon.warehouse()), "db.dv_switched").text());
    }

    @Test
    public void testUnknownDataFileFormatIsRefused()
            throws Exception
    {
        FileStoreTable table = paimon.create("lance_file", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .build());
        paimon.write(table, GenericRow.of(1));
        // the manifest of the only commit names its data file with a .lance extension instead
        PaimonTable tarnTable = tarnTable("lance_file");
        Snapshot snapshot = tarnTable.snapshot(new ScanVersion.Latest()).orElseThrow();
        ManifestFileMeta manifest = tarnTable.readManifestList(snapshot.deltaManifestList()).get(0);
        List<ManifestEntry> renamed = new ArrayList<>();
        for (ManifestEntry entry : tarnTable.readManifest(manifest.fileName())) {
            DataFileMeta file = entry.file();
            String name = file.fileName().replace(".parquet", ".lance");
            renamed.add(new ManifestEntry(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), new DataFileMeta(
                    name, file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(), file.minSequenceNumber(),
                    file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTime(), file.deleteRowCount(), file.embeddedIndex(),
                    file.fileSource(), file.valueStatsCols(), file.externalPath(), file.firstRowId(), file.writeCols())));
        }
        Files.write(Path.of(paimon.tableRoot("lance_file"), "manifest", manifest.fileName()), ManifestFile.write(renamed));

        // a new catalog, whose manifest cache has not seen the manifest before
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
        assertThatThrownBy(() -> tarnRows("lance_file"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db.lance_file")
                .hasMessageContaining(".lance")
                .hasMessageContaining("'lance'");
    }

    private void assertRefused(String table, String option)
    {
        assertThatThrownBy(() -> tarnRows(table))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("db." + table)
                .hasMessageContaining(option);
    }

    private PaimonTable tarnTable(String name)
            throws IOException
    {
        return PaimonTable.load(catalog, new Identifier("db", name));
    }

    private String tarnRows(String name)
            throws IOException
    {
        PaimonTable table = tarnTable(name);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        return read(table, plan, ReadRequest.of(plan.readSchema().fields()));
    }

    private String rowTrackingRows(String name, Optional<Predicate> filter)
            throws IOException
    {
        return RowTrackingReads.rows(tarnTable(name), filter, allocator);
    }

    /**
     * Paimon's row-tracking view of the table, of the rows whose id (the first column) passes
     * {@code ids}.
     */
    private String paimonRowTrackingRows(String table, IntPredicate ids)
    {
        List<String> lines = ReferenceReader.readWithRowTracking(Path.of(paimon.warehouse()), "db." + table).lines().stream()
                .filter(line -> ids.test(Integer.parseInt(line.substring(0, line.indexOf('\t')))))
                .toList();
        return CanonicalRowSet.of(lines).text();
    }

    private String read(PaimonTable table, ScanPlan plan, ReadRequest request)
            throws IOException
    {
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }
}
