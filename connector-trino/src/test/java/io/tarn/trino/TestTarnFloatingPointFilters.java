package io.tarn.trino;

import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryFailedException;
import io.trino.testing.MaterializedRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filters on DOUBLE and REAL columns holding -0.0, 0.0, NaN, the infinities, subnormals, NULL
 * and ordinary values, compared with Trino's own evaluation of the same predicate over the same
 * values in a {@code VALUES} relation. Each table is written by one CTAS, partitioned by the group
 * of values ({@code g}) so that files have their own statistics (files of only -0.0, only 0.0,
 * only NaN, only NULL, a max of -0.0, a min of 0.0, NaN among numbers, every special value mixed),
 * with tiny row groups and pages so that row-group and page statistics apply. Layouts: dictionary
 * pages, bucketed by {@code d}, with a Bloom filter on {@code d} and a bitmap index on {@code r};
 * plain pages with the indexes the other way round; and partitioned by {@code p}, which holds the
 * value itself for the small groups, so that -0.0, 0.0 and NaN are partition values.
 */
public class TestTarnFloatingPointFilters
{
    private static final List<String> TABLES = List.of("dictionary_bloom", "plain_bitmap", "by_value");
    private static final int RANDOM_PREDICATES = 30;

    // literals drawn into predicates: special values as SQL spells them, in both types
    private static final List<String> DOUBLE_LITERALS = List.of(
            "0", "0.0E0", "-0.0E0", "DOUBLE '-0.0'", "nan()", "infinity()", "-infinity()", "4.9E-324", "-4.9E-324",
            "1.5E0", "-2.5E0", "1", "-1", "3.0E0", "1.0E300", "REAL '0.0'", "REAL '-0.0'", "CAST(nan() AS real)");
    private static final List<String> REAL_LITERALS = List.of(
            "REAL '0.0'", "REAL '-0.0'", "CAST(nan() AS real)", "CAST(infinity() AS real)", "CAST(-infinity() AS real)",
            "REAL '1.4E-45'", "REAL '-1.4E-45'", "REAL '0.25'", "REAL '-0.5'", "REAL '1'", "0", "-0.0E0", "nan()", "1.4E-45");
    private static final String REAL_NAN = "CAST(nan() AS real)";
    // DOUBLE literals among REAL_LITERALS that no REAL value equals
    private static final List<String> INEXACT_REAL_LITERALS = List.of("nan()", "1.4E-45");
    private static final List<String> ZERO_LITERALS = List.of("0", "0.0E0", "-0.0E0", "DOUBLE '-0.0'", "REAL '0.0'", "REAL '-0.0'");

    private final List<Row> rows = new ArrayList<>();
    private Path warehouse;
    private DistributedQueryRunner runner;
    private String valuesRelation;

    /**
     * A row of group {@code group}; {@code p} is the partition value of the by-value table.
     */
    private record Row(int id, Double d, Float r, int group, Double p)
    {
        String sql()
        {
            return "(" + id + ", " + doubleSql(d) + ", " + realSql(r) + ", " + group + ", " + doubleSql(p) + ")";
        }
    }

    @BeforeClass
    public void setUp()
            throws Exception
    {
        List<List<Double>> doubles = new ArrayList<>();
        List<List<Float>> reals = new ArrayList<>();
        doubles.add(repeat(-0.0, 5));
        reals.add(repeatReal(-0.0f, 5));
        doubles.add(repeat(0.0, 5));
        reals.add(repeatReal(0.0f, 5));
        doubles.add(repeat(Double.NaN, 4));
        reals.add(repeatReal(Float.NaN, 4));
        doubles.add(Arrays.asList(null, null, null));
        reals.add(Arrays.asList(null, null, null));
        doubles.add(IntStream.range(-20, 21).mapToObj(i -> i * 1.5).filter(value -> value != 0).toList());
        reals.add(IntStream.range(-20, 21).mapToObj(i -> i * 0.25f).filter(value -> value != 0).toList());
        // a max of -0.0, a min of 0.0, NaN among numbers
        doubles.add(List.of(-3.0, -0.0, -1.0, -0.0));
        reals.add(List.of(-3.0f, -0.0f, -1.0f, -0.0f));
        doubles.add(List.of(0.0, 2.0, 3.0, 0.0));
        reals.add(List.of(0.0f, 2.0f, 3.0f, 0.0f));
        doubles.add(List.of(Double.NaN, 5.0, 6.0, Double.NaN));
        reals.add(List.of(5.0f, Float.NaN, Float.NaN, 6.0f));
        // rows from a small domain: several row groups and pages, dictionary encoded where enabled
        List<Double> special = Arrays.asList(-0.0, 0.0, Double.NaN, null, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.MIN_VALUE, -Double.MIN_VALUE, 1.5, -2.5, 3.0, 0.0, -0.0);
        List<Float> specialReal = Arrays.asList(0.0f, -0.0f, null, Float.NaN, Float.MIN_VALUE, -Float.MIN_VALUE, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, 0.25f, -0.5f, 1.0f);
        doubles.add(IntStream.range(0, 160).mapToObj(i -> special.get(i % special.size())).toList());
        reals.add(IntStream.range(0, 160).mapToObj(i -> specialReal.get((i * 7) % specialReal.size())).toList());
        for (int group = 0; group < doubles.size(); group++) {
            boolean small = doubles.get(group).size() <= 5;
            for (int i = 0; i < doubles.get(group).size(); i++) {
                Double d = doubles.get(group).get(i);
                rows.add(new Row(rows.size(), d, reals.get(group).get(i), group, small ? d : null));
            }
        }
        valuesRelation = "(VALUES " + rows.stream().map(Row::sql).collect(Collectors.joining(", ")) + ") t(id, d, r, g, p)";

        warehouse = TemporaryDirectories.create("tarn-trino-floats");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.f");
        // row groups of about 1 kB and pages of 64 bytes
        String tiny = "'parquet.block.size', 'parquet.page.size'";
        runner.execute("CREATE TABLE tarn.f.dictionary_bloom WITH (partitioned_by = ARRAY['g'], bucket = 2, bucket_key = ARRAY['d'], " +
                "file_index_bloom_filter_columns = ARRAY['d'], file_index_bitmap_columns = ARRAY['r'], options = MAP(ARRAY[" + tiny + "], ARRAY['1024', '64'])) " +
                "AS SELECT * FROM " + valuesRelation);
        runner.execute("CREATE TABLE tarn.f.plain_bitmap WITH (partitioned_by = ARRAY['g'], file_index_bitmap_columns = ARRAY['d'], file_index_bloom_filter_columns = ARRAY['r'], " +
                "options = MAP(ARRAY[" + tiny + ", 'parquet.enable.dictionary'], ARRAY['1024', '64', 'false'])) AS SELECT * FROM " + valuesRelation);
        runner.execute("CREATE TABLE tarn.f.by_value WITH (partitioned_by = ARRAY['p']) AS SELECT * FROM " + valuesRelation);
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

    private void assertTablesHoldTheValuesWritten()
    {
        // the sign of zero and NaN survive the round trip, as Trino renders them
        String rendered = "SELECT id, CAST(d AS varchar), CAST(r AS varchar), g, CAST(p AS varchar) FROM %s";
        List<String> expected = rendered(runner.execute(rendered.formatted(valuesRelation)).getMaterializedRows());
        for (String table : TABLES) {
            assertThat(rendered(runner.execute(rendered.formatted("tarn.f." + table)).getMaterializedRows())).as(table).containsExactlyInAnyOrderElementsOf(expected);
        }
        // one file or more per group and bucket, so that statistics differ between files
        assertThat((Long) runner.execute("SELECT count(*) FROM tarn.f.\"plain_bitmap$files\"").getOnlyValue()).isGreaterThanOrEqualTo(9L);
    }

    @Test
    public void testIssueExamples()
    {
        assertTablesHoldTheValuesWritten();
        Map<String, List<Integer>> written = Map.of(
                "d = 0", idsWhere(row -> row.d() != null && row.d() == 0.0),
                "d = -0.0E0", idsWhere(row -> row.d() != null && row.d() == 0.0),
                "d IN (0)", idsWhere(row -> row.d() != null && row.d() == 0.0),
                "r = 0", idsWhere(row -> row.r() != null && row.r() == 0.0f),
                "d >= 0", idsWhere(row -> row.d() != null && row.d() >= 0.0),
                "d <= -0.0E0", idsWhere(row -> row.d() != null && row.d() <= -0.0),
                "p = 0", idsWhere(row -> row.p() != null && row.p() == 0.0),
                "d = nan()", List.of(),
                "d <> nan()", idsWhere(row -> row.d() != null));
        assertThat(written.get("d = 0")).isNotEmpty();
        for (Map.Entry<String, List<Integer>> example : written.entrySet()) {
            List<Integer> trino = trinoIds(example.getKey());
            // Trino over the values agrees with the values written
            assertThat(trino).as("Trino: %s", example.getKey()).containsExactlyInAnyOrderElementsOf(example.getValue());
            for (String table : TABLES) {
                assertThat(selectIds(table, example.getKey())).as("%s WHERE %s", table, example.getKey()).containsExactlyInAnyOrderElementsOf(trino);
            }
        }
        for (String predicate : List.of("d < 0", "r > 0", "d <> 0", "NOT (d < 1)", "d NOT IN (0, 1.5E0)", "r IN (REAL '-0.0', 7)", "d BETWEEN -0.0E0 AND 0", "p > -0.0E0",
                "r = REAL '-2.5' OR r IN (-0.0E0, REAL '0.0', 0)")) {
            assertSameAsTrino(predicate, "issue example");
        }
    }

    @Test
    public void testRandomPredicatesAgainstTrino()
    {
        long seed = System.nanoTime();
        System.out.println("TestTarnFloatingPointFilters.testRandomPredicatesAgainstTrino seed: " + seed);
        Random random = new Random(seed);
        for (int i = 0; i < RANDOM_PREDICATES; i++) {
            assertSameAsTrino(SqlPredicateTrees.tree(random, 2, this::leaf), "seed " + seed + ", query " + i);
        }
    }

    private void assertSameAsTrino(String predicate, String context)
    {
        List<Integer> expected;
        try {
            expected = trinoIds(predicate);
        }
        catch (QueryFailedException e) {
            // Trino 476's planner fails on ranges with a NaN bound, such as
            // d >= -infinity() AND d <= nan(), before any connector is asked: nothing to compare
            if (e.getMessage() != null && e.getMessage().contains("low value must be less than or equal to high value")) {
                System.out.println("Trino cannot plan, skipped: " + predicate);
                return;
            }
            throw e;
        }
        for (String table : TABLES) {
            List<Integer> expectedOfTable = expected;
            Optional<String> planned = plannedFilter(table, predicate);
            if (planned.isPresent()) {
                // what the connector enforces (a partition column's domain) is not in the plan's filter
                expectedOfTable = trinoIdsOrElse("(" + planned.get() + ") AND (" + predicate + ")", expected);
                if (!expectedOfTable.equals(expected)) {
                    System.out.printf("Trino evaluates %s over a scan of %s, not %s: %s rows against %s over VALUES%n", planned.get(), table, predicate, expectedOfTable.size(), expected.size());
                }
            }
            assertThat(selectIds(table, predicate)).as("%s: %s WHERE %s", context, table, predicate).containsExactlyInAnyOrderElementsOf(expectedOfTable);
        }
    }

    /**
     * The filter Trino applies to the rows a scan of {@code table} returns, when it is not the
     * predicate written. Trino rebuilds it from the domain it hands the connector, and that can
     * change the answer: Trino 483's IN over REAL and DOUBLE misses a zero of the other sign than
     * its literal's (over {@code VALUES}, {@code r IN (REAL '-2.5', REAL '-0.0')} finds no 0.0 row,
     * while {@code r = REAL '-0.0'} does), and its planner turns {@code r = REAL '-2.5' OR r IN
     * (-0.0E0, REAL '0.0', 0)} into just that IN (seed 9544409841521). Tarn returns the zero rows
     * of both signs; Trino's own filter then drops half of them. Tarn is measured against the rows
     * of the values written that pass both Trino's filter and the predicate (the connector enforces
     * what the plan leaves out, the domain of a partition column), so that Trino's rewrite does not
     * count against it.
     */
    private Optional<String> plannedFilter(String table, String predicate)
    {
        String plan = (String) runner.execute("EXPLAIN SELECT id FROM tarn.f." + table + " WHERE " + predicate).getOnlyValue();
        String marker = "filterPredicate = ";
        int start = plan.indexOf(marker);
        if (start < 0 || plan.indexOf(marker, start + 1) >= 0) {
            return Optional.empty();
        }
        start += marker.length();
        int end = plan.indexOf('\n', start);
        String line = plan.substring(start, end < 0 ? plan.length() : end).strip();
        if (!line.endsWith("]")) {
            return Optional.empty();
        }
        // the plan spells NOT as a function
        String filter = line.substring(0, line.length() - 1).replace("$not(", "NOT (");
        return filter.equals("(" + predicate + ")") ? Optional.empty() : Optional.of(filter);
    }

    private List<Integer> trinoIds(String predicate)
    {
        return idsOf(runner.execute("SELECT id FROM " + valuesRelation + " WHERE " + predicate).getMaterializedRows());
    }

    /**
     * Trino's answer for a filter taken from a plan, or {@code fallback} when Trino cannot run
     * that text as SQL.
     */
    private List<Integer> trinoIdsOrElse(String plannedFilter, List<Integer> fallback)
    {
        try {
            return trinoIds(plannedFilter);
        }
        catch (QueryFailedException e) {
            System.out.println("Trino cannot run its planned filter " + plannedFilter + " as SQL: " + e.getMessage());
            return fallback;
        }
    }

    private List<Integer> selectIds(String table, String predicate)
    {
        return idsOf(runner.execute("SELECT id FROM tarn.f." + table + " WHERE " + predicate).getMaterializedRows());
    }

    private List<Integer> idsWhere(Predicate<Row> condition)
    {
        return rows.stream().filter(condition).map(Row::id).toList();
    }

    private String leaf(Random random)
    {
        boolean real = random.nextInt(3) == 0;
        String column = real ? "r" : random.nextInt(4) == 0 ? "p" : "d";
        return switch (random.nextInt(12)) {
            case 0, 1, 2, 3 -> column + " " + pick(random, List.of("=", "<>", "<", "<=", ">", ">=")) + " " + literal(random, real);
            case 4, 5 -> column + " IN (" + inList(random, real) + ")";
            case 6 -> column + " NOT IN (" + inList(random, real) + ")";
            case 7 -> column + " BETWEEN " + bound(random, real) + " AND " + bound(random, real);
            case 8 -> column + " NOT BETWEEN " + bound(random, real) + " AND " + bound(random, real);
            case 9 -> column + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 10 -> "is_nan(" + column + ")";
            default -> "(" + column + " = " + orLiteral(random, real) + " OR " + column + " = " + orLiteral(random, real) + ")";
        };
    }

    /**
     * An IN list. Not a REAL NaN in the list of a REAL column: Trino 476 evaluates such a list
     * by bits, so that over {@code VALUES} NaN IN (NaN) is TRUE, while its planner drops the NaN
     * from the list before it reaches a connector (the scan's filter becomes {@code r = 1} for
     * {@code r IN (REAL '1', CAST(nan() AS real))}); the comparison would then test Trino.
     *
     * <p>Nor, in the list of a REAL column, an infinity beside a DOUBLE literal that no REAL equals
     * ({@code 1.4E-45}, {@code nan()}): Trino 483's planner then loses the infinity before any
     * connector is asked ({@code r IN (1.4E-45, CAST(infinity() AS real))} plans as an empty
     * {@code Values}, {@code r IN (1.4E-45, REAL '0.25', CAST(infinity() AS real))} returns the
     * 0.25 rows only), while over {@code VALUES} it finds the infinite rows (seed 4039047507441).
     *
     * <p>Nor a zero: over {@code VALUES}, Trino 483's IN finds only the zeros of its literal's sign
     * (see {@link #plannedFilter}), and where the planner keeps the IN beside another filter the
     * rows to compare with are wrong too ({@code r = -0.0E0 AND r IN (REAL '1.4E-45',
     * CAST(infinity() AS real), REAL '-0.0')} finds the -0.0 rows only, and the scan's filter
     * {@code r = REAL '-0.0'} both signs; seed 51955016225901). Zeros in IN lists stay covered by
     * the fixed examples of {@link #testIssueExamples}, whose answers are known.
     */
    private String inList(Random random, boolean real)
    {
        int count = 1 + random.nextInt(3);
        List<String> literals = new ArrayList<>();
        while (literals.size() < count) {
            String literal = literal(random, real);
            if ((!real || !literal.equals(REAL_NAN)) && !ZERO_LITERALS.contains(literal)) {
                literals.add(literal);
            }
        }
        if (real && literals.stream().anyMatch(literal -> literal.contains("infinity()")) && literals.stream().anyMatch(INEXACT_REAL_LITERALS::contains)) {
            return inList(random, real);
        }
        return String.join(", ", literals);
    }

    /**
     * A literal of an OR of two equalities, which Trino's planner turns into an IN list: so, as
     * in {@link #inList}, not a REAL NaN for a REAL column. Over {@code VALUES} Trino then finds the
     * NaN rows for {@code r = CAST(nan() AS real) OR r = REAL '-0.0'} (and not the 0.0 rows), which
     * SQL's {@code =} never does (seed 22838857213027; Tarn returned the zero rows of both signs
     * and no NaN row).
     */
    private String orLiteral(Random random, boolean real)
    {
        while (true) {
            String literal = literal(random, real);
            if (!real || !literal.equals(REAL_NAN)) {
                return literal;
            }
        }
    }

    /**
     * A BETWEEN bound, never NaN: Trino 476's planner fails on {@code x BETWEEN -infinity() AND
     * nan()} ("low value must be less than or equal to high value") before any connector is asked.
     */
    private String bound(Random random, boolean real)
    {
        while (true) {
            String literal = literal(random, real);
            if (!literal.contains("nan()") && !literal.contains("NaN")) {
                return literal;
            }
        }
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

    private static List<String> rendered(List<MaterializedRow> result)
    {
        return result.stream().map(row -> row.getFields().toString()).toList();
    }
}
