package io.tarn.testing;

import org.apache.paimon.Snapshot;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

public class TestReferenceTables
{
    private Path warehouse;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        warehouse = Files.createTempDirectory("tarn-reference-tables");
        for (ReferenceTable table : ReferenceTables.all()) {
            long start = System.nanoTime();
            ReferenceTables.create(warehouse, table);
            System.out.printf("created %s in %d ms%n", table.identifier(), (System.nanoTime() - start) / 1_000_000);
        }
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws IOException
    {
        if (warehouse != null) {
            try (Stream<Path> paths = Files.walk(warehouse)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    @DataProvider
    public Object[][] tables()
    {
        return ReferenceTables.all().stream()
                .map(table -> new Object[] {table.identifier()})
                .toArray(Object[][]::new);
    }

    @Test(dataProvider = "tables")
    public void testRowCount(String identifier)
    {
        ReferenceTable table = ReferenceTables.byIdentifier(identifier);
        CanonicalRows rows = ReferenceReader.read(warehouse, identifier);
        assertThat(rows.rowCount()).isEqualTo(table.expectedRowCount());
        // reading is repeatable
        assertThat(ReferenceReader.read(warehouse, identifier).sha256()).isEqualTo(rows.sha256());
        // the plan's raw row counts cover at least the live rows
        long plannedRows = ReferencePlan.plan(warehouse, identifier).stream().mapToLong(PlannedFile::rowCount).sum();
        assertThat(plannedRows).isGreaterThanOrEqualTo(table.expectedRowCount());
    }

    @Test
    public void testDescriptors()
    {
        assertThat(ReferenceTables.all()).extracting(ReferenceTable::identifier).doesNotHaveDuplicates();
        assertThat(ReferenceTables.all()).extracting(ReferenceTable::identifier).allMatch(name -> name.startsWith("ref."));
        for (ReferenceTable table : ReferenceTables.all()) {
            FileStoreTable loaded = ReferenceCatalog.load(warehouse, table.identifier());
            assertThat(loaded.primaryKeys()).isEqualTo(table.primaryKeys());
            assertThat(loaded.partitionKeys()).isEqualTo(table.partitionKeys());
            assertThat(ReferenceTables.snapshots(warehouse, table.identifier())).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    @Test
    public void testDeterministic()
            throws IOException
    {
        Path other = Files.createTempDirectory("tarn-reference-tables-again");
        try {
            ReferenceTables.create(other, ReferenceTables.APPEND_ALL_TYPES);
            ReferenceTables.create(other, ReferenceTables.PK_DEDUP);
            assertThat(ReferenceReader.read(other, "ref.append_all_types"))
                    .isEqualTo(ReferenceReader.read(warehouse, "ref.append_all_types"));
            assertThat(ReferenceReader.read(other, "ref.pk_dedup"))
                    .isEqualTo(ReferenceReader.read(warehouse, "ref.pk_dedup"));
        }
        finally {
            try (Stream<Path> paths = Files.walk(other)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    @Test
    public void testAllTypesValues()
    {
        CanonicalRows rows = ReferenceReader.read(warehouse, "ref.append_all_types");
        String row0 = line(rows, "0\t");
        List<String> columns = List.of(row0.split("\t", -1));
        assertThat(columns).hasSize(24);
        assertThat(columns.subList(2, 10)).containsExactly(
                "-128", "-32768", "-2147483648", "-9223372036854775808", "0.0", "0.0", "-99999999.99", "-9999999999999999999999999999.9999999999");
        assertThat(columns.get(16)).isEqualTo("1969-12-31");
        assertThat(columns.get(17)).isEqualTo("00:00");
        assertThat(columns.get(18)).isEqualTo("1969-12-31T23:59:59");
        assertThat(columns.get(19)).isEqualTo("1969-12-31T23:59:59.999");
        assertThat(columns.get(20)).matches("1969-12-31T23:59:59\\.999\\d{3}");
        assertThat(columns.get(21)).matches("1969-12-31T23:59:59\\.999\\d{6}");
        assertThat(columns.get(22)).isEqualTo("1970-01-01T00:00:12.344Z");
        assertThat(columns.get(13)).matches("0x[0-9a-f]{8}");

        List<String> row1 = List.of(line(rows, "1\t").split("\t", -1));
        assertThat(row1.subList(2, 10)).containsExactly(
                "127", "32767", "2147483647", "9223372036854775807", "-0.0", "-0.0", "99999999.99", "9999999999999999999999999999.9999999999");
        assertThat(row1.get(11)).isEqualTo("plain");
        assertThat(row1.get(17)).isEqualTo("23:59:59");
        assertThat(row1.get(19)).isEqualTo("1970-01-01T00:00:00.000");

        List<String> row2 = List.of(line(rows, "2\t").split("\t", -1));
        assertThat(row2.get(8)).isEqualTo("-211.20");
        assertThat(row2.get(9)).isEqualTo("0.0000000001");
        assertThat(row2.get(11)).isEqualTo("čšž");
        assertThat(row2.get(16)).isEqualTo("2024-02-29");
        assertThat(row2.get(17)).isEqualTo("12:30");
        assertThat(row2.get(19)).isEqualTo("2038-01-19T03:14:07.999");
        assertThat(row2.get(21)).isEqualTo("2038-01-19T03:14:07.999999999");

        assertThat(line(rows, "3\t").split("\t")[11]).isEqualTo("日本");
        assertThat(line(rows, "4\t").split("\t")[11]).isEqualTo("emoji 😀");
        assertThat(line(rows, "5\t").split("\t")[11]).isEqualTo("tab\\there");
        assertThat(line(rows, "6\t").split("\t")[11]).isEqualTo("line\\nfeed");
        assertThat(line(rows, "7\t").split("\t")[11]).isEqualTo("cr\\rhere");
        assertThat(line(rows, "8\t").split("\t")[11]).isEqualTo("back\\\\slash");
        assertThat(line(rows, "9\t").split("\t")[11]).isEqualTo("quote\"s");
        // ids 13, 22, 31, ... are NULL in every nullable column
        assertThat(line(rows, "22\t")).isEqualTo("22" + "\t\\N".repeat(23));
        assertThat(line(rows, "13\t")).isEqualTo("13" + "\t\\N".repeat(23));
    }

    @Test
    public void testAllTypesTimeTravel()
    {
        String table = "ref.append_all_types";
        NavigableMap<Long, Long> times = ReferenceTables.snapshotTimes(warehouse, table);
        assertThat(times.keySet()).containsExactly(1L, 2L, 3L);
        assertThat(times.get(1L)).isLessThan(times.get(2L));
        assertThat(times.get(2L)).isLessThan(times.get(3L));

        CanonicalRows first = ReferenceReader.read(warehouse, ReferenceScan.of(table).atSnapshot(1));
        CanonicalRows second = ReferenceReader.read(warehouse, ReferenceScan.of(table).atSnapshot(2));
        CanonicalRows latest = ReferenceReader.read(warehouse, table);
        assertThat(first.rowCount()).isEqualTo(40);
        assertThat(second.rowCount()).isEqualTo(80);
        assertThat(latest.rowCount()).isEqualTo(120);
        assertThat(latest.lines()).containsAll(second.lines());
        assertThat(second.lines()).containsAll(first.lines());

        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTag("t1"))).isEqualTo(first);
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTimestampMillis(times.get(2L)))).isEqualTo(second);
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTimestampMillis(times.get(3L) - 1))).isEqualTo(second);
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTimestampMillis(times.get(3L) + 60_000))).isEqualTo(latest);

        assertThat(ReferencePlan.plan(warehouse, ReferenceScan.of(table).atSnapshot(1))).hasSize(1);
        assertThat(ReferencePlan.plan(warehouse, table)).hasSize(3);
    }

    @Test
    public void testPartitioned()
            throws IOException
    {
        String table = "ref.append_partitioned";
        List<ReferenceSnapshot> snapshots = ReferenceTables.snapshots(warehouse, table);
        assertThat(snapshots).extracting(ReferenceSnapshot::commitKind)
                .containsExactly("APPEND", "APPEND", "APPEND", "OVERWRITE", "APPEND");
        int[] expected = {20, 35, 40, 38, 42};
        for (int i = 0; i < expected.length; i++) {
            assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atSnapshot(i + 1)).rowCount()).isEqualTo(expected[i]);
        }
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTag("after_2")).rowCount()).isEqualTo(35);
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTag("after_overwrite")).rowCount()).isEqualTo(38);

        Set<String> partitions = ReferencePlan.plan(warehouse, table).stream().map(PlannedFile::partition).collect(Collectors.toSet());
        assertThat(partitions).containsExactlyInAnyOrder(
                "2024-01-01\t1", "2024-01-01\t2", "2024-01-02\t1", "2024-01-02\t2",
                "2024-01-03\t1", "2024-01-03\t\\N", "a/b:c=d\t3", "\\N\t2");

        Path root = warehouse.resolve("ref.db").resolve("append_partitioned");
        assertThat(root.resolve("dt=a%2Fb%3Ac%3Dd").resolve("region=3").resolve("bucket-0")).isDirectory();
        assertThat(root.resolve("dt=2024-01-03").resolve("region=__DEFAULT_PARTITION__")).isDirectory();
        assertThat(root.resolve("dt=__DEFAULT_PARTITION__").resolve("region=2")).isDirectory();

        // the overwritten partition holds only the 3 rows of the OVERWRITE commit
        CanonicalRows rows = ReferenceReader.read(warehouse, table);
        assertThat(rows.lines().stream().filter(line -> line.startsWith("2024-01-02\t1\t"))).hasSize(3);
        assertThat(rows.lines()).contains("2024-01-01\t1\t3\t\\N\t3.75", "\\N\t2\t43\tname-43\t53.75");

        // filter: region = 1
        PredicateBuilder builder = ReferenceReader.predicateBuilder(warehouse, ReferenceScan.of(table));
        ReferenceScan regionOne = ReferenceScan.of(table).withFilter(builder.equal(1, 1));
        assertThat(ReferenceReader.read(warehouse, regionOne).rowCount()).isEqualTo(18);
        assertThat(ReferencePlan.plan(warehouse, regionOne)).allMatch(file -> file.partition().endsWith("\t1"));
    }

    @Test
    public void testDatePartitioned()
    {
        Path root = warehouse.resolve("ref.db").resolve("append_date_partitioned");
        // legacy partition names: the epoch day, not the date text
        assertThat(root.resolve("d=-1")).isDirectory();
        assertThat(root.resolve("d=0")).isDirectory();
        assertThat(root.resolve("d=19723")).isDirectory();
        assertThat(root.resolve("d=__DEFAULT_PARTITION__")).isDirectory();
        Set<String> partitions = ReferencePlan.plan(warehouse, "ref.append_date_partitioned").stream()
                .map(PlannedFile::partition)
                .collect(Collectors.toSet());
        assertThat(partitions).containsExactlyInAnyOrder("1969-12-31", "1970-01-01", "2024-01-01", "2024-02-29", "\\N");
        assertThat(ReferenceReader.read(warehouse, "ref.append_date_partitioned").lines()).contains("1969-12-31\t10\tv10", "\\N\t36\tv36");
    }

    @Test
    public void testBucketed()
    {
        String table = "ref.append_bucketed";
        List<PlannedFile> files = ReferencePlan.plan(warehouse, table);
        assertThat(files).extracting(PlannedFile::bucket).containsOnly(0, 1, 2, 3);
        PredicateBuilder builder = ReferenceReader.predicateBuilder(warehouse, ReferenceScan.of(table));
        ReferenceScan idSeven = ReferenceScan.of(table).withFilter(builder.equal(0, 7));
        assertThat(ReferenceReader.read(warehouse, idSeven).lines()).containsExactly("7\tk7\t49");
        // bucket pruning leaves one bucket
        assertThat(ReferencePlan.plan(warehouse, idSeven).stream().map(PlannedFile::bucket).distinct()).hasSize(1);
    }

    @Test
    public void testPkDedup()
    {
        CanonicalRows rows = ReferenceReader.read(warehouse, "ref.pk_dedup");
        assertThat(rows.lines()).contains(
                "0\t2024-01-01\tv4-0\t0",
                "3\t2024-01-01\tv2-3\t30",
                "6\t2024-01-01\tv4-6\t-6",
                "1\t2024-01-01\tv1-1\t1",
                "32\t2024-01-01\tv3-32\t32",
                "5\t2024-01-02\tv4-5\t555",
                "1\t2024-01-02\tv1-1\t1");
        assertThat(rows.lines()).noneMatch(line -> line.startsWith("10\t2024-01-02\t") || line.startsWith("0\t2024-01-02\t"));
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of("ref.pk_dedup").atSnapshot(3)).rowCount()).isEqualTo(59);
        // write-only: nothing compacted, overlapping level-0 files per bucket
        List<PlannedFile> files = ReferencePlan.plan(warehouse, "ref.pk_dedup");
        assertThat(files).allMatch(file -> file.level() == 0);
        assertThat(files.stream().filter(file -> file.partition().equals("2024-01-01") && file.bucket() == 0)).hasSizeGreaterThan(1);
    }

    @Test
    public void testPkDeletionVectors()
    {
        String table = "ref.pk_dv";
        FileStoreTable loaded = ReferenceCatalog.load(warehouse, table);
        Snapshot latest = loaded.latestSnapshot().orElseThrow();
        assertThat(latest.indexManifest()).isNotNull();
        assertThat(loaded.indexManifestFileReader().read(latest.indexManifest())).isNotEmpty();

        List<PlannedFile> files = ReferencePlan.plan(warehouse, table);
        assertThat(files).allMatch(file -> file.level() > 0);
        List<PlannedDeletionFile> deletionFiles = files.stream().flatMap(file -> file.deletionFile().stream()).toList();
        assertThat(deletionFiles).isNotEmpty();
        for (PlannedDeletionFile deletionFile : deletionFiles) {
            assertThat(deletionFile.indexFileName()).startsWith("index-").doesNotContain("/");
            assertThat(deletionFile.cardinality().orElseThrow()).isPositive();
            assertThat(warehouse.resolve("ref.db").resolve("pk_dv").resolve("index").resolve(deletionFile.indexFileName())).isRegularFile();
        }

        CanonicalRows rows = ReferenceReader.read(warehouse, table);
        assertThat(rows.lines()).contains("0\tb0\t0", "4\tb4\t400", "2\ta2\t2", "60\tc60\t60", "3\ta3\t3");
        // deleted keys are gone; the last (level-0, uncompacted) commit is not visible to batch reads
        assertThat(rows.lines()).noneMatch(line -> line.startsWith("1\t") || line.startsWith("11\t") || line.startsWith("70\t"));
    }

    @Test
    public void testMergeEngines()
    {
        CanonicalRows partial = ReferenceReader.read(warehouse, "ref.pk_partial_update");
        assertThat(partial.lines()).contains(
                "0\ta'0\t0\t0.0",
                "1\ta1\t\\N\t\\N",
                "2\ta2\t4\t\\N",
                "3\ta3\t\\N\t0.75",
                "12\ta'12\t24\t3.0",
                "24\tnew24\t24\t24.5");

        CanonicalRows aggregation = ReferenceReader.read(warehouse, "ref.pk_aggregation");
        assertThat(aggregation.rowCount()).isEqualTo(25);
        // id, sum(total), max(highest), min(lowest), last_non_null_value(label), worked by hand from the generator's formulas
        assertThat(aggregation.lines()).contains(
                "0\t2\t26\t0.0\tlabel-2-0",
                "3\t62\t47\t4.0\tlabel-2-3",
                "6\t183\t42\t0.5\tlabel-2-6",
                "22\t221\t17\t2.5\tlabel-1-22",
                "24\t483\t44\t0.0\tlabel-2-24");

        CanonicalRows firstRow = ReferenceReader.read(warehouse, "ref.pk_first_row");
        assertThat(firstRow.lines()).contains("0\tfirst-0", "15\tfirst-15", "19\tfirst-19", "20\tsecond-20", "29\tsecond-29");
        assertThat(firstRow.lines()).noneMatch(line -> line.contains("second-1"));
    }

    @Test
    public void testNested()
    {
        CanonicalRows rows = ReferenceReader.read(warehouse, "ref.append_nested");
        // id % 10: 1 -> arr_int NULL, 2 -> arr_int empty, 3 -> arr_str NULL, 5 -> map NULL, 7 -> row NULL
        assertThat(line(rows, "1\t").split("\t")[1]).isEqualTo("\\N");
        assertThat(line(rows, "12\t").split("\t")[1]).isEqualTo("[]");
        assertThat(line(rows, "23\t").split("\t")[2]).isEqualTo("\\N");
        assertThat(line(rows, "35\t").split("\t")[3]).isEqualTo("\\N");
        assertThat(line(rows, "17\t").split("\t")[4]).isEqualTo("\\N");
        assertThat(rows.lines()).anyMatch(line -> line.contains(",null") || line.contains("[null"));
        assertThat(rows.lines()).anyMatch(line -> line.contains("\"q\\\"uote\""));
        assertThat(ReferenceReader.rowType(warehouse, ReferenceScan.of("ref.append_nested")).getFieldNames())
                .containsExactly("id", "arr_int", "arr_str", "m", "r");
    }

    @Test
    public void testEvolved()
    {
        String table = "ref.append_evolved";
        List<PlannedFile> files = ReferencePlan.plan(warehouse, table);
        assertThat(files.stream().map(PlannedFile::schemaId).distinct().count()).isGreaterThanOrEqualTo(2);
        assertThat(files).extracting(PlannedFile::schemaId).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L);

        RowType latest = ReferenceReader.rowType(warehouse, ReferenceScan.of(table));
        assertThat(latest.getFieldNames()).containsExactly("d", "id", "a", "b_renamed");
        assertThat(latest.getTypeAt(2)).isEqualTo(DataTypes.BIGINT());

        CanonicalRows rows = ReferenceReader.read(warehouse, table);
        assertThat(rows.lines()).contains(
                "\\N\t0\t0\tb0",
                "d10\t10\t30\tb10",
                "d20\t20\t60\tbr20",
                "d59\t59\t5000000059\tbr59");

        // time travel reads the schema of the snapshot
        ReferenceScan first = ReferenceScan.of(table).atSnapshot(1);
        assertThat(ReferenceReader.rowType(warehouse, first).getFieldNames()).containsExactly("id", "a", "b", "c");
        assertThat(ReferenceReader.read(warehouse, first).lines()).contains("3\t9\tb3\t1.5");
    }

    @Test
    public void testFileIndexes()
    {
        List<PlannedFile> embedded = ReferencePlan.plan(warehouse, "ref.append_file_index");
        assertThat(embedded).hasSize(3);
        assertThat(embedded).allMatch(PlannedFile::embeddedIndex);
        assertThat(embedded).allMatch(file -> file.extraFiles().isEmpty());

        List<PlannedFile> separate = ReferencePlan.plan(warehouse, "ref.append_file_index_files");
        assertThat(separate).hasSize(3);
        Path bucket = warehouse.resolve("ref.db").resolve("append_file_index_files").resolve("bucket-0");
        for (PlannedFile file : separate) {
            assertThat(file.embeddedIndex()).isFalse();
            assertThat(file.extraFiles()).containsExactly(file.fileName() + ".index");
            assertThat(bucket.resolve(file.fileName() + ".index")).isRegularFile();
        }
        assertThat(ReferenceReader.read(warehouse, "ref.append_file_index"))
                .isEqualTo(ReferenceReader.read(warehouse, "ref.append_file_index_files"));
    }

    @Test
    public void testZorder()
    {
        String table = "ref.append_zorder";
        assertThat(ReferencePlan.plan(warehouse, table)).hasSize(8);
        PredicateBuilder builder = ReferenceReader.predicateBuilder(warehouse, ReferenceScan.of(table));
        ReferenceScan corner = ReferenceScan.of(table).withFilter(PredicateBuilder.and(builder.equal(0, -8), builder.equal(1, -8)));
        // min/max stats of z-ordered files leave a single file for a point query
        assertThat(ReferencePlan.plan(warehouse, corner)).hasSize(1);
        assertThat(ReferenceReader.read(warehouse, corner).lines()).containsExactly("-8\t-8\tp(-8,-8)");
        assertThat(ReferenceTables.zValue(-8, -8)).isLessThan(ReferenceTables.zValue(-8, -7));
        assertThat(Long.compareUnsigned(ReferenceTables.zValue(-1, -1), ReferenceTables.zValue(0, 0))).isLessThan(0);
        // x = 0b...0001 and y = 0 interleave to z = 0b10 in the lowest bits after the flipped sign bits
        assertThat(ReferenceTables.zValue(1, 0) - ReferenceTables.zValue(0, 0)).isEqualTo(2);
        assertThat(ReferenceTables.zValue(0, 1) - ReferenceTables.zValue(0, 0)).isEqualTo(1);
    }

    @Test
    public void testTagsExpirationAndBranch()
    {
        String table = "ref.time_travel";
        assertThat(ReferenceTables.snapshots(warehouse, table)).extracting(ReferenceSnapshot::id).containsExactly(4L, 5L);
        assertThat(ReferenceReader.read(warehouse, table).rowCount()).isEqualTo(50);
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atSnapshot(4)).rowCount()).isEqualTo(40);

        // t_old points at expired snapshot 2
        CanonicalRows old = ReferenceReader.read(warehouse, ReferenceScan.of(table).atTag("t_old"));
        assertThat(old.rowCount()).isEqualTo(20);
        assertThat(old.lines()).allMatch(line -> line.endsWith("\t1") || line.endsWith("\t2"));
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of(table).atTag("t_latest")).rowCount()).isEqualTo(50);

        CanonicalRows branch = ReferenceReader.read(warehouse, ReferenceScan.of(table).onBranch("b1"));
        assertThat(branch.rowCount()).isEqualTo(25);
        assertThat(branch.lines()).containsAll(old.lines());
        assertThat(branch.lines()).contains("1000\tc100-1000\t100");
        assertThat(ReferencePlan.plan(warehouse, ReferenceScan.of(table).onBranch("b1"))).hasSize(3);
        assertThat(warehouse.resolve("ref.db").resolve("time_travel").resolve("branch").resolve("branch-b1")).isDirectory();
    }

    private static String line(CanonicalRows rows, String prefix)
    {
        List<String> matches = rows.lines().stream().filter(line -> line.startsWith(prefix)).toList();
        assertThat(matches).as("lines starting with %s", prefix).hasSize(1);
        return matches.get(0);
    }
}
