package io.tarn.storage.read;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.types.DataField;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GE;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LE;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.Op.NE;
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static io.tarn.storage.scan.FilterSpec.in;
import static io.tarn.storage.scan.FilterSpec.isNotNull;
import static io.tarn.storage.scan.FilterSpec.isNull;
import static io.tarn.storage.scan.FilterSpec.or;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables that Apache Paimon 1.3.1 writes in ORC ({@code file.format=orc}) read by Tarn with the
 * canonical rows Paimon's own reader returns: every type (nested, NULLs, NaN, infinities, -0.0,
 * dates and timestamps before 1970) under every codec, schema evolution (added, renamed, dropped
 * and widened columns), primary-key tables with deletion vectors and by merge-on-read; full
 * reads, projections and filtered reads.
 */
public class TestOrcTablesAgainstPaimon
{
    private static final List<String> CODECS = List.of("zlib", "zstd", "snappy", "lz4", "none");

    private PaimonTables paimon;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
            throws Exception
    {
        paimon = new PaimonTables();
        allocator = new RootAllocator();
        for (String codec : CODECS) {
            FileStoreTable table = paimon.create("all_types_" + codec, schema(OrcTestRows.ALL_TYPES, Map.of("file.compression", codec)));
            OrcTestRows rows = new OrcTestRows(codec.hashCode());
            paimon.write(table, rows.rows(OrcTestRows.ALL_TYPES, 0, 150).toArray(InternalRow[]::new));
            paimon.write(table, rows.rows(OrcTestRows.ALL_TYPES, 150, 90).toArray(InternalRow[]::new));
        }
        createEvolved();
        createPrimaryKeyTables();
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
    }

    private static Schema schema(RowType rowType, Map<String, String> options)
    {
        Schema.Builder builder = Schema.newBuilder();
        rowType.getFields().forEach(field -> builder.column(field.name(), field.type()));
        builder.option("file.format", "orc");
        options.forEach(builder::option);
        return builder.build();
    }

    /**
     * Schemas 0..4: (id, a INT, b STRING, c DOUBLE), then d added, b renamed to b2, c dropped, a
     * widened to BIGINT; one commit under each.
     */
    private void createEvolved()
            throws Exception
    {
        FileStoreTable table = paimon.create("evolved", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .column("c", DataTypes.DOUBLE())
                .option("file.format", "orc")
                .build());
        paimon.write(table, GenericRow.of(1, 10, BinaryString.fromString("one"), 1.5), GenericRow.of(2, null, BinaryString.fromString("two"), Double.NaN));
        table = alter("evolved", SchemaChange.addColumn("d", DataTypes.STRING()));
        paimon.write(table, GenericRow.of(3, -30, BinaryString.fromString("three"), -0.0, BinaryString.fromString("d3")));
        table = alter("evolved", SchemaChange.renameColumn("b", "b2"));
        paimon.write(table, GenericRow.of(4, 40, BinaryString.fromString("four"), 4.0, null));
        table = alter("evolved", SchemaChange.dropColumn("c"));
        paimon.write(table, GenericRow.of(5, Integer.MIN_VALUE, null, BinaryString.fromString("d5")));
        table = alter("evolved", SchemaChange.updateColumnType("a", DataTypes.BIGINT()));
        paimon.write(table, GenericRow.of(6, Long.MAX_VALUE, BinaryString.fromString("six"), BinaryString.fromString("d6")));
    }

    private FileStoreTable alter(String table, SchemaChange change)
            throws Exception
    {
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create("db", table), change, false);
        return paimon.table(table);
    }

    private void createPrimaryKeyTables()
            throws Exception
    {
        RowType rowType = RowType.of(
                new org.apache.paimon.types.DataField(0, "id", DataTypes.INT().notNull()),
                new org.apache.paimon.types.DataField(1, "name", DataTypes.STRING()),
                new org.apache.paimon.types.DataField(2, "v", DataTypes.BIGINT()),
                new org.apache.paimon.types.DataField(3, "ts", DataTypes.TIMESTAMP(6)),
                new org.apache.paimon.types.DataField(4, "tags", DataTypes.ARRAY(DataTypes.STRING())));
        for (boolean deletionVectors : new boolean[] {true, false}) {
            Schema.Builder builder = Schema.newBuilder();
            rowType.getFields().forEach(field -> builder.column(field.name(), field.type()));
            builder.primaryKey("id").option("bucket", "1").option("file.format", "orc");
            if (deletionVectors) {
                builder.option("deletion-vectors.enabled", "true");
            }
            else {
                builder.option("write-only", "true");
            }
            String name = deletionVectors ? "pk_dv" : "pk_mor";
            FileStoreTable table = paimon.create(name, builder.build());
            OrcTestRows values = new OrcTestRows(name.hashCode());
            List<InternalRow> rows = new ArrayList<>();
            for (int id = 0; id < 80; id++) {
                rows.add(pkRow(RowKind.INSERT, id, "a", values));
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
            if (deletionVectors) {
                paimon.compact(table);
            }
            rows.clear();
            for (int id = 0; id < 80; id += 3) {
                rows.add(pkRow(RowKind.UPDATE_AFTER, id, "b", values));
            }
            for (int id = 1; id < 80; id += 7) {
                rows.add(pkRow(RowKind.DELETE, id, "a", values));
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
            rows.clear();
            for (int id = 75; id < 90; id++) {
                rows.add(pkRow(RowKind.INSERT, id, "c", values));
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
        }
    }

    private static GenericRow pkRow(RowKind kind, int id, String version, OrcTestRows values)
    {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(version + id), (long) id * 10 - 400,
                values.value(DataTypes.TIMESTAMP(6)), values.value(DataTypes.ARRAY(DataTypes.STRING())));
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

    @DataProvider
    public Object[][] tables()
    {
        List<Object[]> tables = new ArrayList<>();
        CODECS.forEach(codec -> tables.add(new Object[] {"all_types_" + codec}));
        tables.add(new Object[] {"evolved"});
        tables.add(new Object[] {"pk_dv"});
        tables.add(new Object[] {"pk_mor"});
        return tables.toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testFullReadsLikePaimon(String table)
            throws IOException
    {
        assertThat(tarnRows(table, Optional.empty(), Optional.empty()))
                .isEqualTo(ReferenceReader.read(warehouse(), "db." + table).text());
    }

    @DataProvider
    public Object[][] projections()
    {
        return new Object[][] {
                {"all_types_zstd", List.of("ts9", "id", "r", "ms")},
                {"all_types_zlib", List.of("mm", "c", "dec38")},
                {"all_types_none", List.of("deep")},
                {"evolved", List.of("d", "b2")},
                {"evolved", List.of("a")},
                {"pk_dv", List.of("tags", "v")},
                {"pk_mor", List.of("name")},
        };
    }

    @Test(dataProvider = "projections")
    public void testProjectionsLikePaimon(String table, List<String> columns)
            throws Exception
    {
        assertThat(tarnRows(table, Optional.of(columns), Optional.empty()))
                .isEqualTo(paimonProjection(table, columns));
    }

    @DataProvider
    public Object[][] filters()
    {
        return new Object[][] {
                {"all_types_zstd", compare("i", GT, 0)},
                {"all_types_zstd", compare("dec", LT, new BigDecimal("0.00"))},
                {"all_types_snappy", or(isNull("s"), compare("s", EQ, "plain"))},
                {"all_types_lz4", and(compare("bi", GE, 0L), isNotNull("vc"))},
                {"all_types_none", in("si", (short) -1, Short.MAX_VALUE, Short.MIN_VALUE)},
                {"all_types_zlib", compare("d", LT, 1.0)},
                {"all_types_zlib", compare("vc", NE, "v3")},
                {"all_types_zstd", compare("dt", LE, 0)},
                {"evolved", compare("a", GT, 10L)},
                {"evolved", isNull("d")},
                {"pk_dv", compare("v", GT, 0L)},
                {"pk_dv", compare("name", EQ, "b3")},
                {"pk_mor", compare("v", LT, 100L)},
        };
    }

    @Test(dataProvider = "filters")
    public void testFilteredReadsLikePaimon(String table, FilterSpec filter)
            throws IOException
    {
        ReferenceScan unfiltered = ReferenceScan.of("db." + table);
        ReferenceScan scan = unfiltered.withFilter(filter.paimon(ReferenceReader.rowType(warehouse(), unfiltered)));
        assertThat(tarnRows(table, Optional.empty(), Optional.of(filter)))
                .as("%s WHERE %s", table, filter)
                .isEqualTo(ReferenceReader.read(warehouse(), scan).text());
    }

    private Path warehouse()
    {
        return Path.of(paimon.warehouse());
    }

    private String tarnRows(String tableName, Optional<List<String>> projection, Optional<FilterSpec> filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db." + tableName), PaimonTable.MAIN_BRANCH);
        ScanPlanner planner = new ScanPlanner(table);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get().tarn(table.schema()));
        }
        ScanPlan plan = planner.plan(table.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).allSatisfy(file -> assertThat(file.file().fileName()).endsWith(".orc"));
        if (tableName.equals("pk_dv")) {
            // the case this table is about: files read with deletion vectors
            assertThat(plan.files()).anySatisfy(file -> assertThat(file.deletionFile()).isPresent());
        }
        List<DataField> columns = plan.readSchema().fields();
        if (projection.isPresent()) {
            columns = projection.get().stream()
                    .map(name -> table.schema().rowType().field(name).orElseThrow())
                    .toList();
        }
        ReadRequest request = ReadRequest.of(columns).withBatchSize(13);
        if (filter.isPresent()) {
            request = request.withFilter(filter.get().tarn(table.schema()));
        }
        ReadRequest finalRequest = request;
        List<String> lines = new ArrayList<>();
        Counters counters = TableRead.forEachBatch(table, plan, finalRequest, allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, finalRequest.columns(), lines));
        assertThat(counters.get(Counter.FILES_READ)).as("files read").isPositive();
        return CanonicalRowSet.of(lines).text();
    }

    private String paimonProjection(String tableName, List<String> columns)
            throws Exception
    {
        FileStoreTable table = paimon.table(tableName);
        RowType rowType = table.rowType();
        int[] indexes = columns.stream().mapToInt(rowType::getFieldIndex).toArray();
        RowType projected = rowType.project(indexes);
        ReadBuilder readBuilder = table.newReadBuilder().withProjection(indexes);
        List<String> lines = new ArrayList<>();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(readBuilder.newScan().plan().splits())) {
            reader.forEachRemaining(row -> lines.add(CanonicalValueFormatter.formatRow(row, projected)));
        }
        return CanonicalRows.of(lines).text();
    }
}
