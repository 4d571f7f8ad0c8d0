package io.tarn.trino;

import io.tarn.testing.TemporaryDirectories;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random SQL filters over columns of every scalar type Tarn maps (doubles without NaN and without
 * zeros of both signs, which {@link TestTarnFloatingPointFilters} covers), through Trino: what the
 * connector receives as a domain (comparisons, ranges, IN and NOT IN lists short and long, null
 * tests, a null test OR-ed with a range, negations, string prefixes) and what Trino evaluates
 * itself must together give the rows Trino's own evaluation gives.
 *
 * <p>The oracle is Trino's evaluation of the predicate over the rows of the SQL that generated
 * the tables, which no connector takes part in. The tables hold those rows written four times:
 * in Parquet partitioned, with Bloom filters and bitmap indexes and dictionary pages, and bucketed
 * by a nullable integer, with plain pages, both in small row groups and pages; in ORC, in small
 * stripes and row groups with ORC's own Bloom filters; in Avro, partitioned, with Bloom filters.
 *
 * <p>Literals are values the table holds and values the same generator gives for rows the table
 * does not hold, each written as a cast from text so that one rule serves every type. The seed
 * is printed; {@code -Dtarn.random-filters.seed=N} replays a failure.
 */
public class TestTarnRandomFilters
{
    private static final int ROWS = 3000;
    private static final int PREDICATES = 120;
    private static final int JOINS = 40;
    // c is taken from an array of CHAR(4) values: Trino 483's planner fails on comparisons with a
    // CHAR(4) cast of a VARCHAR(4) expression ("varchar(4) was expected to be coercible to char(4)")
    private static final String GENERATOR = """
            SELECT
                CAST(n AS integer) AS id,
                CAST(n % 4 AS integer) AS part,
                CAST(CASE WHEN n % 13 = 0 THEN NULL ELSE n % 200 - 100 END AS tinyint) AS ti,
                CAST((n * 37) % 30001 - 15000 AS smallint) AS si,
                CASE WHEN n % 11 = 0 THEN NULL ELSE CAST((n * 7919) % 100003 - 50000 AS integer) END AS i,
                n * 2654435761 % 4294967296 - 2147483648 AS bi,
                CAST(((n * 104729) % 200001 - 100000) * DECIMAL '0.01' AS decimal(10, 2)) AS sd,
                CASE WHEN n % 17 = 0 THEN NULL ELSE CAST(CAST(n AS decimal(30, 6)) * DECIMAL '123456789.123457' - DECIMAL '100000000000' AS decimal(30, 6)) END AS ld,
                CAST((n * 7) % 997 AS double) / 4 - 100 AS d,
                element_at(ARRAY['alpha', 'beta', 'gamma', '', 'Zeta', 'ä-umlaut', 'éclair', '日本', 'z', NULL], n % 10 + 1) AS s,
                'u-' || CAST((n * 2654435761) % 16777216 AS varchar) AS u,
                element_at(ARRAY[CAST('a' AS char(4)), CAST('ab' AS char(4)), CAST('abc' AS char(4)), CAST('abcd' AS char(4)), CAST('b' AS char(4))], n % 5 + 1) AS c,
                to_utf8(element_at(ARRAY['x', 'xy', 'y', '', 'zz', 'é'], n % 6 + 1)) AS vb,
                CASE n % 3 WHEN 0 THEN true WHEN 1 THEN false END AS b,
                date_add('day', n / 25, DATE '2024-01-01') AS dt,
                date_add('millisecond', n * 61237, TIMESTAMP '2024-01-01 00:00:00.000') AS ts3,
                CASE WHEN n % 19 = 0 THEN NULL ELSE CAST(CAST(date_add('second', n * 61, TIMESTAMP '2024-01-01 00:00:00') AS varchar) || '.' || lpad(CAST((n * 7919) % 1000000 AS varchar), 6, '0') AS timestamp(6)) END AS ts6,
                date_add('millisecond', n * 3600017, TIMESTAMP '2024-01-01 00:00:00.000 UTC') AS tz,
                CAST(date_add('millisecond', n * 28813, TIMESTAMP '2024-01-01 00:00:00.000') AS time(3)) AS tm
            FROM UNNEST(sequence(FIRST, LAST)) AS numbers(n)
            """;
    // the columns a predicate names, with their types for the literals' casts
    private static final Map<String, String> COLUMNS = columns();

    private final long seed = Long.getLong("tarn.random-filters.seed", 20_261_205L);
    private final Map<String, List<String>> held = new LinkedHashMap<>();
    private final Map<String, List<String>> others = new LinkedHashMap<>();
    private Path warehouse;
    private DistributedQueryRunner runner;

    private static Map<String, String> columns()
    {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("part", "integer");
        columns.put("ti", "tinyint");
        columns.put("si", "smallint");
        columns.put("i", "integer");
        columns.put("bi", "bigint");
        columns.put("sd", "decimal(10, 2)");
        columns.put("ld", "decimal(30, 6)");
        columns.put("d", "double");
        columns.put("s", "varchar");
        columns.put("u", "varchar");
        columns.put("c", "char(4)");
        columns.put("vb", "varbinary");
        columns.put("b", "boolean");
        columns.put("dt", "date");
        columns.put("ts3", "timestamp(3)");
        columns.put("ts6", "timestamp(6)");
        columns.put("tz", "timestamp(3) with time zone");
        columns.put("tm", "time(3)");
        return columns;
    }

    @BeforeClass
    public void setUp()
            throws Exception
    {
        System.out.println("TestTarnRandomFilters seed " + seed);
        warehouse = TemporaryDirectories.create("tarn-trino-random-filters");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.rf");
        // row groups of about 4 kB and pages of 256 bytes, so that statistics below the file apply
        String small = "options = MAP(ARRAY['parquet.block.size', 'parquet.page.size'], ARRAY['4096', '256'])";
        runner.execute("CREATE TABLE tarn.rf.append WITH (partitioned_by = ARRAY['part'], file_index_bloom_filter_columns = ARRAY['u', 'bi'], " +
                "file_index_bitmap_columns = ARRAY['s', 'c'], " + small + ") AS " + generator(0, ROWS / 2 - 1));
        runner.execute("INSERT INTO tarn.rf.append " + generator(ROWS / 2, ROWS - 1));
        // bucketed by a nullable integer, with plain (not dictionary) pages
        runner.execute("CREATE TABLE tarn.rf.bucketed WITH (bucket = 3, bucket_key = ARRAY['i'], " +
                "options = MAP(ARRAY['parquet.block.size', 'parquet.page.size', 'parquet.enable.dictionary'], ARRAY['4096', '256', 'false'])) AS " + generator(0, ROWS / 3 - 1));
        runner.execute("INSERT INTO tarn.rf.bucketed " + generator(ROWS / 3, ROWS - 1));
        // ORC in row groups of 1,000 rows (the least ORC allows), so not partitioned: files of 1,500 rows
        runner.execute("CREATE TABLE tarn.rf.orc WITH (options = MAP(ARRAY['file.format', 'orc.row.index.stride', 'orc.stripe.size', 'orc.bloom.filter.columns'], " +
                "ARRAY['orc', '1000', '8192', 'ti,si,i,bi,d,s,u,dt'])) AS " + generator(0, ROWS / 2 - 1));
        runner.execute("INSERT INTO tarn.rf.orc " + generator(ROWS / 2, ROWS - 1));
        runner.execute("CREATE TABLE tarn.rf.avro WITH (partitioned_by = ARRAY['part'], file_index_bloom_filter_columns = ARRAY['u', 'bi'], " +
                "options = MAP(ARRAY['file.format'], ARRAY['avro'])) AS " + generator(0, ROWS / 2 - 1));
        runner.execute("INSERT INTO tarn.rf.avro " + generator(ROWS / 2, ROWS - 1));
        for (String column : COLUMNS.keySet()) {
            held.put(column, literals(column, "SELECT * FROM tarn.rf.append"));
            others.put(column, literals(column, generator(ROWS, ROWS + 800)));
        }
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
    public void testTablesHoldTheirRows()
    {
        // every column of every row, in text, equals the generator's
        String everything = "SELECT id, " + COLUMNS.keySet().stream().map(column -> "coalesce(" + text(column) + ", 'null')").collect(Collectors.joining(" || '|' || ")) + " FROM %s";
        List<MaterializedRow> generated = runner.execute(everything.formatted("(" + generator(0, ROWS - 1) + ")")).getMaterializedRows();
        assertThat(generated).hasSize(ROWS);
        for (String table : List.of("append", "bucketed", "orc", "avro")) {
            assertThat(runner.execute(everything.formatted("tarn.rf." + table)).getMaterializedRows()).as(table).containsExactlyInAnyOrderElementsOf(generated);
            // two writes (into several partitions or buckets): files with statistics of their own
            assertThat((Long) runner.execute("SELECT count(*) FROM tarn.rf.\"" + table + "$files\"").getOnlyValue()).as(table).isGreaterThanOrEqualTo(table.equals("orc") ? 2L : 6L);
            String format = table.equals("orc") || table.equals("avro") ? table : "parquet";
            assertThat(runner.execute("SELECT DISTINCT file_format FROM tarn.rf.\"" + table + "$files\"").getOnlyValue()).as(table).isEqualTo(format);
        }
    }

    @DataProvider
    public Object[][] tables()
    {
        return new Object[][] {{"append"}, {"bucketed"}, {"orc"}, {"avro"}};
    }

    @Test(dataProvider = "tables")
    public void testRandomFiltersGiveTrinosRowsOfTheGenerator(String table)
    {
        Random random = new Random(seed ^ table.hashCode());
        List<String> failures = new ArrayList<>();
        int selective = 0;
        for (int i = 0; i < PREDICATES; i++) {
            String predicate = SqlPredicateTrees.tree(random, 2, this::leaf);
            List<Integer> expected = ids("SELECT id FROM (" + generator(0, ROWS - 1) + ") WHERE " + predicate);
            List<Integer> actual = ids("SELECT id FROM tarn.rf." + table + " WHERE " + predicate);
            if (!actual.equals(expected)) {
                failures.add("%s WHERE %s: %d rows expected, %d returned".formatted(table, predicate, expected.size(), actual.size()));
            }
            if (!expected.isEmpty() && expected.size() < ROWS) {
                selective++;
            }
        }
        System.out.printf("%s: %d random filters, %d of them keep some rows and drop others%n", table, PREDICATES, selective);
        assertThat(failures).as("seed %d", seed).isEmpty();
        assertThat(selective).isGreaterThan(PREDICATES / 3);
    }

    /**
     * Joins of each table to a randomly filtered build side on a column of each type: the
     * dynamic filter Trino derives from the build side, whether the splits wait for it or it
     * arrives while they are read, may only remove rows the join drops anyway.
     */
    @Test(dataProvider = "tables")
    public void testRandomJoinsGiveTrinosRowsOfTheGenerator(String table)
    {
        Random random = new Random(seed ^ (table.hashCode() * 31L));
        List<String> keys = new ArrayList<>(COLUMNS.keySet());
        Session waitingForDynamicFilters = Session.builder(runner.getDefaultSession())
                .setCatalogSessionProperty(TarnQueryRunner.CATALOG, TarnSessionProperties.DYNAMIC_FILTERING_SMALL_SCAN_SIZE, "0B")
                .setCatalogSessionProperty(TarnQueryRunner.CATALOG, TarnSessionProperties.DYNAMIC_FILTERING_WAIT_TIMEOUT, "30s")
                .build();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < JOINS; i++) {
            String key = keys.get(random.nextInt(keys.size()));
            String buildSide = "SELECT " + key + " AS k FROM (" + generator(0, ROWS - 1) + ") WHERE " + SqlPredicateTrees.tree(random, 1, this::leaf);
            String join = "SELECT count(*), coalesce(sum(p.id), 0) FROM PROBE p JOIN (" + buildSide + ") b ON p." + key + " = b.k";
            MaterializedRow expected = runner.execute(join.replace("PROBE", "(" + generator(0, ROWS - 1) + ")")).getMaterializedRows().get(0);
            String tarnJoin = join.replace("PROBE", "tarn.rf." + table);
            // the splits wait for the complete filter, then the default: on a table this small,
            // no wait, so that the filter arrives while the splits are read, if at all
            for (Session session : List.of(waitingForDynamicFilters, runner.getDefaultSession())) {
                MaterializedRow actual = runner.execute(session, tarnJoin).getMaterializedRows().get(0);
                if (!actual.equals(expected)) {
                    failures.add("%s joined on %s to %s: %s expected, %s returned (%s)".formatted(table, key, buildSide.substring(buildSide.lastIndexOf("WHERE")), expected, actual,
                            session == waitingForDynamicFilters ? "waiting for the filter" : "not waiting"));
                }
            }
        }
        assertThat(failures).as("seed %d", seed).isEmpty();
    }

    private String leaf(Random random)
    {
        List<String> names = new ArrayList<>(COLUMNS.keySet());
        String column = names.get(random.nextInt(names.size()));
        boolean ordered = !column.equals("b");
        int kind = random.nextInt(14);
        if (!ordered && kind < 9) {
            return column + (random.nextBoolean() ? " = " : " <> ") + literal(random, column);
        }
        return switch (kind) {
            case 0, 1, 2, 3 -> column + " " + List.of("=", "<>", "<", "<=", ">", ">=").get(random.nextInt(6)) + " " + literal(random, column);
            case 4 -> column + " BETWEEN " + literal(random, column) + " AND " + literal(random, column);
            case 5 -> "(" + column + " IS NULL OR " + column + " " + List.of("<", ">=").get(random.nextInt(2)) + " " + literal(random, column) + ")";
            case 6 -> column.equals("s") || column.equals("u") ? column + " LIKE '" + prefix(random, column) + "%'" : column + " IS NULL";
            case 7 -> column.equals("s") || column.equals("u") ? "starts_with(" + column + ", '" + prefix(random, column) + "')" : column + " IS NOT NULL";
            case 8 -> column + " IS NOT NULL";
            // long lists stand for the joins' dynamic filters as well
            case 9 -> column + " IN (" + list(random, column, 20 + random.nextInt(150)) + ")";
            case 10 -> column + " NOT IN (" + list(random, column, 1 + random.nextInt(4)) + ")";
            default -> column + " IN (" + list(random, column, 1 + random.nextInt(4)) + ")";
        };
    }

    private String prefix(Random random, String column)
    {
        String value = literal(random, column);
        // the text between the cast's quotes, cut to a prefix
        String text = value.substring(value.indexOf('\'') + 1, value.lastIndexOf('\'')).replace("''", "'");
        return text.substring(0, random.nextInt(Math.min(text.length(), 4) + 1)).replace("'", "''");
    }

    private String list(Random random, String column, int count)
    {
        return IntStream.range(0, count).mapToObj(ignored -> literal(random, column)).distinct().collect(Collectors.joining(", "));
    }

    private String literal(Random random, String column)
    {
        List<String> values = random.nextBoolean() ? held.get(column) : others.get(column);
        return values.get(random.nextInt(values.size()));
    }

    /**
     * Up to 300 distinct non-null values of {@code column} among the rows of {@code rows}, each as
     * SQL: a cast of its text to the column's type (hex for VARBINARY).
     */
    private List<String> literals(String column, String rows)
    {
        List<String> literals = new ArrayList<>();
        for (MaterializedRow row : runner.execute("SELECT DISTINCT " + text(column) + " FROM (" + rows + ") WHERE " + column + " IS NOT NULL LIMIT 300").getMaterializedRows()) {
            String value = ((String) row.getField(0)).replace("'", "''");
            literals.add(column.equals("vb") ? "from_hex('" + value + "')" : "CAST('" + value + "' AS " + COLUMNS.get(column) + ")");
        }
        assertThat(literals).as("values of %s", column).isNotEmpty();
        return literals;
    }

    private static String text(String column)
    {
        return column.equals("vb") ? "to_hex(vb)" : "CAST(" + column + " AS varchar)";
    }

    private List<Integer> ids(String sql)
    {
        return runner.execute(sql).getMaterializedRows().stream().map(row -> ((Number) row.getField(0)).intValue()).sorted().toList();
    }

    private static String generator(int first, int last)
    {
        return GENERATOR.replace("FIRST", Integer.toString(first)).replace("LAST", Integer.toString(last));
    }
}
