package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceStatistics;
import io.tarn.testing.TemporaryDirectories;
import io.trino.Session;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.spi.type.Type;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

/**
 * Tables created, filled and analyzed through SQL, read back by Apache Paimon.
 */
public class TestTarnWrites
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-writes");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.installPlugin(new TpchPlugin());
        runner.createCatalog("tpch", "tpch", Map.of());
        runner.execute("CREATE SCHEMA tarn.w");
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

    @Test
    public void testCreateInsertReadBackByPaimon()
    {
        runner.execute("""
                CREATE TABLE tarn.w.orders (
                    id bigint NOT NULL COMMENT 'order id',
                    name varchar,
                    price decimal(10, 2),
                    big decimal(30, 5),
                    d date,
                    ts timestamp(6),
                    ltz timestamp(3) with time zone,
                    flag boolean,
                    ratio real,
                    small smallint,
                    payload varbinary)
                WITH (partitioned_by = ARRAY['d'], file_index_bloom_filter_columns = ARRAY['name'],
                      options = MAP(ARRAY['target-file-size', 'file-index.bloom-filter.name.fpp'], ARRAY['64MB', '0.01']))""");
        runner.execute("""
                INSERT INTO tarn.w.orders VALUES
                    (1, 'apple', 12.50, 123456789012345678901234.5, DATE '2024-01-02', TIMESTAMP '2024-01-02 10:00:00.123456', TIMESTAMP '2024-01-02 10:00:00.123 UTC', true, 1.5, 7, X'0aff'),
                    (2, 'čšž\ttab', -0.01, NULL, DATE '2024-01-02', NULL, NULL, false, NULL, NULL, NULL),
                    (3, NULL, NULL, 0.00001, DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999', TIMESTAMP '1970-01-01 00:00:00.001 UTC', NULL, -2.25, -3, X'')""");
        runner.execute("INSERT INTO tarn.w.orders (id, name, d) VALUES (4, 'second commit', NULL)");

        CanonicalRows expected = CanonicalRows.of(List.of(
                "1\tapple\t12.50\t123456789012345678901234.50000\t2024-01-02\t2024-01-02T10:00:00.123456\t2024-01-02T10:00:00.123Z\ttrue\t1.5\t7\t0x0aff",
                "2\tčšž\\ttab\t-0.01\t\\N\t2024-01-02\t\\N\t\\N\tfalse\t\\N\t\\N\t\\N",
                "3\t\\N\t\\N\t0.00001\t1969-12-31\t1969-12-31T23:59:59.999999\t1970-01-01T00:00:00.001Z\t\\N\t-2.25\t-3\t0x",
                "4\tsecond commit\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N"));
        assertThat(ReferenceReader.read(warehouse, "w.orders")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.orders"))).isEqualTo(expected);

        String created = (String) runner.execute("SHOW CREATE TABLE tarn.w.orders").getOnlyValue();
        assertThat(created)
                .contains("COMMENT 'order id'")
                .contains("partitioned_by = ARRAY['d']")
                .contains("file_index_bloom_filter_columns = ARRAY['name']")
                // not set, so left to Paimon's default when the text runs again
                .doesNotContain("bucket")
                .doesNotContain("options");
        assertThat(runner.execute("SELECT key, value FROM tarn.w.\"orders$options\" WHERE key IN ('target-file-size', 'file-index.bloom-filter.name.fpp') ORDER BY key")
                .getMaterializedRows().stream().map(row -> row.getField(0) + "=" + row.getField(1)).toList())
                .containsExactly("file-index.bloom-filter.name.fpp=0.01", "target-file-size=64MB");
        // SHOW CREATE TABLE's text creates the table again
        runner.execute(created.replace("tarn.w.orders", "tarn.w.orders_again"));
        assertThat((String) runner.execute("SHOW CREATE TABLE tarn.w.orders_again").getOnlyValue()).isEqualTo(created.replace("tarn.w.orders", "tarn.w.orders_again"));
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"orders$snapshots\"").getOnlyValue()).isEqualTo(2L);
    }

    @Test
    public void testAnalyzeWritesStatisticsThatPaimonAndTheOptimizerRead()
    {
        Session withoutStatistics = Session.builder(runner.getDefaultSession()).setCatalogSessionProperty("tarn", TarnSessionProperties.COLLECT_STATISTICS_ON_WRITE, "false").build();
        runner.execute(withoutStatistics, "CREATE TABLE tarn.w.analyzed AS SELECT orderkey, custkey, orderstatus, comment, CAST(NULL AS varchar) AS empty FROM tpch.tiny.orders");
        long snapshots = (long) runner.execute("SELECT count(*) FROM tarn.w.\"analyzed$snapshots\"").getOnlyValue();
        // before ANALYZE the manifests give the row count and ranges, but no distinct-value counts
        assertThat(runner.execute("SHOW STATS FOR tarn.w.analyzed").getMaterializedRows())
                .filteredOn(row -> "custkey".equals(row.getField(0)))
                .singleElement().satisfies(row -> assertThat(row.getField(2)).isNull());

        assertThat(runner.execute("ANALYZE tarn.w.analyzed").getUpdateCount()).hasValue(15000);

        assertThat(runner.execute("SELECT commit_kind FROM tarn.w.\"analyzed$snapshots\" ORDER BY snapshot_id DESC LIMIT 1").getOnlyValue()).isEqualTo("ANALYZE");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"analyzed$snapshots\"").getOnlyValue()).isEqualTo(snapshots + 1);
        Map<String, MaterializedRow> stats = new HashMap<>();
        runner.execute("SHOW STATS FOR tarn.w.analyzed").getMaterializedRows().forEach(row -> stats.put((String) row.getField(0), row));
        // approx_distinct errs by a few percent; tiny's orders have 15,000 keys, 1,000 customers and 3 statuses
        assertThat((double) stats.get("orderkey").getField(2)).isCloseTo(15000, withinPercentage(5));
        assertThat((double) stats.get("custkey").getField(2)).isCloseTo(1000, withinPercentage(5));
        assertThat((double) stats.get("orderstatus").getField(2)).isEqualTo(3.0);
        assertThat((double) stats.get("empty").getField(3)).isEqualTo(1.0);
        double commentBytes = ((Number) runner.execute("SELECT sum(length(CAST(comment AS varbinary))) FROM tpch.tiny.orders").getOnlyValue()).doubleValue();
        // Paimon keeps the average size as a whole number of bytes
        assertThat((double) stats.get("comment").getField(1)).isEqualTo(Math.round(commentBytes / 15000) * 15000.0);
        assertThat(stats.get(null).getField(4)).isEqualTo(15000.0);

        // Paimon reads the same statistics, computed on the snapshot the data was written in
        String paimon = ReferenceStatistics.read(warehouse, "w.analyzed").orElseThrow();
        assertThat(paimon).startsWith("snapshot=%d schema=0 rows=15000".formatted(snapshots));
        assertThat(paimon).containsPattern("orderstatus: distinct=3 nulls=0 avgLen=1 maxLen=1")
                .containsPattern("empty: distinct=0 nulls=15000 avgLen=null maxLen=null");

        assertThatThrownBy(() -> runner.execute("ANALYZE tarn.w.analyzed WITH (columns = ARRAY['custkey'])"))
                .hasMessageContaining("columns");
        // an empty table has nothing to describe: no snapshot, no statistics
        runner.execute("CREATE TABLE tarn.w.never_filled (a bigint)");
        runner.execute("ANALYZE tarn.w.never_filled");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"never_filled$snapshots\"").getOnlyValue()).isEqualTo(0L);
    }

    @Test
    public void testCreateTableAsCommitsStatisticsWithTheData()
    {
        runner.execute("CREATE TABLE tarn.w.with_statistics AS SELECT orderkey, custkey, orderstatus FROM tpch.tiny.orders");
        // one snapshot: the data and its statistics together
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"with_statistics$snapshots\"").getOnlyValue()).isEqualTo(1L);
        assertThat(ReferenceStatistics.read(warehouse, "w.with_statistics").orElseThrow())
                .startsWith("snapshot=1 schema=0 rows=15000")
                .contains("orderstatus: distinct=3 nulls=0 avgLen=1 maxLen=1");
        Map<String, MaterializedRow> stats = new HashMap<>();
        runner.execute("SHOW STATS FOR tarn.w.with_statistics").getMaterializedRows().forEach(row -> stats.put((String) row.getField(0), row));
        assertThat((double) stats.get("custkey").getField(2)).isCloseTo(1000, withinPercentage(5));

        // an INSERT computes nothing (distinct counts do not add up) and carries the statistics on
        runner.execute("INSERT INTO tarn.w.with_statistics SELECT orderkey + 100000, custkey, orderstatus FROM tpch.tiny.orders WHERE orderkey < 100");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"with_statistics$snapshots\"").getOnlyValue()).isEqualTo(2L);
        assertThat(ReferenceStatistics.read(warehouse, "w.with_statistics").orElseThrow()).startsWith("snapshot=1 schema=0 rows=15000");
        long inserted = (long) runner.execute("SELECT count(*) FROM tpch.tiny.orders WHERE orderkey < 100").getOnlyValue();
        assertThat(ReferenceReader.read(warehouse, "w.with_statistics").rowCount()).isEqualTo(15000 + inserted);
    }

    @Test
    public void testNestedTypesReadBackByPaimon()
    {
        runner.execute("""
                CREATE TABLE tarn.w.nested (
                    id integer,
                    tags array(varchar),
                    attrs map(varchar, bigint),
                    point row(x double, y double, label varchar),
                    deep array(row(k varchar, vs array(integer))),
                    lists map(integer, array(varchar)))""");
        runner.execute("""
                INSERT INTO tarn.w.nested VALUES
                    (1, ARRAY['a', NULL, 'c"q'], MAP(ARRAY['k1', 'k2'], ARRAY[1, NULL]), ROW(1.5, -2.0, 'p'),
                        ARRAY[ROW('r', ARRAY[1, 2]), NULL, ROW(NULL, NULL)], MAP(ARRAY[7], ARRAY[ARRAY['x']])),
                    (2, ARRAY[], MAP(), ROW(NULL, NULL, NULL), ARRAY[], NULL),
                    (3, NULL, NULL, NULL, NULL, MAP(ARRAY[1, 2], ARRAY[NULL, ARRAY[]]))""");
        // the canonical text of ARRAY [a,b], MAP {k=v}, ROW {a,b}, nested strings quoted, nested NULL null
        CanonicalRows expected = CanonicalRows.of(List.of(
                "1\t[\"a\",null,\"c\\\"q\"]\t{\"k1\"=1,\"k2\"=null}\t{1.5,-2.0,\"p\"}\t[{\"r\",[1,2]},null,{null,null}]\t{7=[\"x\"]}",
                "2\t[]\t{}\t{null,null,null}\t[]\t\\N",
                "3\t\\N\t\\N\t\\N\t\\N\t{1=null,2=[]}"));
        assertThat(ReferenceReader.read(warehouse, "w.nested")).isEqualTo(expected);
        MaterializedResult read = runner.execute("SELECT id, tags, map_entries(attrs), point, deep, map_entries(lists) FROM tarn.w.nested");
        List<Type> types = runner.execute("SELECT * FROM tarn.w.nested LIMIT 0").getTypes();
        assertThat(TrinoCanonicalRows.of(read, types)).isEqualTo(expected);

        runner.execute("CREATE TABLE tarn.w.nested_copy AS SELECT id, point, deep FROM tarn.w.nested WHERE id <> 2");
        assertThat(ReferenceReader.read(warehouse, "w.nested_copy")).isEqualTo(CanonicalRows.of(List.of(
                "1\t{1.5,-2.0,\"p\"}\t[{\"r\",[1,2]},null,{null,null}]",
                "3\t\\N\t\\N")));
    }

    @Test
    public void testCreateTableAsSelectIntoBuckets()
    {
        runner.execute("CREATE TABLE tarn.w.bucketed WITH (bucket = 3, bucket_key = ARRAY['id']) AS SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, NULL)) t(id, v)");
        CanonicalRows expected = CanonicalRows.of(List.of("1\ta", "2\tb", "3\tc", "4\t\\N"));
        assertThat(ReferenceReader.read(warehouse, "w.bucketed")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.bucketed"))).isEqualTo(expected);
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"bucketed$buckets\"").getOnlyValue()).isEqualTo(3L);
    }

    /**
     * A table with {@code file.format=avro} gets Avro data files from CREATE TABLE AS, INSERT and
     * sort_compact; Paimon reads them as it reads the same rows written as Parquet. (Maps have
     * one entry: Paimon's Avro reader returns several in hash order, see TestAvroTableWriter.)
     */
    @Test
    public void testAvroTablesAreWrittenInAvro()
    {
        String rows = """
                SELECT * FROM (VALUES
                    (1, BIGINT '10', DECIMAL '1.50', 'a', DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.123456', ARRAY[1, NULL], MAP(ARRAY['k'], ARRAY[2]), CAST(ROW(1, 'x') AS ROW(a integer, b varchar)), 'p1'),
                    (2, NULL, DECIMAL '-2.25', 'čšž', DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999', ARRAY[], MAP(ARRAY['k'], ARRAY[CAST(NULL AS integer)]), NULL, 'p2'),
                    (3, BIGINT '-30', NULL, NULL, NULL, NULL, NULL, NULL, CAST(ROW(NULL, NULL) AS ROW(a integer, b varchar)), 'p1'))
                    t(id, v, price, name, d, ts, tags, attrs, r, p)""";
        runner.execute("CREATE TABLE tarn.w.avro_rows WITH (partitioned_by = ARRAY['p'], options = MAP(ARRAY['file.format'], ARRAY['avro'])) AS " + rows);
        runner.execute("CREATE TABLE tarn.w.parquet_rows WITH (partitioned_by = ARRAY['p']) AS " + rows);
        runner.execute("INSERT INTO tarn.w.avro_rows SELECT id + 10, v, price, name, d, ts, tags, attrs, r, p FROM tarn.w.avro_rows");
        runner.execute("INSERT INTO tarn.w.parquet_rows SELECT id + 10, v, price, name, d, ts, tags, attrs, r, p FROM tarn.w.parquet_rows");
        runner.execute("CALL tarn.system.sort_compact('w', 'avro_rows', 'id', 'order', 'p=p1')");
        CanonicalRows expected = ReferenceReader.read(warehouse, "w.parquet_rows");
        assertThat(expected.rowCount()).isEqualTo(6);
        assertThat(ReferenceReader.read(warehouse, "w.avro_rows").text()).isEqualTo(expected.text());
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.avro_rows"))).isEqualTo(expected);
        assertThat(runner.execute("SELECT DISTINCT file_format FROM tarn.w.\"avro_rows$files\"").getOnlyValue()).isEqualTo("avro");

        runner.execute("CREATE TABLE tarn.w.csv_rows (id integer) WITH (options = MAP(ARRAY['file.format'], ARRAY['csv']))");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.w.csv_rows VALUES 1"))
                .hasMessageContaining("csv_rows")
                .hasMessageContaining("Tarn writes Parquet, ORC and Avro data files, not csv yet");
    }

    /**
     * A table that tracks rows gets row ids from Tarn's commits as from Paimon's: every row its
     * own, read back by Paimon's row-tracking view as by Trino's hidden columns.
     */
    @Test
    public void testTablesThatTrackRowsGetRowIds()
    {
        runner.execute("CREATE TABLE tarn.w.tracked WITH (partitioned_by = ARRAY['p'], options = MAP(ARRAY['row-tracking.enabled'], ARRAY['true'])) AS "
                + "SELECT id, CAST(name AS varchar) name, p FROM (VALUES (1, 'one', 'a'), (2, 'two', 'b'), (3, NULL, 'a')) t(id, name, p)");
        runner.execute("INSERT INTO tarn.w.tracked SELECT id + 10, name, p FROM tarn.w.tracked");
        runner.execute("INSERT INTO tarn.w.tracked VALUES (100, 'last', 'b')");

        List<String> expected = ReferenceReader.readWithRowTracking(warehouse, "w.tracked").lines();
        assertThat(expected).hasSize(7);
        // the view's columns: id, name, p, _ROW_ID, _SEQUENCE_NUMBER
        assertThat(expected.stream().map(line -> Long.parseLong(line.split("\t", -1)[3])).sorted().toList()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT id, name, p, _row_id, _sequence_number FROM tarn.w.tracked"))).isEqualTo(CanonicalRows.of(expected));
        assertThat(runner.execute("SELECT _row_id FROM tarn.w.tracked WHERE id = 100").getOnlyValue()).isEqualTo(6L);
    }

    /**
     * A table with {@code file.format=orc} gets ORC data files from CREATE TABLE AS, INSERT and
     * sort_compact, with the ORC Bloom filters its options ask for; Paimon reads them as it reads
     * the same rows written as Parquet, and a codec or a Bloom filter Tarn does not write is
     * refused before anything is written.
     */
    @Test
    public void testOrcTablesAreWrittenInOrc()
    {
        String rows = """
                SELECT * FROM (VALUES
                    (1, BIGINT '10', DECIMAL '1.50', 'a', DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.123456', ARRAY[1, NULL], MAP(ARRAY['k'], ARRAY[2]), CAST(ROW(1, 'x') AS ROW(a integer, b varchar)), 'p1'),
                    (2, NULL, DECIMAL '-2.25', 'čšž', DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:58.999999', ARRAY[], MAP(ARRAY['k'], ARRAY[CAST(NULL AS integer)]), NULL, 'p2'),
                    (3, BIGINT '-30', NULL, NULL, NULL, NULL, NULL, NULL, CAST(ROW(NULL, NULL) AS ROW(a integer, b varchar)), 'p1'))
                    t(id, v, price, name, d, ts, tags, attrs, r, p)""";
        runner.execute("CREATE TABLE tarn.w.orc_rows WITH (partitioned_by = ARRAY['p'], options = MAP(ARRAY['file.format', 'orc.bloom.filter.columns'], ARRAY['orc', 'id,name'])) AS " + rows);
        runner.execute("CREATE TABLE tarn.w.orc_parquet_rows WITH (partitioned_by = ARRAY['p']) AS " + rows);
        runner.execute("INSERT INTO tarn.w.orc_rows SELECT id + 10, v, price, name, d, ts, tags, attrs, r, p FROM tarn.w.orc_rows");
        runner.execute("INSERT INTO tarn.w.orc_parquet_rows SELECT id + 10, v, price, name, d, ts, tags, attrs, r, p FROM tarn.w.orc_parquet_rows");
        runner.execute("CALL tarn.system.sort_compact('w', 'orc_rows', 'id', 'order', 'p=p1')");
        CanonicalRows expected = ReferenceReader.read(warehouse, "w.orc_parquet_rows");
        assertThat(expected.rowCount()).isEqualTo(6);
        assertThat(ReferenceReader.read(warehouse, "w.orc_rows").text()).isEqualTo(expected.text());
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.orc_rows"))).isEqualTo(expected);
        assertThat(runner.execute("SELECT DISTINCT file_format FROM tarn.w.\"orc_rows$files\"").getOnlyValue()).isEqualTo("orc");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.orc_rows WHERE id = 11").getOnlyValue()).isEqualTo(1L);
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.orc_rows WHERE name = 'čšž'").getOnlyValue()).isEqualTo(2L);

        // a value in the second before 1970, which ORC's readers read one second late
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.w.orc_rows VALUES (20, NULL, NULL, NULL, NULL, TIMESTAMP '1969-12-31 23:59:59.5', NULL, NULL, NULL, 'p1')"))
                .hasMessageContaining("orc_rows")
                .hasMessageContaining("Column ts has the value 1969-12-31T23:59:59.500, which an ORC file cannot hold");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.orc_rows").getOnlyValue()).isEqualTo(6L);

        runner.execute("CREATE TABLE tarn.w.orc_lzo (id integer) WITH (options = MAP(ARRAY['file.format', 'orc.compress'], ARRAY['orc', 'lzo']))");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.w.orc_lzo VALUES 1"))
                .hasMessageContaining("orc_lzo")
                .hasMessageContaining("ORC compression LZO is not written by Tarn yet");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"orc_lzo$files\"").getOnlyValue()).isEqualTo(0L);
        runner.execute("CREATE TABLE tarn.w.orc_decimal_bloom (id integer, price decimal(10, 2)) WITH (options = MAP(ARRAY['file.format', 'orc.bloom.filter.columns'], ARRAY['orc', 'price']))");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.w.orc_decimal_bloom VALUES (1, 2.50)"))
                .hasMessageContaining("orc_decimal_bloom")
                .hasMessageContaining("Tarn does not write ORC Bloom filters on DECIMAL(10, 2) columns yet");
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"orc_decimal_bloom$files\"").getOnlyValue()).isEqualTo(0L);
    }

    @Test
    public void testPrimaryKeyTableWritesAreAClearError()
    {
        runner.execute("CREATE TABLE tarn.w.keyed (id integer, v varchar) WITH (primary_key = ARRAY['id'], bucket = 1)");
        assertThat((String) runner.execute("SHOW CREATE TABLE tarn.w.keyed").getOnlyValue()).contains("primary_key = ARRAY['id']");
        assertThatThrownBy(() -> runner.execute("INSERT INTO tarn.w.keyed VALUES (1, 'x')"))
                .hasMessageContaining("primary key")
                .hasMessageContaining("keyed");
    }

    @Test
    public void testInvalidTableProperties()
    {
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.w.bad (id integer) WITH (partitioned_by = ARRAY['nope'])"))
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.w.bad2 (id integer) WITH (options = ARRAY['target-file-size=1MB'])"))
                .hasMessageContaining("options");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.w.bad3 (id integer) WITH (options = MAP(ARRAY['target file size'], ARRAY['1MB']))"))
                .hasMessageContaining("'target file size' is not a Paimon option key");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.w.bad4 (id integer) WITH (options = MAP(ARRAY['bucket'], ARRAY['4']))"))
                .hasMessageContaining("Table option 'bucket' is set through the table property bucket");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.w.bad5 (id integer) WITH (options = MAP(ARRAY['target-file-size'], ARRAY[CAST(NULL AS varchar)]))"))
                .hasMessageContaining("null value");
        assertThat(runner.execute("SHOW TABLES FROM tarn.w LIKE 'bad%'").getRowCount()).isZero();
    }

    @Test
    public void testSchemaEvolutionByFieldId()
    {
        runner.execute("CREATE TABLE tarn.w.evolve (id integer, a varchar, b bigint)");
        runner.execute("INSERT INTO tarn.w.evolve VALUES (1, 'x', 10)");
        runner.execute("ALTER TABLE tarn.w.evolve ADD COLUMN c double");
        runner.execute("INSERT INTO tarn.w.evolve VALUES (2, 'y', 20, 2.5)");
        runner.execute("ALTER TABLE tarn.w.evolve RENAME COLUMN a TO a2");
        runner.execute("ALTER TABLE tarn.w.evolve DROP COLUMN b");
        CanonicalRows expected = CanonicalRows.of(List.of("1\tx\t\\N", "2\ty\t2.5"));
        assertThat(ReferenceReader.read(warehouse, "w.evolve")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.evolve"))).isEqualTo(expected);
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"evolve$schemas\"").getOnlyValue()).isEqualTo(4L);
    }

    @Test
    public void testInsertOverwriteReplacesWrittenPartitions()
    {
        runner.execute("CREATE TABLE tarn.w.parts (id integer, p varchar) WITH (partitioned_by = ARRAY['p'])");
        runner.execute("INSERT INTO tarn.w.parts VALUES (1, 'a'), (2, 'b')");
        Session overwrite = Session.builder(runner.getDefaultSession())
                .setCatalogSessionProperty(TarnQueryRunner.CATALOG, TarnSessionProperties.INSERT_OVERWRITE, "true")
                .build();
        runner.execute(overwrite, "INSERT INTO tarn.w.parts VALUES (3, 'a')");
        CanonicalRows expected = CanonicalRows.of(List.of("3\ta", "2\tb"));
        assertThat(ReferenceReader.read(warehouse, "w.parts")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.parts"))).isEqualTo(expected);
    }

    @Test
    public void testTagProcedures()
    {
        runner.execute("CREATE TABLE tarn.w.tagged (id integer)");
        runner.execute("INSERT INTO tarn.w.tagged VALUES 1, 2");
        runner.execute("INSERT INTO tarn.w.tagged VALUES 3");
        runner.execute("CALL tarn.system.create_tag('w', 'tagged', 'v1', 1)");
        CanonicalRows first = CanonicalRows.of(List.of("1", "2"));
        assertThat(ReferenceReader.read(warehouse, ReferenceScan.of("w.tagged").atTag("v1"))).isEqualTo(first);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.tagged FOR VERSION AS OF 'v1'"))).isEqualTo(first);
        assertThat(runner.execute("SELECT tag_name, snapshot_id FROM tarn.w.\"tagged$tags\"").getMaterializedRows().get(0).getFields())
                .containsExactly("v1", 1L);
        runner.execute("CALL tarn.system.delete_tag('w', 'tagged', 'v1')");
        assertThatThrownBy(() -> runner.execute("SELECT * FROM tarn.w.tagged FOR VERSION AS OF 'v1'"))
                .hasMessageContaining("v1");
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.delete_tag('w', 'tagged', 'v1')"))
                .hasMessageContaining("Tag 'v1' does not exist in table");
    }

    @Test
    public void testRollbackAndExpireProcedures()
    {
        runner.execute("CREATE TABLE tarn.w.history (id integer)");
        runner.execute("INSERT INTO tarn.w.history VALUES 1");
        runner.execute("INSERT INTO tarn.w.history VALUES 2");
        runner.execute("INSERT INTO tarn.w.history VALUES 3");
        Path table = warehouse.resolve("w.db/history");
        assertThat(files(table, "bucket-0")).hasSize(3);
        runner.execute("CALL tarn.system.rollback_to('w', 'history', 2)");
        assertThat(ReferenceReader.read(warehouse, "w.history")).isEqualTo(CanonicalRows.of(List.of("1", "2")));
        // the third insert's data file went with its snapshot
        assertThat(files(table, "bucket-0")).hasSize(2);
        runner.execute("INSERT INTO tarn.w.history VALUES 4");
        CanonicalRows expected = CanonicalRows.of(List.of("1", "2", "4"));
        assertThat(ReferenceReader.read(warehouse, "w.history")).isEqualTo(expected);

        List<Path> manifests = files(table, "manifest");
        runner.execute("CALL tarn.system.expire_snapshots('w', 'history', 1)");
        assertThat(runner.execute("SELECT snapshot_id FROM tarn.w.\"history$snapshots\"").getOnlyValue()).isEqualTo(3L);
        assertThat(ReferenceReader.read(warehouse, "w.history")).isEqualTo(expected);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.history"))).isEqualTo(expected);
        // every data file is still live; the expired snapshots' manifest lists are gone
        assertThat(files(table, "bucket-0")).hasSize(3);
        assertThat(files(table, "manifest")).hasSizeLessThan(manifests.size());
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.expire_snapshots('w', 'history', 0)"))
                .hasMessageContaining("retain_last");
    }

    private static List<Path> files(Path table, String directory)
    {
        try (Stream<Path> paths = Files.list(table.resolve(directory))) {
            return paths.toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    public void testSortCompactProcedure()
    {
        runner.execute("CREATE TABLE tarn.w.sorted (x integer, y integer, p varchar) WITH (partitioned_by = ARRAY['p'])");
        runner.execute("INSERT INTO tarn.w.sorted SELECT (n * 7) % 16, (n * 11) % 16, 'a' FROM UNNEST(sequence(0, 255)) AS t(n)");
        runner.execute("INSERT INTO tarn.w.sorted VALUES (1, 1, 'b')");
        runner.execute("INSERT INTO tarn.w.sorted VALUES (2, 2, 'b')");
        CanonicalRows before = ReferenceReader.read(warehouse, "w.sorted");
        runner.execute("CALL tarn.system.sort_compact('w', 'sorted', 'x,y', 'zorder', 'p=b')");
        assertThat(ReferenceReader.read(warehouse, "w.sorted")).isEqualTo(before);
        assertThat(TrinoCanonicalRows.of(runner.execute("SELECT * FROM tarn.w.sorted"))).isEqualTo(before);
        // partition b's two files became one; partition a was not touched
        assertThat(runner.execute("SELECT count(*) FROM tarn.w.\"sorted$files\" WHERE file_path LIKE '%p=b%'").getOnlyValue()).isEqualTo(1L);
        assertThat(runner.execute("SELECT commit_kind FROM tarn.w.\"sorted$snapshots\" ORDER BY snapshot_id DESC LIMIT 1").getOnlyValue()).isEqualTo("OVERWRITE");
        assertThatThrownBy(() -> runner.execute("CALL tarn.system.sort_compact('w', 'sorted', 'x', 'spiral')"))
                .hasMessageContaining("spiral");
    }

    @Test
    public void testDropTable()
    {
        runner.execute("CREATE TABLE tarn.w.dropped (id integer)");
        runner.execute("INSERT INTO tarn.w.dropped VALUES 1");
        assertThat(Files.exists(warehouse.resolve("w.db/dropped"))).isTrue();
        runner.execute("DROP TABLE tarn.w.dropped");
        assertThat(Files.exists(warehouse.resolve("w.db/dropped"))).isFalse();
        assertThat(runner.execute("SHOW TABLES FROM tarn.w").getOnlyColumnAsSet()).doesNotContain("dropped");
    }
}
