package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferencePlan;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.RowTrackingTables;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.predicate.PredicateBuilder;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every reference table written by Apache Paimon, read through Trino, against Paimon's own
 * reading of it.
 */
public class TestTarnConnectorReads
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-reads");
        ReferenceTables.createAll(warehouse);
        RowTrackingTables.write(warehouse, "tracking.events", 3, 10);
        runner = TarnQueryRunner.create(warehouse, Map.of("tarn.dynamic-filtering.wait-timeout", "20s", "tarn.dynamic-filtering.small-scan-size", "0B"));
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (runner != null) {
            runner.close();
            runner = null;
        }
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
            warehouse = null;
        }
    }

    @DataProvider
    public Object[][] referenceTables()
    {
        return ReferenceTables.all().stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "referenceTables")
    public void testSelectAll(ReferenceTable table)
    {
        CanonicalRows expected = ReferenceReader.read(warehouse, table.identifier());
        assertThat(selectAll(table.tableName(), "")).isEqualTo(expected);
    }

    @Test
    public void testFilteredQueriesMatchPaimon()
    {
        ReferenceScan scan = ReferenceScan.of(ReferenceTables.APPEND_ALL_TYPES.identifier());
        PredicateBuilder builder = ReferenceReader.predicateBuilder(warehouse, scan);
        assertThat(selectAll("append_all_types", " WHERE id < 50"))
                .isEqualTo(ReferenceReader.read(warehouse, scan.withFilter(builder.lessThan(0, 50))));

        ReferenceScan partitioned = ReferenceScan.of(ReferenceTables.APPEND_PARTITIONED.identifier());
        PredicateBuilder partitionBuilder = ReferenceReader.predicateBuilder(warehouse, partitioned);
        int dt = ReferenceReader.rowType(warehouse, partitioned).getFieldIndex("dt");
        assertThat(selectAll("append_partitioned", " WHERE dt = '2024-01-02'"))
                .isEqualTo(ReferenceReader.read(warehouse, partitioned.withFilter(partitionBuilder.equal(dt, BinaryString.fromString("2024-01-02")))));
        assertThat(selectAll("append_partitioned", " WHERE dt IS NULL"))
                .isEqualTo(ReferenceReader.read(warehouse, partitioned.withFilter(partitionBuilder.isNull(dt))));

        ReferenceScan zorder = ReferenceScan.of(ReferenceTables.APPEND_ZORDER.identifier());
        PredicateBuilder zorderBuilder = ReferenceReader.predicateBuilder(warehouse, zorder);
        int x = ReferenceReader.rowType(warehouse, zorder).getFieldIndex("x");
        int y = ReferenceReader.rowType(warehouse, zorder).getFieldIndex("y");
        assertThat(selectAll("append_zorder", " WHERE x BETWEEN 2 AND 3 AND y > 5"))
                .isEqualTo(ReferenceReader.read(warehouse, zorder.withFilter(PredicateBuilder.and(
                        zorderBuilder.greaterOrEqual(x, 2), zorderBuilder.lessOrEqual(x, 3), zorderBuilder.greaterThan(y, 5)))));
    }

    @Test
    public void testProjectionMatchesPaimon()
    {
        CanonicalRows all = ReferenceReader.read(warehouse, ReferenceTables.APPEND_ALL_TYPES.identifier());
        MaterializedResult shape = runner.execute("SELECT * FROM append_all_types LIMIT 0");
        int string = shape.getColumnNames().indexOf("f_string");
        int decimal = shape.getColumnNames().indexOf("f_decimal_38_10");
        List<String> expected = all.lines().stream()
                .map(line -> line.split("\t", -1))
                .map(fields -> fields[decimal] + "\t" + fields[string])
                .toList();
        MaterializedResult result = runner.execute("SELECT f_decimal_38_10, f_string FROM append_all_types");
        assertThat(TrinoCanonicalRows.of(result)).isEqualTo(CanonicalRows.of(expected));
    }

    @Test
    public void testRowFieldDereferenceIsPushedDown()
    {
        CanonicalRows all = ReferenceReader.read(warehouse, ReferenceTables.APPEND_NESTED.identifier());
        MaterializedResult shape = runner.execute("SELECT * FROM append_nested LIMIT 0");
        int row = shape.getColumnNames().indexOf("r");
        List<String> expected = all.lines().stream()
                .map(line -> line.split("\t", -1)[row])
                .map(TestTarnConnectorReads::secondRowField)
                .toList();
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT r.y FROM append_nested"))).isEqualTo(CanonicalRows.of(expected));
        assertThat(explain("SELECT r.y FROM append_nested")).contains("r.y");
    }

    // "{1,"text"}" -> text as a top-level value; a null row or field -> \N
    private static String secondRowField(String row)
    {
        if (row.equals("\\N")) {
            return row;
        }
        String field = row.substring(row.indexOf(',') + 1, row.length() - 1);
        if (field.equals("null")) {
            return "\\N";
        }
        String unquoted = field.substring(1, field.length() - 1)
                .replace("\\\"", "\"");
        return unquoted;
    }

    @Test
    public void testTimeTravel()
    {
        String allTypes = ReferenceTables.APPEND_ALL_TYPES.identifier();
        assertThat(selectAll("append_all_types FOR VERSION AS OF 1", ""))
                .isEqualTo(ReferenceReader.read(warehouse, ReferenceScan.of(allTypes).atSnapshot(1)));
        assertThat(selectAll("append_all_types FOR VERSION AS OF 't1'", ""))
                .isEqualTo(ReferenceReader.read(warehouse, ReferenceScan.of(allTypes).atTag("t1")));

        // the snapshot of tag t_old has expired; the tag still reads
        String timeTravel = ReferenceTables.TIME_TRAVEL.identifier();
        assertThat(selectAll("time_travel FOR VERSION AS OF 't_old'", ""))
                .isEqualTo(ReferenceReader.read(warehouse, ReferenceScan.of(timeTravel).atTag("t_old")));
        assertThat(selectAll("time_travel FOR VERSION AS OF 't_old'", "").rowCount()).isEqualTo(20);

        long snapshot4 = ReferenceTables.snapshotTimes(warehouse, timeTravel).get(4L);
        String literal = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(snapshot4));
        assertThat(selectAll("time_travel FOR TIMESTAMP AS OF TIMESTAMP '" + literal + " UTC'", ""))
                .isEqualTo(ReferenceReader.read(warehouse, ReferenceScan.of(timeTravel).atTimestampMillis(snapshot4)));
        assertThat(selectAll("time_travel FOR TIMESTAMP AS OF TIMESTAMP '" + literal + " UTC'", "").rowCount()).isEqualTo(40);
    }

    /**
     * A branch reads as the table {@code "t$branch_b1"}, as Paimon's engines spell it, with time
     * travel and metadata tables; writing to it fails before anything is written.
     */
    @Test
    public void testBranchReads()
    {
        String timeTravel = ReferenceTables.TIME_TRAVEL.identifier();
        CanonicalRows branch = ReferenceReader.read(warehouse, ReferenceScan.of(timeTravel).onBranch("b1"));
        assertThat(selectAll("\"time_travel$branch_b1\"", "")).isEqualTo(branch);
        assertThat(branch.rowCount()).isEqualTo(25);
        assertThat(selectAll("\"time_travel$branch_B1\"", "")).isEqualTo(branch);
        assertThat(runner.execute("SELECT total_record_count FROM \"time_travel$branch_b1$snapshots\" ORDER BY snapshot_id DESC LIMIT 1").getOnlyValue())
                .isEqualTo((long) branch.rowCount());
        assertThat(runner.execute("SELECT count(*) FROM \"time_travel$branch_b1\" WHERE id >= 1000").getOnlyValue()).isEqualTo(5L);
        // the branch starts from a copy of the snapshot of tag t_old
        long firstBranchSnapshot = (long) runner.execute("SELECT min(snapshot_id) FROM \"time_travel$branch_b1$snapshots\"").getOnlyValue();
        assertThat(selectAll("\"time_travel$branch_b1\" FOR VERSION AS OF " + firstBranchSnapshot, ""))
                .isEqualTo(ReferenceReader.read(warehouse, ReferenceScan.of(timeTravel).atTag("t_old")));

        assertThatThrownBy(() -> runner.execute("SELECT * FROM \"time_travel$branch_nope\""))
                .hasMessageContaining("does not exist");
        assertFailsWithCode("INSERT INTO \"time_travel$branch_b1\" SELECT * FROM time_travel", "NOT_SUPPORTED", "does not write or alter");
        assertFailsWithCode("ALTER TABLE \"time_travel$branch_b1\" ADD COLUMN extra INTEGER", "NOT_SUPPORTED", "does not write or alter");
        assertFailsWithCode("DROP TABLE \"time_travel$branch_b1\"", "NOT_SUPPORTED", "does not write or alter");
        assertThat(selectAll("\"time_travel$branch_b1\"", "")).isEqualTo(branch);
        assertThat(selectAll("time_travel", "")).isEqualTo(ReferenceReader.read(warehouse, timeTravel));
    }

    @Test
    public void testUnknownVersions()
    {
        assertFailsWithCode("SELECT * FROM time_travel FOR VERSION AS OF 999", "TARN_UNKNOWN_SNAPSHOT", "999");
        assertFailsWithCode("SELECT * FROM time_travel FOR VERSION AS OF 'no_such_tag'", "TARN_UNKNOWN_SNAPSHOT", "no_such_tag");
        // snapshot 2 expired: only its tag keeps it readable
        assertFailsWithCode("SELECT * FROM time_travel FOR VERSION AS OF 2", "TARN_UNKNOWN_SNAPSHOT", "time_travel");
    }

    private void assertFailsWithCode(String query, String errorCode, String messagePart)
    {
        assertThatThrownBy(() -> runner.execute(query))
                .hasMessageContaining(messagePart);
        MaterializedResult failures = runner.execute("SELECT error_code FROM system.runtime.queries WHERE query = '" + query.replace("'", "''") + "' AND state = 'FAILED'");
        assertThat(failures.getOnlyColumnAsSet()).contains(errorCode);
    }

    @Test
    public void testMetadata()
    {
        assertThat(runner.execute("SHOW SCHEMAS").getOnlyColumnAsSet()).contains("ref");
        assertThat(runner.execute("SHOW TABLES").getOnlyColumnAsSet())
                .containsAll(ReferenceTables.all().stream().map(ReferenceTable::tableName).toList());
        Map<Object, Object> types = new HashMap<>();
        for (MaterializedRow row : runner.execute("DESCRIBE append_all_types").getMaterializedRows()) {
            types.put(row.getField(0), row.getField(1));
        }
        assertThat(types).containsEntry("f_tinyint", "tinyint")
                .containsEntry("f_float", "real")
                .containsEntry("f_decimal_38_10", "decimal(38,10)")
                .containsEntry("f_char", "char(5)")
                .containsEntry("f_varchar", "varchar(20)")
                .containsEntry("f_string", "varchar")
                .containsEntry("f_binary", "varbinary")
                .containsEntry("f_date", "date")
                .containsEntry("f_time", "time(0)")
                .containsEntry("f_ts9", "timestamp(9)")
                .containsEntry("f_ltz6", "timestamp(6) with time zone");
        assertThat(runner.execute("SELECT count(*) FROM information_schema.columns WHERE table_schema = 'ref' AND table_name = 'append_all_types'").getOnlyValue())
                .isEqualTo((long) types.size());

        String partitioned = (String) runner.execute("SHOW CREATE TABLE append_partitioned").getOnlyValue();
        assertThat(partitioned).contains("partitioned_by = ARRAY['dt','region']");
        String primaryKey = (String) runner.execute("SHOW CREATE TABLE pk_dedup").getOnlyValue();
        assertThat(primaryKey).contains("primary_key = ARRAY['id','dt']").contains("bucket = 2");
        String bucketed = (String) runner.execute("SHOW CREATE TABLE append_bucketed").getOnlyValue();
        assertThat(bucketed).contains("bucket = 4").contains("bucket_key = ARRAY['id']");
        String indexed = (String) runner.execute("SHOW CREATE TABLE append_file_index").getOnlyValue();
        assertThat(indexed).contains("file_index_bitmap_columns = ARRAY['category']");
        // Trino (476, 483) prints no map-valued property: the other options are in $options
        assertThat(bucketed).doesNotContain("options");
        assertThat(runner.execute("SELECT value FROM \"append_bucketed$options\" WHERE key = 'write-only'").getOnlyValue()).isEqualTo("true");
    }

    @Test
    public void testPartitionFilterIsEnforced()
    {
        String query = "SELECT * FROM append_partitioned WHERE dt = '2024-01-02'";
        assertThat(explain(query)).doesNotContain("filterPredicate");
        String analyzed = explainAnalyze(query);
        assertThat(analyzed).contains("files_skipped_partition");
    }

    @Test
    public void testStatisticsSkipFiles()
    {
        String analyzed = explainAnalyze("SELECT * FROM append_zorder WHERE x = 3 AND y = -2");
        assertThat(counter(analyzed, "planning.files_skipped_stats")).isGreaterThan(0);
    }

    @Test
    public void testIndexFilesSkipFilesBeforeTheyBecomeSplits()
    {
        // the files hold ids 0-49, 1000-1049 and 2000-2049; name statistics keep two files for
        // "name-1010", whose Bloom filters then rule out one of them in planning
        String query = "SELECT * FROM append_file_index_files WHERE name = 'name-1010'";
        ReferenceScan scan = ReferenceScan.of(ReferenceTables.APPEND_FILE_INDEX_FILES.identifier());
        int name = ReferenceReader.rowType(warehouse, scan).getFieldIndex("name");
        assertThat(selectAll("append_file_index_files", " WHERE name = 'name-1010'"))
                .isEqualTo(ReferenceReader.read(warehouse, scan.withFilter(ReferenceReader.predicateBuilder(warehouse, scan).equal(name, BinaryString.fromString("name-1010")))));
        String analyzed = explainAnalyze(query);
        assertThat(counter(analyzed, "planning.index_files_read")).as(analyzed).isEqualTo(2);
        assertThat(counter(analyzed, "planning.files_skipped_index_file")).as(analyzed).isEqualTo(1);
        assertThat(counter(analyzed, "splits")).as(analyzed).isEqualTo(1);
        assertThat(counter(analyzed, "files_read")).as(analyzed).isEqualTo(1);
    }

    @Test
    public void testDynamicFilterSkipsFiles()
    {
        // the build side is one value (7) the optimizer cannot compute in advance: only the
        // dynamic filter x = 7 can prune files of the probe side by statistics
        String query = "SELECT count(*) FROM append_zorder z JOIN (SELECT max(y) AS m FROM append_zorder WHERE x = 3) w ON z.x = w.m";
        assertThat(runner.execute(query).getOnlyValue()).isEqualTo(16L);
        String analyzed = explainAnalyze(query);
        // the splits generation metrics of the probe-side scan, the one that waited for the dynamic filter
        String probe = Arrays.stream(analyzed.split("splits generation metrics:"))
                .skip(1)
                .map(block -> block.split("\n\\s*metrics:")[0])
                .filter(block -> block.contains("'planning.dynamic_filter_used' = LongCount{total=1}"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No scan used a dynamic filter:\n" + analyzed));
        assertThat(counter(probe, "planning.files_skipped_stats")).as(analyzed).isGreaterThan(0);
    }

    @Test
    public void testCountStarFromManifests()
    {
        for (ReferenceTable table : List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_PARTITIONED, ReferenceTables.PK_DV)) {
            String query = "SELECT count(*) FROM " + table.tableName();
            assertThat(explain(query)).as(query).doesNotContain("Aggregate");
            assertThat(runner.execute(query).getOnlyValue()).isEqualTo((long) ReferenceReader.read(warehouse, table.identifier()).rowCount());
        }
        ReferenceScan partitioned = ReferenceScan.of(ReferenceTables.APPEND_PARTITIONED.identifier());
        int dt = ReferenceReader.rowType(warehouse, partitioned).getFieldIndex("dt");
        String query = "SELECT count(*) FROM append_partitioned WHERE dt = '2024-01-02'";
        assertThat(explain(query)).doesNotContain("Aggregate");
        assertThat(runner.execute(query).getOnlyValue()).isEqualTo((long) ReferenceReader.read(warehouse,
                partitioned.withFilter(ReferenceReader.predicateBuilder(warehouse, partitioned).equal(dt, BinaryString.fromString("2024-01-02")))).rowCount());
        // a filter on a data column is not answered from manifests
        assertThat(explain("SELECT count(*) FROM append_all_types WHERE id < 10")).contains("Aggregate");
        // merge-on-read tables count by reading
        assertThat(runner.execute("SELECT count(*) FROM pk_dedup").getOnlyValue())
                .isEqualTo((long) ReferenceReader.read(warehouse, ReferenceTables.PK_DEDUP.identifier()).rowCount());
    }

    @Test
    public void testLimit()
    {
        assertThat(runner.execute("SELECT * FROM append_bucketed LIMIT 7").getRowCount()).isEqualTo(7);
        // a limit just below the row count needs every split but the last rows
        for (ReferenceTable table : List.of(ReferenceTables.APPEND_PARTITIONED, ReferenceTables.PK_DV, ReferenceTables.PK_DEDUP)) {
            int rows = ReferenceReader.read(warehouse, table.identifier()).rowCount();
            assertThat(runner.execute("SELECT * FROM " + table.tableName() + " LIMIT " + (rows - 1)).getRowCount()).as(table.tableName()).isEqualTo(rows - 1);
        }
    }

    @Test
    public void testShowStats()
    {
        CanonicalRows rows = ReferenceReader.read(warehouse, ReferenceTables.APPEND_ZORDER.identifier());
        MaterializedResult stats = runner.execute("SHOW STATS FOR append_zorder");
        MaterializedRow total = stats.getMaterializedRows().stream().filter(row -> row.getField(0) == null).findFirst().orElseThrow();
        assertThat(total.getField(4)).isEqualTo((double) rows.rowCount());
        MaterializedRow x = stats.getMaterializedRows().stream().filter(row -> "x".equals(row.getField(0))).findFirst().orElseThrow();
        assertThat(x.getField(3)).isEqualTo(0.0);
        assertThat(x.getField(5)).isEqualTo("-8");
        assertThat(x.getField(6)).isEqualTo("7");
    }

    @Test
    public void testMetadataTables()
    {
        String timeTravel = ReferenceTables.TIME_TRAVEL.identifier();
        List<ReferenceSnapshot> snapshots = ReferenceTables.snapshots(warehouse, timeTravel);
        List<String> expectedSnapshots = snapshots.stream()
                .map(snapshot -> snapshot.id() + "\t" + snapshot.schemaId() + "\t" + snapshot.commitKind() + "\t" + snapshot.totalRecordCount())
                .toList();
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT snapshot_id, schema_id, commit_kind, total_record_count FROM \"time_travel$snapshots\"")))
                .isEqualTo(CanonicalRows.of(expectedSnapshots));
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT tag_name, snapshot_id FROM \"time_travel$tags\"")))
                .isEqualTo(CanonicalRows.of(List.of("t_old\t2", "t_latest\t5")));
        assertThat(runner.execute("SELECT count(*) FROM \"append_evolved$schemas\"").getOnlyValue()).isEqualTo(6L);
        assertThat(runner.execute("SELECT value FROM \"append_bucketed$options\" WHERE key = 'bucket'").getOnlyValue()).isEqualTo("4");

        for (ReferenceTable table : List.of(ReferenceTables.APPEND_PARTITIONED, ReferenceTables.PK_DV, ReferenceTables.APPEND_BUCKETED)) {
            List<String> expectedFiles = ReferencePlan.plan(warehouse, table.identifier()).stream()
                    .map(file -> file.bucket() + "\t" + file.fileName() + "\t" + file.rowCount())
                    .toList();
            assertThat(TrinoCanonicalRows.of(runner.execute("SELECT bucket, regexp_extract(file_path, '[^/]+$'), record_count FROM \"" + table.tableName() + "$files\"")))
                    .as(table.tableName())
                    .isEqualTo(CanonicalRows.of(expectedFiles));
        }
        long partitionedRows = ReferenceReader.read(warehouse, ReferenceTables.APPEND_PARTITIONED.identifier()).rowCount();
        assertThat(runner.execute("SELECT sum(record_count) FROM \"append_partitioned$partitions\"").getOnlyValue()).isEqualTo(partitionedRows);
        assertThat(runner.execute("SELECT count(*) FROM \"append_partitioned$partitions\"").getOnlyValue())
                .isEqualTo(ReferencePlan.plan(warehouse, ReferenceTables.APPEND_PARTITIONED.identifier()).stream().map(file -> file.partition()).distinct().count());
        assertThat(runner.execute("SELECT sum(record_count), count(*) FROM \"append_bucketed$buckets\"").getMaterializedRows().get(0).getFields())
                .containsExactly(150L, ReferencePlan.plan(warehouse, ReferenceTables.APPEND_BUCKETED.identifier()).stream().map(file -> file.bucket()).distinct().count());
        assertThat((long) runner.execute("SELECT count(*) FROM \"append_partitioned$manifests\"").getOnlyValue()).isGreaterThan(0);
    }

    private String explain(String query)
    {
        return (String) runner.execute("EXPLAIN " + query).getOnlyValue();
    }

    private String explainAnalyze(String query)
    {
        return (String) runner.execute("EXPLAIN ANALYZE VERBOSE " + query).getOnlyValue();
    }

    // the value of a connector metric "name" in EXPLAIN ANALYZE VERBOSE output, summed over operators
    private static long counter(String explainAnalyze, String name)
    {
        Matcher matcher = Pattern.compile("'" + Pattern.quote(name) + "' = LongCount\\{total=(\\d+)\\}").matcher(explainAnalyze);
        long sum = 0;
        boolean found = false;
        while (matcher.find()) {
            sum += Long.parseLong(matcher.group(1));
            found = true;
        }
        if (!found) {
            throw new AssertionError("No metric " + name + " in:\n" + explainAnalyze);
        }
        return sum;
    }

    @Test
    public void testRowTrackingColumnsAreHiddenColumns()
    {
        // the oracle: Paimon's row-tracking view of the table (id, name, _ROW_ID, _SEQUENCE_NUMBER)
        List<String> expected = ReferenceReader.readWithRowTracking(warehouse, "tracking.events").lines();
        assertThat(expected).hasSize(30);
        MaterializedResult result = runner.execute("SELECT id, name, _row_id, _sequence_number FROM tarn.tracking.events");
        assertThat(TrinoCanonicalRows.of(result)).isEqualTo(CanonicalRows.of(expected));

        // hidden: not in SELECT *, DESCRIBE or information_schema, but named in a query they are there
        assertThat(runner.execute("SELECT * FROM tarn.tracking.events LIMIT 0").getColumnNames()).containsExactly("id", "name");
        assertThat(runner.execute("DESCRIBE tarn.tracking.events").getMaterializedRows().stream().map(row -> row.getField(0)).toList()).containsExactly("id", "name");
        assertThat(runner.execute("SELECT column_name FROM tarn.information_schema.columns WHERE table_schema = 'tracking' AND table_name = 'events'").getOnlyColumnAsSet())
                .containsExactlyInAnyOrder("id", "name");
        // a filter on a hidden column is Trino's to apply; the rows are Paimon's
        List<String> someIds = expected.stream().filter(line -> {
            long rowId = Long.parseLong(line.split("\t", -1)[2]);
            return rowId >= 8 && rowId <= 12;
        }).toList();
        assertThat(someIds).hasSize(5);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT id, name, _row_id, _sequence_number FROM tarn.tracking.events WHERE _row_id BETWEEN 8 AND 12")))
                .isEqualTo(CanonicalRows.of(someIds));
        // a table that does not track rows has no such column
        assertThatThrownBy(() -> runner.execute("SELECT _row_id FROM append_all_types"))
                .hasMessageContaining("Column '_row_id' cannot be resolved");
    }

    private CanonicalRows selectAll(String tableName, String suffix)
    {
        MaterializedResult shape = runner.execute("SELECT * FROM " + tableName + " LIMIT 0");
        String query = "SELECT " + TrinoCanonicalRows.selectList(shape.getColumnNames(), shape.getTypes()) + " FROM " + tableName + suffix;
        return TrinoCanonicalRows.of(runner.execute(query), shape.getTypes());
    }
}
