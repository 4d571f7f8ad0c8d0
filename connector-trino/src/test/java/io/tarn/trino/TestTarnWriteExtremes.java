package io.tarn.trino;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The extreme values of every type, written through Trino (INSERT, CREATE TABLE AS, and into a
 * partitioned table where the column is the partition key), read back through Trino and by
 * Apache Paimon. The expected values are Trino's own evaluation of the same literals over
 * {@code VALUES}. Values that Paimon's types or Tarn's representation cannot hold are refused with
 * a message naming the table, the column and the value, and leave the table as it was.
 */
public class TestTarnWriteExtremes
{
    private Path warehouse;
    private DistributedQueryRunner runner;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-trino-write-extremes");
        runner = TarnQueryRunner.create(warehouse, Map.of());
        runner.execute("CREATE SCHEMA tarn.x");
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

    /**
     * Every atomic type's extremes, by INSERT, CREATE TABLE AS and as a partition key: one behaviour,
     * each family in its own method below.
     */
    @Test
    public void testExtremesOfEveryType()
    {
        integers();
        floatingPoint();
        decimals();
        dates();
        times();
        timestamps();
        timestampsWithTimeZone();
        stringsAndBinary();
    }

    private void integers()
    {
        assertWritten("i8", "tinyint", true, "-128", "127", "0");
        assertWritten("i16", "smallint", true, "-32768", "32767", "-1");
        assertWritten("i32", "integer", true, "-2147483648", "2147483647", "1");
        assertWritten("i64", "bigint", true, "-9223372036854775808", "9223372036854775807", "0");
    }

    private void floatingPoint()
    {
        assertWritten("f32", "real", true,
                "REAL '3.4028235E38'", "REAL '-3.4028235E38'", "REAL '1.4E-45'", "REAL '-1.4E-45'", "REAL '0.0'", "REAL '-0.0'",
                "nan()", "infinity()", "-infinity()");
        assertWritten("f64", "double", true,
                "DOUBLE '1.7976931348623157E308'", "DOUBLE '-1.7976931348623157E308'", "DOUBLE '4.9E-324'", "DOUBLE '-4.9E-324'",
                "DOUBLE '0.0'", "DOUBLE '-0.0'", "nan()", "infinity()", "-infinity()");
    }

    private void decimals()
    {
        String nines38 = "9".repeat(38);
        assertWritten("d38_0", "decimal(38, 0)", true, decimal(nines38), decimal("-" + nines38), decimal("0"), decimal("1"));
        assertWritten("d38_38", "decimal(38, 38)", true, decimal("0." + nines38), decimal("-0." + nines38), decimal("0." + "0".repeat(37) + "1"));
        // the widest short decimal and the narrowest long one: INT64 and FIXED_LEN_BYTE_ARRAY in Parquet
        assertWritten("d18_0", "decimal(18, 0)", true, decimal("9".repeat(18)), decimal("-" + "9".repeat(18)));
        assertWritten("d19_0", "decimal(19, 0)", true, decimal("9".repeat(19)), decimal("-" + "9".repeat(19)), decimal("9223372036854775808"), decimal("-9223372036854775809"));
        // the widest INT32 decimal and the narrowest INT64 one
        assertWritten("d9_2", "decimal(9, 2)", true, decimal("9999999.99"), decimal("-9999999.99"));
        assertWritten("d10_0", "decimal(10, 0)", true, decimal("9999999999"), decimal("-9999999999"), decimal("2147483648"));
    }

    private void dates()
    {
        // Paimon's DATE ranges from 0000-01-01 to 9999-12-31
        assertWritten("dates", "date", true, "DATE '0000-01-01'", "DATE '9999-12-31'", "DATE '1969-12-31'", "DATE '1970-01-01'", "DATE '1582-10-04'", "DATE '1582-10-15'");
    }

    private void times()
    {
        assertWritten("time0", "time(0)", true, "TIME '00:00:00'", "TIME '23:59:59'");
        assertWritten("time3", "time(3)", true, "TIME '00:00:00.000'", "TIME '23:59:59.999'", "TIME '12:00:00.001'");
    }

    private void timestamps()
    {
        for (int precision : new int[] {0, 3, 6}) {
            String fraction = precision == 0 ? "" : "." + "9".repeat(precision);
            assertWritten("ts" + precision, "timestamp(%s)".formatted(precision), true,
                    "TIMESTAMP '0000-01-01 00:00:00'",
                    "TIMESTAMP '9999-12-31 23:59:59%s'".formatted(fraction),
                    "TIMESTAMP '1969-12-31 23:59:59%s'".formatted(fraction),
                    "TIMESTAMP '1970-01-01 00:00:00'",
                    "TIMESTAMP '1600-02-29 12:34:56%s'".formatted(fraction));
        }
        for (int precision : new int[] {7}) {
            String fraction = "." + "9".repeat(precision);
            // TIMESTAMP(7..9) is carried as nanoseconds since 1970 from 1677-09-21 00:12:43.145224192 to 2262-04-11 23:47:16.854775807
            assertWritten("ts" + precision, "timestamp(%s)".formatted(precision), true,
                    "TIMESTAMP '1677-09-21 00:12:43.1452242'",
                    "TIMESTAMP '2262-04-11 23:47:16.8547758'",
                    "TIMESTAMP '1969-12-31 23:59:59%s'".formatted(fraction),
                    "TIMESTAMP '1970-01-01 00:00:00.0000001'",
                    "TIMESTAMP '2024-02-29 12:34:56%s'".formatted(fraction));
        }
        assertWritten("ts9_edges", "timestamp(9)", true,
                "TIMESTAMP '1677-09-21 00:12:43.145224192'",
                "TIMESTAMP '2262-04-11 23:47:16.854775807'",
                "TIMESTAMP '1969-12-31 23:59:59.999999999'",
                "TIMESTAMP '1970-01-01 00:00:00.000000001'",
                "TIMESTAMP '2024-02-29 12:34:56.123456789'");
    }

    private void timestampsWithTimeZone()
    {
        for (int precision : new int[] {0, 3, 6}) {
            String fraction = precision == 0 ? "" : "." + "9".repeat(precision);
            assertWritten("tstz" + precision, "timestamp(%s) with time zone".formatted(precision), true,
                    "TIMESTAMP '0000-01-01 00:00:00 UTC'",
                    "TIMESTAMP '9999-12-31 23:59:59%s UTC'".formatted(fraction),
                    // the instant is kept, in UTC: 9999-12-31 23:59 UTC and 0000-01-01 00:00 UTC
                    "TIMESTAMP '9999-12-31 09:59:59%s -14:00'".formatted(fraction),
                    "TIMESTAMP '0000-01-01 14:00:00 +14:00'",
                    "TIMESTAMP '2020-07-01 12:00:00%s America/New_York'".formatted(fraction),
                    "TIMESTAMP '1969-12-31 23:59:59%s UTC'".formatted(fraction));
        }
        assertWritten("tstz9", "timestamp(9) with time zone", true,
                "TIMESTAMP '1677-09-21 00:12:43.145224192 UTC'",
                "TIMESTAMP '2262-04-11 23:47:16.854775807 UTC'",
                "TIMESTAMP '2262-04-12 08:47:16.854775807 +09:00'",
                "TIMESTAMP '1969-12-31 23:59:59.999999999 UTC'",
                "TIMESTAMP '2020-07-01 12:00:00.123456789 Europe/Ljubljana'");
    }

    private void stringsAndBinary()
    {
        assertWritten("b", "boolean", true, "true", "false");
        assertWritten("c1", "char(1)", true, "''", "'a'", "'ž'");
        assertWritten("c10", "char(10)", true, "''", "'0123456789'", "'čšž😀'", "'a  '");
        assertWritten("vc", "varchar", true, "''", "'čšž'", "'😀𝄞'", "'tab\tand \\ backslash'", "chr(0)");
        assertWritten("vc_long", "varchar", false, "rpad('', 100000, 'xž')", "rpad('', 70000, '😀')");
        assertWritten("vc5", "varchar(5)", true, "'ab'", "'čšžćđ'");
        // Paimon names no partition by a binary value (partition.legacy-name=true), so Tarn refuses those
        assertWritten("vb", "varbinary", false, "X''", "X'00'", "X'ff00ff'");
        assertWritten("vb_long", "varbinary", false, "to_utf8(rpad('', 1000000, 'y'))", "X''");
    }

    @Test
    public void testNestedExtremes()
    {
        String type = "row(ts timestamp(9), tstz timestamp(9) with time zone, d date, dec decimal(38, 0), x double, t array(timestamp(6)), m map(varchar, decimal(18, 18)))";
        assertWritten("nested_row", type, false,
                "ROW(TIMESTAMP '2262-04-11 23:47:16.854775807', TIMESTAMP '1677-09-21 00:12:43.145224192 UTC', DATE '9999-12-31', " + decimal("9".repeat(38))
                        + ", nan(), ARRAY[TIMESTAMP '0000-01-01 00:00:00', NULL, TIMESTAMP '9999-12-31 23:59:59.999999'], MAP(ARRAY['max'], ARRAY[" + decimal("0." + "9".repeat(18)) + "]))",
                "ROW(TIMESTAMP '1677-09-21 00:12:43.145224192', TIMESTAMP '2262-04-11 23:47:16.854775807 UTC', DATE '0000-01-01', " + decimal("-" + "9".repeat(38))
                        + ", -infinity(), ARRAY[], MAP(ARRAY['min'], ARRAY[" + decimal("-0." + "9".repeat(18)) + "]))",
                "ROW(NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
        assertWritten("nested_array", "array(timestamp(9) with time zone)", false,
                "ARRAY[TIMESTAMP '2262-04-11 23:47:16.854775807 UTC', NULL, TIMESTAMP '1677-09-21 00:12:43.145224192 UTC']", "ARRAY[]");
        assertWritten("nested_map", "map(bigint, array(date))", false,
                "MAP(ARRAY[-9223372036854775808], ARRAY[ARRAY[DATE '0000-01-01', DATE '9999-12-31']])", "MAP()");
    }

    @Test
    public void testTimestamp9OutsideNanosecondsIsRefused()
    {
        // the cases of the issue: each was written wrongly (or unreadably) before
        for (String type : List.of("timestamp(9)", "timestamp(9) with time zone")) {
            String zone = type.endsWith("zone") ? " UTC" : "";
            String suffix = type.endsWith("zone") ? "tstz" : "ts";
            String good = "TIMESTAMP '2262-04-11 23:47:16.854775807%s'".formatted(zone);
            assertRefused("late_" + suffix, type, good, "TIMESTAMP '9999-12-31 23:59:59.999999999%s'".formatted(zone),
                    "9999-12-31 23:59:59.999999999", "1677-09-21 00:12:43.145224192", "2262-04-11 23:47:16.854775807");
            assertRefused("early_" + suffix, type, good, "TIMESTAMP '1600-01-01 00:00:00%s'".formatted(zone),
                    "1600-01-01 00:00:00.000000000", "nanoseconds");
            assertRefused("edge_" + suffix, type, good, "TIMESTAMP '2262-04-11 23:47:16.854775808%s'".formatted(zone),
                    "2262-04-11 23:47:16.854775808", "nanoseconds");
            assertRefused("edge_early_" + suffix, type, good, "TIMESTAMP '1677-09-21 00:12:43.145224191%s'".formatted(zone),
                    "1677-09-21 00:12:43.145224191", "nanoseconds");
        }
        // the instant counts, not the local time of its zone
        assertRefused("zoned_edge", "timestamp(9) with time zone", "TIMESTAMP '2020-01-01 00:00:00 UTC'",
                "TIMESTAMP '2262-04-11 23:00:00 -01:00'", "2262-04-11 23:00:00.000000000 -01:00", "nanoseconds");
    }

    @Test
    public void testValuesOutsidePaimonRangesAreRefused()
    {
        assertRefused("date_late", "date", "DATE '9999-12-31'", "DATE '10000-01-01'", "+10000-01-01", "0000-01-01 to 9999-12-31");
        assertRefused("date_early", "date", "DATE '0000-01-01'", "DATE '-0001-12-31'", "-0001-12-31", "0000-01-01 to 9999-12-31");
        assertRefused("date_max", "date", "DATE '0000-01-01'", "DATE '5881580-07-11'", "5881580-07-11", "0000-01-01 to 9999-12-31");
        assertRefused("date_min", "date", "DATE '0000-01-01'", "DATE '-5877641-06-23'", "-5877641-06-23", "0000-01-01 to 9999-12-31");
        assertRefused("ts6_late", "timestamp(6)", "TIMESTAMP '9999-12-31 23:59:59.999999'", "TIMESTAMP '10000-01-01 00:00:00'",
                "10000-01-01 00:00:00.000000", "9999-12-31 23:59:59.999999999");
        assertRefused("ts3_early", "timestamp(3)", "TIMESTAMP '0000-01-01 00:00:00'", "TIMESTAMP '-0001-12-31 23:59:59.999'",
                "-0001-12-31 23:59:59.999", "0000-01-01 00:00:00");
        assertRefused("ts6_max", "timestamp(6)", "TIMESTAMP '0000-01-01 00:00:00'", "TIMESTAMP '294247-01-10 04:00:54.775807'",
                "294247-01-10 04:00:54.775807", "9999-12-31 23:59:59.999999999");
        // 9999-12-31 20:00 at -05:00 is 10000-01-01 01:00 UTC; 0000-01-01 00:00 at +01:00 is in year -1 in UTC
        assertRefused("tstz3_late", "timestamp(3) with time zone", "TIMESTAMP '9999-12-31 23:59:59.999 UTC'", "TIMESTAMP '9999-12-31 20:00:00 -05:00'",
                "9999-12-31 20:00:00.000 -05:00", "in UTC");
        assertRefused("tstz6_early", "timestamp(6) with time zone", "TIMESTAMP '0000-01-01 00:00:00 UTC'", "TIMESTAMP '0000-01-01 00:00:00 +01:00'",
                "0000-01-01 00:00:00.000000 +01:00", "in UTC");
        // inside a nested value, and as a partition key
        assertRefused("nested_late", "array(row(d date))", "ARRAY[ROW(DATE '9999-12-31')]", "ARRAY[ROW(DATE '9999-12-31'), ROW(DATE '10000-01-01')]",
                "+10000-01-01", "0000-01-01 to 9999-12-31");
    }

    @Test
    public void testRefusedPartitionValueLeavesTableUnchanged()
    {
        runner.execute("CREATE TABLE tarn.x.refused_part (id integer, v timestamp(9)) WITH (partitioned_by = ARRAY['v'])");
        runner.execute("INSERT INTO tarn.x.refused_part VALUES (1, TIMESTAMP '2262-04-11 23:47:16.854775807')");
        assertUnchangedAfterRefusal("refused_part", "INSERT INTO tarn.x.refused_part VALUES (2, TIMESTAMP '1970-01-01 00:00:00'), (3, TIMESTAMP '9999-12-31 23:59:59.999999999')",
                "Cannot write timestamp(9) value 9999-12-31 23:59:59.999999999 into column v of table x.refused_part");
    }

    @Test
    public void testTimeFinerThanMillisecondsIsRefused()
    {
        // Tarn creates no TIME column Paimon would truncate
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.x.time6 (t time(6))"))
                .hasMessageContaining("time(6) cannot be stored in a Paimon table");
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.x.time6_ctas AS SELECT TIME '12:00:00.123456' AS t"))
                .hasMessageContaining("time(6) cannot be stored in a Paimon table");
        assertThat(runner.execute("SHOW TABLES FROM tarn.x LIKE 'time6%'").getRowCount()).isZero();

        // a TIME(6) column Apache Paimon created keeps milliseconds
        createPaimonTable("paimon_time6", Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.TIME(6)).build());
        runner.execute("INSERT INTO tarn.x.paimon_time6 VALUES (1, TIME '23:59:59.999000'), (2, TIME '00:00:00')");
        assertThat(ReferenceReader.read(warehouse, "x.paimon_time6")).isEqualTo(CanonicalRows.of(List.of("1\t23:59:59.999", "2\t00:00")));
        assertUnchangedAfterRefusal("paimon_time6", "INSERT INTO tarn.x.paimon_time6 VALUES (3, TIME '12:00:00.000'), (4, TIME '12:00:00.000001')",
                "Cannot write time(6) value 12:00:00.000001 into column v of table x.paimon_time6: Paimon keeps TIME values as milliseconds");
    }

    @Test
    public void testBinaryLengthsOfPaimonTypesAreChecked()
    {
        // Trino's VARBINARY has no length; Paimon's BINARY(n) and VARBINARY(n) do
        createPaimonTable("paimon_binary", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("fixed", DataTypes.BINARY(4))
                .column("bounded", DataTypes.VARBINARY(3))
                .build());
        runner.execute("INSERT INTO tarn.x.paimon_binary VALUES (1, X'00010203', X'ffffff'), (2, X'ffffffff', X'')");
        assertThat(ReferenceReader.read(warehouse, "x.paimon_binary")).isEqualTo(CanonicalRows.of(List.of("1\t0x00010203\t0xffffff", "2\t0xffffffff\t0x")));
        assertUnchangedAfterRefusal("paimon_binary", "INSERT INTO tarn.x.paimon_binary VALUES (3, X'00010203', X'00010203')",
                "Cannot write a varbinary value of 4 bytes into column bounded of table x.paimon_binary: its type is VARBINARY(3)");
        assertUnchangedAfterRefusal("paimon_binary", "INSERT INTO tarn.x.paimon_binary VALUES (3, X'0001', X'00')",
                "Cannot write a varbinary value of 2 bytes into column fixed of table x.paimon_binary: its type is BINARY(4)");
    }

    @Test
    public void testNullInNotNullNestedTypeIsRefused()
    {
        createPaimonTable("paimon_not_null", Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("v", DataTypes.ARRAY(DataTypes.INT().notNull()))
                .build());
        runner.execute("INSERT INTO tarn.x.paimon_not_null VALUES (1, ARRAY[2147483647, -2147483648])");
        assertThat(ReferenceReader.read(warehouse, "x.paimon_not_null")).isEqualTo(CanonicalRows.of(List.of("1\t[2147483647,-2147483648]")));
        assertUnchangedAfterRefusal("paimon_not_null", "INSERT INTO tarn.x.paimon_not_null VALUES (2, ARRAY[1, NULL])",
                "Cannot write a null into column v of table x.paimon_not_null: its type INT NOT NULL is NOT NULL");
    }

    /**
     * Writes {@code literals} (and a NULL) as column {@code v} of type {@code type} by INSERT, by
     * CREATE TABLE AS and, when {@code partitionKey}, into a table partitioned by {@code v}; each
     * table must read back, through Trino and through Apache Paimon, as Trino evaluates the same
     * values.
     */
    private void assertWritten(String name, String type, boolean partitionKey, String... literals)
    {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < literals.length; i++) {
            rows.add("(%s, CAST(%s AS %s))".formatted(i + 1, literals[i], type));
        }
        rows.add("(%s, CAST(NULL AS %s))".formatted(literals.length + 1, type));
        String values = String.join(", ", rows);
        String expected = "(VALUES %s) t(id, v)".formatted(values);

        runner.execute("CREATE TABLE tarn.x.%s (id integer, v %s)".formatted(name, type));
        runner.execute("INSERT INTO tarn.x.%s VALUES %s".formatted(name, values));
        assertReadBack(name, type, expected, true, literals);

        runner.execute("CREATE TABLE tarn.x.%s_ctas AS SELECT id, v FROM %s".formatted(name, expected));
        // the same writer as INSERT: filters are checked on the other two tables
        assertReadBack(name + "_ctas", type, expected, false, literals);

        if (partitionKey) {
            runner.execute("CREATE TABLE tarn.x.%s_part (id integer, v %s) WITH (partitioned_by = ARRAY['v'])".formatted(name, type));
            runner.execute("INSERT INTO tarn.x.%s_part VALUES %s".formatted(name, values));
            assertReadBack(name + "_part", type, expected, true, literals);
        }
    }

    private void assertReadBack(String table, String type, String expected, boolean filters, String... literals)
    {
        String qualified = "tarn.x." + table;
        // a zoned value reads back in UTC: compare the instants
        String read = type.endsWith("with time zone") ? "v AT TIME ZONE 'UTC'" : "v";
        // Trino materializes maps unordered, and canonical rows want them as entry arrays
        String canonical = type.startsWith("map") ? "map_entries(v)" : "v";

        assertThat(rows("SELECT id, %s FROM %s".formatted(read, qualified)))
                .as("Trino reading %s", table)
                .containsExactlyInAnyOrderElementsOf(rows("SELECT id, %s FROM %s".formatted(read, expected)));

        MaterializedResult values = runner.execute("SELECT id, %s FROM %s".formatted(canonical, expected));
        List<io.trino.spi.type.Type> types = List.of(values.getTypes().get(0), runner.execute("SELECT v FROM %s LIMIT 0".formatted(expected)).getTypes().get(0));
        assertThat(ReferenceReader.read(warehouse, "x." + table))
                .as("Apache Paimon reading %s", table)
                .isEqualTo(TrinoCanonicalRows.of(values, types));

        if (!filters || type.startsWith("row") || type.startsWith("array") || type.startsWith("map")) {
            return;
        }
        // filters on the extremes: statistics and partition pruning may only remove work; each
        // branch of the union scans the table with its own pushed-down predicate
        List<String> branches = new ArrayList<>();
        for (int i = 0; i < literals.length; i++) {
            branches.add("SELECT %s AS literal, id FROM {table} WHERE v = CAST(%s AS %s)".formatted(i, literals[i], type));
        }
        String union = String.join(" UNION ALL ", branches);
        assertThat(rows(union.replace("{table}", qualified)))
                .as("Trino filtering %s", table)
                .containsExactlyInAnyOrderElementsOf(rows(union.replace("{table}", expected)));
        assertThat(rows("SELECT id FROM %s WHERE v IS NULL".formatted(qualified)))
                .containsExactly(new MaterializedRow(List.of(literals.length + 1)));
    }

    /**
     * A table with one row, then a write of a value to refuse: by INSERT into that table, and by
     * CREATE TABLE AS of a new one.
     */
    private void assertRefused(String name, String type, String good, String bad, String... messageParts)
    {
        runner.execute("CREATE TABLE tarn.x.%s (id integer, v %s)".formatted(name, type));
        runner.execute("INSERT INTO tarn.x.%s VALUES (1, CAST(%s AS %s))".formatted(name, good, type));
        List<String> expectedMessage = new ArrayList<>(List.of("Cannot write", "into column v of table x." + name));
        expectedMessage.addAll(List.of(messageParts));
        assertUnchangedAfterRefusal(name, "INSERT INTO tarn.x.%s VALUES (2, CAST(%s AS %s)), (3, CAST(%s AS %s))".formatted(name, good, type, bad, type),
                expectedMessage.toArray(new String[0]));

        String ctas = name + "_ctas";
        assertThatThrownBy(() -> runner.execute("CREATE TABLE tarn.x.%s AS SELECT * FROM (VALUES (1, CAST(%s AS %s)), (2, CAST(%s AS %s))) t(id, v)".formatted(ctas, good, type, bad, type)))
                .hasMessageContaining("Cannot write")
                .hasMessageContaining("into column v of table x." + ctas);
        // nothing was committed: no snapshot, no data file
        Path table = warehouse.resolve("x.db").resolve(ctas);
        assertThat(files(table, "snapshot", "snapshot-")).isEmpty();
        assertThat(dataFiles(table)).isEmpty();
    }

    /**
     * Runs a write that must fail with a message holding every one of {@code messageParts}, and
     * checks that the table kept its snapshots, its rows and its data files.
     */
    private void assertUnchangedAfterRefusal(String name, String write, String... messageParts)
    {
        Path table = warehouse.resolve("x.db").resolve(name);
        CanonicalRows before = ReferenceReader.read(warehouse, "x." + name);
        List<Path> snapshots = files(table, "snapshot", "snapshot-");
        List<Path> dataFiles = dataFiles(table);
        var failure = assertThatThrownBy(() -> runner.execute(write));
        for (String part : messageParts) {
            failure.hasMessageContaining(part);
        }
        assertThat(files(table, "snapshot", "snapshot-")).containsExactlyInAnyOrderElementsOf(snapshots);
        assertThat(ReferenceReader.read(warehouse, "x." + name)).isEqualTo(before);
        assertThat(runner.execute("SELECT count(*) FROM tarn.x.\"%s$snapshots\"".formatted(name)).getOnlyValue()).isEqualTo((long) snapshots.size());
        assertThat(runner.execute("SELECT count(*) FROM tarn.x.%s".formatted(name)).getOnlyValue()).isEqualTo((long) before.lines().size());
        // the refused write's files were deleted with its writer
        assertThat(dataFiles(table)).containsExactlyInAnyOrderElementsOf(dataFiles);
    }

    private static String decimal(String digits)
    {
        return "DECIMAL '%s'".formatted(digits);
    }

    private List<MaterializedRow> rows(String sql)
    {
        return runner.execute(sql).getMaterializedRows();
    }

    private void createPaimonTable(String name, Schema schema)
    {
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(Map.of("warehouse", warehouse.toUri().toString()))))) {
            catalog.createTable(Identifier.create("x", name), schema, false);
        }
        catch (Exception e) {
            throw new IllegalStateException("Apache Paimon cannot create table x." + name, e);
        }
    }

    private static List<Path> dataFiles(Path table)
    {
        if (!Files.exists(table)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(table)) {
            return paths.filter(path -> path.getFileName().toString().startsWith("data-")).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> files(Path table, String directory, String prefix)
    {
        Path folder = table.resolve(directory);
        if (!Files.exists(folder)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.list(folder)) {
            return paths.filter(path -> path.getFileName().toString().startsWith(prefix)).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
