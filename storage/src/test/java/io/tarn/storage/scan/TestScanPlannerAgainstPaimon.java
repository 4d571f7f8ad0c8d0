package io.tarn.storage.scan;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.PlannedDeletionFile;
import io.tarn.testing.PlannedFile;
import io.tarn.testing.ReferencePlan;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceSubsetReader;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TableVersion;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

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
 * Scan planning against Apache Paimon's own planner on every reference table: the same live files
 * (with levels, row counts and deletion-vector ranges) for every snapshot, tag, timestamp and
 * branch; and under filters, never a file too few (reading only Tarn's files with Paimon's reader
 * gives the oracle's rows) and never more files than Paimon plans.
 */
public class TestScanPlannerAgainstPaimon
{
    private Path warehouse;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-scan-planner");
        ReferenceTables.createAll(warehouse);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @DataProvider
    public Object[][] tables()
    {
        return ReferenceTables.all().stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testLiveFilesEqualPaimonsPlan(ReferenceTable table)
            throws IOException
    {
        List<ReferenceScan> scans = new ArrayList<>();
        ReferenceScan latest = ReferenceScan.of(table.identifier());
        scans.add(latest);
        List<ReferenceSnapshot> snapshots = ReferenceTables.snapshots(warehouse, table.identifier());
        for (ReferenceSnapshot snapshot : snapshots) {
            scans.add(latest.atSnapshot(snapshot.id()));
            scans.add(latest.atTimestampMillis(snapshot.timeMillis()));
        }
        for (String tag : table.tags()) {
            scans.add(latest.atTag(tag));
        }
        for (String branch : table.branches()) {
            scans.add(latest.onBranch(branch));
        }
        assertThat(scans).hasSizeGreaterThan(2);
        for (ReferenceScan scan : scans) {
            List<PlannedFile> expected = withoutPartition(ReferencePlan.plan(warehouse, scan));
            ScanPlan plan = tarnPlan(scan, Optional.empty());
            List<PlannedFile> actual = withoutPartition(plan.files().stream().map(TestScanPlannerAgainstPaimon::toReference).toList());
            assertThat(actual).as("%s at %s", table.identifier(), scan.version() + scan.branch().map(branch -> " on branch " + branch).orElse(""))
                    .isEqualTo(expected);

            // entries filtered while reading: the same plan and counters as the rules applied after merging
            PaimonTable paimonTable = table(scan);
            ScanPlan merged = new ScanPlanner(paimonTable).withoutEntryFiltering().plan(paimonTable.snapshot(version(scan.version())));
            assertThat(plan.splits()).isEqualTo(merged.splits());
            assertThat(plan.metrics().with(Counter.ENTRIES_READ, 0)).isEqualTo(merged.metrics().with(Counter.ENTRIES_READ, 0));
        }
    }

    @DataProvider
    public Object[][] filters()
    {
        LocalDate day = LocalDate.of(2024, 1, 2);
        return new Object[][] {
                {"ref.append_partitioned", compare("dt", EQ, "2024-01-01")},
                {"ref.append_partitioned", compare("region", GT, 1)},
                {"ref.append_partitioned", and(compare("dt", EQ, "2024-01-03"), compare("id", LT, 30))},
                {"ref.append_partitioned", isNull("dt")},
                {"ref.append_partitioned", isNull("region")},
                {"ref.append_partitioned", compare("amount", GT, 40.0)},
                {"ref.append_partitioned", or(compare("dt", EQ, "a/b:c=d"), compare("id", EQ, 3))},
                {"ref.append_partitioned", compare("dt", NE, "2024-01-01")},
                {"ref.append_date_partitioned", compare("d", EQ, (int) day.toEpochDay())},
                {"ref.append_date_partitioned", compare("d", GE, (int) day.toEpochDay())},
                {"ref.append_bucketed", compare("id", EQ, 7)},
                {"ref.append_bucketed", in("id", 1, 2, 3)},
                {"ref.append_bucketed", and(compare("id", EQ, 7), compare("v", GT, 0L))},
                {"ref.append_all_types", compare("f_int", GT, 0)},
                {"ref.append_all_types", compare("f_string", EQ, "abc")},
                {"ref.append_all_types", compare("f_decimal_10_2", LT, new BigDecimal("0.00"))},
                {"ref.append_all_types", compare("id", LE, 5)},
                {"ref.append_all_types", isNotNull("f_bigint")},
                {"ref.append_zorder", and(compare("x", LT, -4), compare("y", LT, -4))},
                {"ref.append_zorder", compare("x", EQ, 3)},
                {"ref.append_zorder", or(compare("x", GE, 6), compare("y", GE, 6))},
                {"ref.append_evolved", compare("id", GT, 10)},
                // indexed columns: embedded Bloom filters and bitmaps skip files in planning, as in Paimon's planner
                {"ref.append_file_index", compare("name", EQ, "name-1010")},
                {"ref.append_file_index", compare("name", EQ, "name-1005x")},
                {"ref.append_file_index", in("id", 5, 1010, 1011)},
                {"ref.append_file_index", compare("category", EQ, "cat-1-2")},
                {"ref.append_file_index", compare("category", EQ, "cat-1-2x")},
                {"ref.append_file_index", or(compare("category", EQ, "cat-0-3"), compare("name", EQ, "name-1010"))},
                {"ref.append_file_index", isNull("category")},
                {"ref.append_file_index_files", compare("name", EQ, "name-1010")},
                {"ref.append_file_index_files", compare("category", EQ, "cat-1-2")},
                {"ref.pk_dedup", compare("dt", EQ, "2024-01-01")},
                {"ref.pk_dedup", compare("id", EQ, 3)},
                {"ref.pk_dedup", compare("v", GT, 100L)},
                {"ref.pk_dv", compare("id", LT, 10)},
                {"ref.pk_dv", compare("v", GT, 50L)},
                {"ref.pk_partial_update", compare("b", GT, 5)},
                {"ref.pk_aggregation", compare("total", GT, 10L)},
                {"ref.pk_first_row", compare("id", EQ, 1)},
                {"ref.pk_first_row", compare("v", EQ, "x")},
        };
    }

    @Test(dataProvider = "filters")
    public void testFilteredPlanKeepsEveryMatchAndSkipsWhatPaimonSkips(String tableName, FilterSpec filter)
            throws IOException
    {
        ReferenceScan unfiltered = ReferenceScan.of(tableName);
        ReferenceScan scan = unfiltered.withFilter(filter.paimon(ReferenceReader.rowType(warehouse, unfiltered)));
        PaimonTable table = table(scan);
        ScanPlan plan = new ScanPlanner(table).withFilter(filter.tarn(table.schema())).plan(table.snapshot(new ScanVersion.Latest()));
        Set<String> tarnFiles = plan.files().stream().map(file -> file.file().fileName()).collect(Collectors.toSet());
        Set<String> paimonFiles = ReferencePlan.plan(warehouse, scan).stream().map(PlannedFile::fileName).collect(Collectors.toSet());
        int allFiles = ReferencePlan.plan(warehouse, unfiltered).size();
        System.out.printf("%s WHERE %s: %d files, Paimon plans %d, Tarn plans %d (%s)%n", tableName, filter, allFiles, paimonFiles.size(), tarnFiles.size(), plan.metrics().asMap());

        CanonicalRows expected = ReferenceReader.read(warehouse, scan);
        assertThat(ReferenceSubsetReader.readFiles(warehouse, scan, tarnFiles).text())
                .as("rows matching %s read from the files Tarn planned", filter)
                .isEqualTo(expected.text());
        assertThat(paimonFiles).as("Paimon plans every file Tarn plans").containsAll(tarnFiles);
        assertThat(plan.metrics().get(Counter.FILES_PLANNED)).isEqualTo(tarnFiles.size());

        // entries filtered while reading: the same plan and counters as the rules applied after merging
        ScanPlan merged = new ScanPlanner(table).withFilter(filter.tarn(table.schema())).withoutEntryFiltering().plan(table.snapshot(new ScanVersion.Latest()));
        assertThat(plan.splits()).isEqualTo(merged.splits());
        assertThat(plan.metrics().with(Counter.ENTRIES_READ, 0)).isEqualTo(merged.metrics().with(Counter.ENTRIES_READ, 0));
        assertThat(plan.metrics().get(Counter.ENTRIES_READ)).isLessThanOrEqualTo(merged.metrics().get(Counter.ENTRIES_READ));
    }

    @Test
    public void testPruningRulesEachSkipFiles()
            throws IOException
    {
        assertThat(metrics("ref.append_partitioned", compare("dt", EQ, "2024-01-01")).get(Counter.FILES_SKIPPED_BY_PARTITION)).isPositive();
        assertThat(metrics("ref.append_bucketed", compare("id", EQ, 7)).get(Counter.FILES_SKIPPED_BY_BUCKET)).isPositive();
        assertThat(metrics("ref.append_zorder", and(compare("x", LT, -4), compare("y", LT, -4))).get(Counter.FILES_SKIPPED_BY_STATS)).isPositive();
        assertThat(metrics("ref.pk_dedup", compare("id", EQ, 3)).get(Counter.FILES_SKIPPED_BY_STATS)).isPositive();
        assertThat(metrics("ref.append_file_index", compare("name", EQ, "name-1005x")).get(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX)).isEqualTo(2);
        Counters deletionVectorTable = tarnPlan(ReferenceScan.of("ref.pk_dv"), Optional.empty()).metrics();
        assertThat(deletionVectorTable.get(Counter.MANIFESTS_SKIPPED_BY_LEVEL) + deletionVectorTable.get(Counter.FILES_SKIPPED_BY_LEVEL)).isPositive();
    }

    private Counters metrics(String tableName, FilterSpec filter)
            throws IOException
    {
        return tarnPlan(ReferenceScan.of(tableName), Optional.of(filter)).metrics();
    }

    private ScanPlan tarnPlan(ReferenceScan scan, Optional<FilterSpec> filter)
            throws IOException
    {
        PaimonTable table = table(scan);
        ScanPlanner planner = new ScanPlanner(table);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get().tarn(table.schema()));
        }
        return planner.plan(table.snapshot(version(scan.version())));
    }

    private PaimonTable table(ReferenceScan scan)
            throws IOException
    {
        return PaimonTable.load(catalog, Identifier.parse(scan.table()), scan.branch().orElse(PaimonTable.MAIN_BRANCH));
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

    private static PlannedFile toReference(io.tarn.storage.scan.PlannedFile file)
    {
        return new PlannedFile(
                "",
                file.bucket(),
                file.file().fileName(),
                file.file().level(),
                file.file().rowCount(),
                file.file().schemaId(),
                file.file().extraFiles(),
                file.file().embeddedIndex() != null,
                file.deletionFile().map(deletion -> new PlannedDeletionFile(deletion.indexFileName(), deletion.offset(), deletion.length(), deletion.cardinality())));
    }

    private static List<PlannedFile> withoutPartition(List<PlannedFile> files)
    {
        return files.stream()
                .map(file -> new PlannedFile("", file.bucket(), file.fileName(), file.level(), file.rowCount(), file.schemaId(), file.extraFiles(), file.embeddedIndex(), file.deletionFile()))
                .sorted(Comparator.comparing(PlannedFile::fileName))
                .toList();
    }
}
