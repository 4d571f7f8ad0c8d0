package io.tarn.storage.read;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceLayout;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TableVersion;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
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
 * Tarn reads every reference table (append tables, primary-key tables read raw and by
 * merge-on-read) at every snapshot, tag, timestamp and branch, and under filters, with
 * exactly the canonical rows Apache Paimon's own reader returns.
 */
public class TestTableReadAgainstPaimon
{
    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        allocator = new RootAllocator();
        catalog = openLake(readableTables());
    }

    /**
     * Has Apache Paimon write {@code tables} into a warehouse, and opens the catalog Tarn reads
     * them through: by default a local directory ({@link #warehouse()}).
     */
    protected FileSystemCatalog openLake(List<ReferenceTable> tables)
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-read");
        for (ReferenceTable table : tables) {
            ReferenceTables.create(warehouse, table, layout());
        }
        return new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    /**
     * The local warehouse of {@link #openLake}'s default.
     */
    protected Path warehouse()
    {
        return warehouse;
    }

    /**
     * The formats Paimon writes the tables' data files in.
     */
    protected ReferenceLayout layout()
    {
        return ReferenceLayout.PARQUET;
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws IOException
    {
        closeLake();
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    /**
     * Releases what an override of {@link #openLake} started.
     */
    protected void closeLake()
            throws IOException
    {}

    private static List<ReferenceTable> readableTables()
    {
        return ReferenceTables.all();
    }

    @DataProvider
    public Object[][] tables()
    {
        return readableTables().stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testEveryVersionReadsLikePaimon(ReferenceTable table)
            throws IOException
    {
        ReferenceScan latest = ReferenceScan.of(table.identifier());
        List<ReferenceScan> scans = new ArrayList<>();
        scans.add(latest);
        for (ReferenceSnapshot snapshot : oracleSnapshots(table.identifier())) {
            scans.add(latest.atSnapshot(snapshot.id()));
        }
        table.tags().forEach(tag -> scans.add(latest.atTag(tag)));
        table.branches().forEach(branch -> scans.add(latest.onBranch(branch)));
        for (ReferenceScan scan : scans) {
            assertThat(tarnRows(scan, Optional.empty()))
                    .as("%s at %s%s", table.identifier(), scan.version(), scan.branch().map(branch -> " on branch " + branch).orElse(""))
                    .isEqualTo(oracleRows(scan));
        }
    }

    @DataProvider
    public Object[][] filters()
    {
        return new Object[][] {
                {"ref.append_partitioned", compare("dt", EQ, "2024-01-01")},
                {"ref.append_partitioned", and(compare("region", GT, 1), compare("amount", LT, 30.0))},
                {"ref.append_partitioned", or(isNull("dt"), isNull("name"))},
                {"ref.append_partitioned", compare("name", NE, "name-3")},
                {"ref.append_bucketed", in("id", 1, 2, 3, 40)},
                {"ref.append_all_types", compare("f_int", GT, 0)},
                {"ref.append_all_types", compare("f_decimal_10_2", LT, new BigDecimal("0.00"))},
                {"ref.append_all_types", isNotNull("f_string")},
                // Paimon orders NaN above every number: on it, LT agrees with SQL, GE does not (see below)
                {"ref.append_all_types", compare("f_double", LT, 1.0)},
                {"ref.append_zorder", and(compare("x", LT, -4), compare("y", LE, -4))},
                {"ref.append_evolved", compare("id", GT, 10)},
                {"ref.pk_dv", compare("v", GT, 50L)},
                {"ref.pk_dv", compare("name", EQ, "b4")},
                {"ref.pk_first_row", compare("id", LT, 5)},
                {"ref.pk_dedup", compare("v", GT, 50L)},
                {"ref.pk_dedup", compare("name", EQ, "v2-3")},
                {"ref.pk_dedup", and(compare("dt", EQ, "2024-01-02"), compare("id", LT, 12))},
                {"ref.pk_partial_update", isNull("b")},
                {"ref.pk_partial_update", compare("c", GE, 1.0)},
                {"ref.pk_aggregation", compare("total", GT, 10L)},
                {"ref.pk_aggregation", isNotNull("label")},
        };
    }

    @Test(dataProvider = "filters")
    public void testFilteredReadsLikePaimon(String tableName, FilterSpec filter)
            throws IOException
    {
        ReferenceScan unfiltered = ReferenceScan.of(tableName);
        ReferenceScan scan = unfiltered.withFilter(filter.paimon(oracleRowType(unfiltered)));
        String expected = oracleRows(scan);
        // a filter that keeps every row or none could not tell a reader that ignores it
        assertThat(rowCount(expected)).as("rows %s WHERE %s keeps", tableName, filter)
                .isPositive()
                .isLessThan(rowCount(oracleRows(unfiltered)));
        assertThat(tarnRows(unfiltered, Optional.of(filter)))
                .as("%s WHERE %s", tableName, filter)
                .isEqualTo(expected);
    }

    // the rows of canonical text: its lines but the closing summary
    private static long rowCount(String canonicalText)
    {
        return canonicalText.lines().count() - 1;
    }

    /**
     * Tarn compares FLOAT / DOUBLE as SQL does (-0.0 = 0.0, NaN unordered), Paimon by
     * {@link Double#compare} (-0.0 below 0.0, NaN above everything). The rows of SQL's
     * {@code x >= 0.0} are those of Paimon's {@code x >= -0.0 AND x <= Infinity}, and those of
     * {@code x <> 0.0} (NaN included) of Paimon's {@code x < -0.0 OR x > 0.0}.
     */
    @DataProvider
    public Object[][] floatingPointFilters()
    {
        return new Object[][] {
                {compare("f_double", GE, 0.0), and(compare("f_double", GE, -0.0), compare("f_double", LE, Double.POSITIVE_INFINITY))},
                {compare("f_double", LE, -0.0), compare("f_double", LE, 0.0)},
                {compare("f_double", EQ, 0.0), and(compare("f_double", GE, -0.0), compare("f_double", LE, 0.0))},
                {compare("f_double", NE, 0.0), or(compare("f_double", LT, -0.0), compare("f_double", GT, 0.0))},
                {compare("f_float", EQ, -0.0f), and(compare("f_float", GE, -0.0f), compare("f_float", LE, 0.0f))},
                {compare("f_float", GT, 1.0f), and(compare("f_float", GT, 1.0f), compare("f_float", LE, Float.POSITIVE_INFINITY))},
        };
    }

    @Test(dataProvider = "floatingPointFilters")
    public void testFloatingPointFiltersFollowSql(FilterSpec tarnFilter, FilterSpec paimonEquivalent)
            throws IOException
    {
        ReferenceScan unfiltered = ReferenceScan.of("ref.append_all_types");
        ReferenceScan scan = unfiltered.withFilter(paimonEquivalent.paimon(oracleRowType(unfiltered)));
        assertThat(tarnRows(unfiltered, Optional.of(tarnFilter)))
                .as("WHERE %s, as Paimon's WHERE %s", tarnFilter, paimonEquivalent)
                .isEqualTo(oracleRows(scan));
    }

    /**
     * The canonical rows Tarn's read of {@code scan} must equal: Paimon's reader's.
     */
    protected String oracleRows(ReferenceScan scan)
    {
        return ReferenceReader.read(warehouse, scan).text();
    }

    /**
     * The snapshots of {@code table}'s main branch, as Paimon lists them.
     */
    protected List<ReferenceSnapshot> oracleSnapshots(String table)
    {
        return ReferenceTables.snapshots(warehouse, table);
    }

    /**
     * The row type of the version {@code scan} reads, which Paimon's side of a filter binds to.
     */
    protected RowType oracleRowType(ReferenceScan scan)
    {
        return ReferenceReader.rowType(warehouse, scan);
    }

    private String tarnRows(ReferenceScan scan, Optional<FilterSpec> filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(scan.table()), scan.branch().orElse(PaimonTable.MAIN_BRANCH));
        ScanPlanner planner = new ScanPlanner(table);
        ReadRequest request = ReadRequest.of(table.schema().fields());
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get().tarn(table.schema()));
            request = request.withFilter(filter.get().tarn(table.schema()));
        }
        ScanPlan plan = planner.plan(table.snapshot(version(scan.version())));
        ReadRequest finalRequest = filter.isPresent() ? request : ReadRequest.of(plan.readSchema().fields());
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, finalRequest.withBatchSize(7), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, finalRequest.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }

    private static ScanVersion version(TableVersion version)
    {
        return switch (version.kind()) {
            case LATEST -> new ScanVersion.Latest();
            case SNAPSHOT -> new ScanVersion.SnapshotId(version.snapshotId());
            case TAG -> new ScanVersion.TagName(version.tagName());
            case TIMESTAMP -> new ScanVersion.TimestampMillis(version.timestampMillis());
        };
    }
}
