package io.tarn.trino;

import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filters on DOUBLE and REAL columns holding -0.0, 0.0, NaN, the infinities, subnormals, NULL
 * and ordinary values, compared with Trino's own evaluation of the same predicate over the same
 * values in a {@code VALUES} relation. The tables are written through Trino, one INSERT per
 * group of values so that files have their own statistics (files of only -0.0, only 0.0, only
 * NaN, only NULL, a max of -0.0, a min of 0.0, NaN among numbers), with tiny row groups and pages
 * so that row-group and page statistics apply, and in four layouts: dictionary pages with a
 * Bloom filter on {@code d} and a bitmap index on {@code r}; plain pages with the indexes the
 * other way round; bucketed by {@code d}; and partitioned by a column derived from the values
 * ({@code p}), whose partition values are evaluated as well.
 */
public class TestTarnFloatingPointFilters
{
    private static final List<String> TABLES = List.of("dictionary_bloom", "plain_bitmap", "bucketed", "partitioned");
    private static final int RANDOM_QUERIES_PER_TABLE = 60;

    // literals drawn into predicates: special values as SQL spells them, in both types
    private static final List<String> DOUBLE_LITERALS = List.of(
            "0", "0.0E0", "-0.0E0", "DOUBLE '-0.0'", "nan()", "infinity()", "-infinity()", "4.9E-324", "-4.9E-324",
            "1.5E0", "-2.5E0", "1", "-1", "3.0E0", "1.0E300", "REAL '0.0'", "REAL '-0.0'", "CAST(nan() AS real)");
    private static final List<String> REAL_LITERALS = List.of(
            "REAL '0.0'", "REAL '-0.0'", "CAST(nan() AS real)", "CAST(infinity() AS real)", "CAST(-infinity() AS real)",
            "REAL '1.4E-45'", "REAL '-1.4E-45'", "REAL '0.25'", "REAL '-0.5'", "REAL '1'", "0", "-0.0E0", "nan()", "1.4E-45");

    private final List<Row> rows = new ArrayList<>();
    private int nextId;
    private Path warehouse;
    private DistributedQueryRunner runner;
    private String valuesRelation;

    private record Row(int id, Double d, Float r)
    {
        String sql()
        {
            return "(" + id + ", " + doubleSql(d) + ", " + realSql(r) + ")";
        }
    }

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-floats");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.f");
        // row groups of about 1 kB and pages of 64 bytes
        String tiny = "'parquet.block.size', 'parquet.page.size'";
        runner.execute("CREATE TABLE tarn.f.dictionary_bloom (id integer, d double, r real) WITH (file_index_bloom_filter_columns = ARRAY['d'], " +
                "file_index_bitmap_columns = ARRAY['r'], options = MAP(ARRAY[" + tiny + "], ARRAY['1024', '64']))");
        runner.execute("CREATE TABLE tarn.f.plain_bitmap (id integer, d double, r real) WITH (file_index_bitmap_columns = ARRAY['d'], " +
                "file_index_bloom_filter_columns = ARRAY['r'], options = MAP(ARRAY[" + tiny + ", 'parquet.enable.dictionary'], ARRAY['1024', '64', 'false']))");
        runner.execute("CREATE TABLE tarn.f.bucketed (id integer, d double, r real) WITH (bucket = 4, bucket_key = ARRAY['d'])");
        runner.execute("CREATE TABLE tarn.f.partitioned (id integer, d double, r real, p double) WITH (partitioned_by = ARRAY['p'])");

        // each group is one INSERT, so one file (or a few) with its own statistics
        List<List<Row>> groups = new ArrayList<>();
        groups.add(group(repeat(-0.0, 5), repeatReal(-0.0f, 5)));
        groups.add(group(repeat(0.0, 5), repeatReal(0.0f, 5)));
        groups.add(group(repeat(Double.NaN, 4), repeatReal(Float.NaN, 4)));
        groups.add(group(Arrays.asList(null, null, null), Arrays.asList(null, null, null)));
        groups.add(group(IntStream.range(1, 41).mapToObj(i -> i * 1.5).toList(), IntStream.range(1, 41).mapToObj(i -> i * 0.25f).toList()));
        groups.add(group(IntStream.range(1, 31).mapToObj(i -> -i * 2.5).toList(), IntStream.range(1, 31).mapToObj(i -> -i * 0.5f).toList()));
        groups.add(group(List.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE),
                List.of(Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE)));
        // a max of -0.0, a min of 0.0, NaN among numbers
        groups.add(group(List.of(-3.0, -0.0, -1.0, -0.0), List.of(-3.0f, -0.0f, -1.0f, -0.0f)));
        groups.add(group(List.of(0.0, 2.0, 3.0, 0.0), List.of(0.0f, 2.0f, 3.0f, 0.0f)));
        groups.add(group(List.of(Double.NaN, 5.0, 6.0, Double.NaN), List.of(5.0f, Float.NaN, Float.NaN, 6.0f)));
        // many rows from a small domain: several row groups and pages, dictionary encoded where enabled
        List<Double> special = Arrays.asList(-0.0, 0.0, Double.NaN, null, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, 1.5, -2.5, 3.0, 0.0, -0.0);
        List<Float> specialReal = Arrays.asList(0.0f, -0.0f, null, Float.NaN, Float.MIN_VALUE, -Float.MIN_VALUE, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, 0.25f, -0.5f, 1.0f);
        groups.add(group(IntStream.range(0, 300).mapToObj(i -> special.get(i % special.size())).toList(),
                IntStream.range(0, 300).mapToObj(i -> specialReal.get((i * 7) % specialReal.size())).toList()));

        List<String> partitionedRows = new ArrayList<>();
        for (List<Row> group : groups) {
            // the small groups are partitioned by their value, so -0.0, 0.0 and NaN are partition values
            boolean byValue = group.size() <= 5;
            List<String> withPartition = group.stream()
                    .map(row -> "(" + row.id() + ", " + doubleSql(row.d()) + ", " + realSql(row.r()) + ", " + (byValue ? doubleSql(row.d()) : "CAST(NULL AS double)") + ")")
                    .toList();
            partitionedRows.addAll(withPartition);
            String values = group.stream().map(Row::sql).collect(Collectors.joining(", "));
            for (String table : TABLES) {
                if (table.equals("partitioned")) {
                    runner.execute("INSERT INTO tarn.f.partitioned SELECT * FROM (VALUES " + String.join(", ", withPartition) + ") t(id, d, r, p)");
                }
                else {
                    runner.execute("INSERT INTO tarn.f." + table + " SELECT * FROM (VALUES " + values + ") t(id, d, r)");
                }
            }
            rows.addAll(group);
        }
        valuesRelation = "(VALUES " + String.join(", ", partitionedRows) + ") t(id, d, r, p)";
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
    public void testTablesHoldTheValuesWritten()
    {
        // the sign of zero and NaN survive the round trip, as Trino renders them
        String rendered = "SELECT id, CAST(d AS varchar), CAST(r AS varchar) FROM %s";
        List<String> expected = ids(runner.execute(rendered.formatted(valuesRelation)).getMaterializedRows());
        for (String table : TABLES) {
            assertThat(ids(runner.execute(rendered.formatted("tarn.f." + table)).getMaterializedRows())).as(table).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    public void testIssueExamples()
    {
        List<Integer> zeros = rows.stream().filter(row -> row.d() != null && row.d() == 0.0).map(Row::id).toList();
        List<Integer> realZeros = rows.stream().filter(row -> row.r() != null && row.r() == 0.0f).map(Row::id).toList();
        List<Integer> nonNegative = rows.stream().filter(row -> row.d() != null && row.d() >= 0.0).map(Row::id).toList();
        List<Integer> atMostNegativeZero = rows.stream().filter(row -> row.d() != null && row.d() <= -0.0).map(Row::id).toList();
        assertThat(zeros).isNotEmpty();
        for (String table : TABLES) {
            assertThat(selectIds(table, "d = 0")).as(table).containsExactlyInAnyOrderElementsOf(zeros);
            assertThat(selectIds(table, "d = -0.0E0")).as(table).containsExactlyInAnyOrderElementsOf(zeros);
            assertThat(selectIds(table, "d IN (0)")).as(table).containsExactlyInAnyOrderElementsOf(zeros);
            assertThat(selectIds(table, "d IN (-0.0E0, 12345)")).as(table).containsExactlyInAnyOrderElementsOf(zeros);
            assertThat(selectIds(table, "r = 0")).as(table).containsExactlyInAnyOrderElementsOf(realZeros);
            assertThat(selectIds(table, "r = REAL '-0.0'")).as(table).containsExactlyInAnyOrderElementsOf(realZeros);
            assertThat(selectIds(table, "d >= 0")).as(table).containsExactlyInAnyOrderElementsOf(nonNegative);
            assertThat(selectIds(table, "d <= -0.0E0")).as(table).containsExactlyInAnyOrderElementsOf(atMostNegativeZero);
            assertThat(selectIds(table, "d = nan()")).as(table).isEmpty();
            assertThat(selectIds(table, "d <> nan()")).as(table).hasSize((int) rows.stream().filter(row -> row.d() != null).count());
            // the same answers as Trino over the values
            for (String predicate : List.of("d = 0", "d = -0.0E0", "d IN (0)", "r = 0", "d >= 0", "d <= -0.0E0", "d < 0", "r > 0", "d <> 0", "NOT (d < 1)", "d NOT IN (0, 1.5E0)")) {
                assertSameAsTrino(table, predicate, "issue example");
            }
        }
    }

    @Test
    public void testRandomPredicatesAgainstTrino()
    {
        long seed = System.nanoTime();
        System.out.println("TestTarnFloatingPointFilters.testRandomPredicatesAgainstTrino seed: " + seed);
        Random random = new Random(seed);
        for (String table : TABLES) {
            for (int i = 0; i < RANDOM_QUERIES_PER_TABLE; i++) {
                assertSameAsTrino(table, predicate(random, 2, table.equals("partitioned")), "seed " + seed + ", query " + i);
            }
        }
    }

    private void assertSameAsTrino(String table, String predicate, String context)
    {
        List<Integer> expected = idsOf(runner.execute("SELECT id FROM " + valuesRelation + " WHERE " + predicate).getMaterializedRows());
        List<Integer> actual = selectIds(table, predicate);
        assertThat(actual).as("%s: %s WHERE %s", context, table, predicate).containsExactlyInAnyOrderElementsOf(expected);
    }

    private List<Integer> selectIds(String table, String predicate)
    {
        return idsOf(runner.execute("SELECT id FROM tarn.f." + table + " WHERE " + predicate).getMaterializedRows());
    }

    private String predicate(Random random, int depth, boolean partitioned)
    {
        if (depth == 0 || random.nextInt(3) == 0) {
            return leaf(random, partitioned);
        }
        return switch (random.nextInt(3)) {
            case 0 -> "NOT (" + predicate(random, depth - 1, partitioned) + ")";
            case 1 -> "(" + predicate(random, depth - 1, partitioned) + " AND " + predicate(random, depth - 1, partitioned) + ")";
            default -> "(" + predicate(random, depth - 1, partitioned) + " OR " + predicate(random, depth - 1, partitioned) + ")";
        };
    }

    private String leaf(Random random, boolean partitioned)
    {
        boolean real = random.nextInt(3) == 0;
        String column = real ? "r" : partitioned && random.nextInt(3) == 0 ? "p" : "d";
        return switch (random.nextInt(12)) {
            case 0, 1, 2, 3 -> column + " " + pick(random, List.of("=", "<>", "<", "<=", ">", ">=")) + " " + literal(random, real);
            case 4, 5 -> column + " IN (" + literals(random, real) + ")";
            case 6 -> column + " NOT IN (" + literals(random, real) + ")";
            case 7 -> column + " BETWEEN " + literal(random, real) + " AND " + literal(random, real);
            case 8 -> column + " NOT BETWEEN " + literal(random, real) + " AND " + literal(random, real);
            case 9 -> column + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 10 -> "is_nan(" + column + ")";
            default -> "(" + column + " = " + literal(random, real) + " OR " + column + " = " + literal(random, real) + ")";
        };
    }

    private String literals(Random random, boolean real)
    {
        int count = 1 + random.nextInt(3);
        List<String> literals = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            literals.add(literal(random, real));
        }
        return String.join(", ", literals);
    }

    private String literal(Random random, boolean real)
    {
        if (random.nextInt(4) == 0) {
            // a value from the data
            Row row = rows.get(random.nextInt(rows.size()));
            if (real && row.r() != null) {
                return realSql(row.r());
            }
            if (!real && row.d() != null) {
                return doubleSql(row.d());
            }
        }
        return pick(random, real ? REAL_LITERALS : DOUBLE_LITERALS);
    }

    private static <T> T pick(Random random, List<T> values)
    {
        return values.get(random.nextInt(values.size()));
    }

    private List<Row> group(List<Double> doubles, List<Float> reals)
    {
        List<Row> group = new ArrayList<>();
        for (int i = 0; i < doubles.size(); i++) {
            group.add(new Row(nextId++, doubles.get(i), reals.get(i)));
        }
        return group;
    }

    private static List<Double> repeat(double value, int count)
    {
        return IntStream.range(0, count).mapToObj(i -> value).toList();
    }

    private static List<Float> repeatReal(float value, int count)
    {
        return IntStream.range(0, count).mapToObj(i -> value).toList();
    }

    private static String doubleSql(Double value)
    {
        if (value == null) {
            return "CAST(NULL AS double)";
        }
        if (value.isNaN()) {
            return "nan()";
        }
        if (value.isInfinite()) {
            return value > 0 ? "infinity()" : "-infinity()";
        }
        return "DOUBLE '" + value + "'";
    }

    private static String realSql(Float value)
    {
        if (value == null) {
            return "CAST(NULL AS real)";
        }
        if (value.isNaN()) {
            return "CAST(nan() AS real)";
        }
        if (value.isInfinite()) {
            return value > 0 ? "CAST(infinity() AS real)" : "CAST(-infinity() AS real)";
        }
        return "REAL '" + value + "'";
    }

    private static List<Integer> idsOf(List<MaterializedRow> result)
    {
        return result.stream().map(row -> (Integer) row.getField(0)).toList();
    }

    private static List<String> ids(List<MaterializedRow> result)
    {
        return result.stream().map(row -> row.getFields().toString()).toList();
    }
}
