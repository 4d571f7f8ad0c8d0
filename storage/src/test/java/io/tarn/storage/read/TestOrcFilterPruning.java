package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.RowEvaluator;
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
import io.tarn.types.Timestamp;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

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
 * Pruning ORC stripes and row groups by statistics never loses a matching row: one ORC file of
 * several stripes and 1,000-row groups, its columns rising with the row number so that the
 * statistics tell the groups apart, with NaN, infinities, -0.0, NULL-only stripes and values
 * before 1970 in every filterable type. Each filtered read is compared with the written rows
 * that satisfy the filter (evaluated row by row, without statistics), not with Paimon's reader.
 */
public class TestOrcFilterPruning
{
    private static final int ROWS = 6000;
    private static final RowType ROW_TYPE = RowType.of(
            new DataField(0, "id", DataTypes.INT().notNull()),
            new DataField(1, "i", DataTypes.INT()),
            new DataField(2, "bi", DataTypes.BIGINT()),
            new DataField(3, "ti", DataTypes.TINYINT()),
            new DataField(4, "si", DataTypes.SMALLINT()),
            new DataField(5, "d", DataTypes.DOUBLE()),
            new DataField(6, "f", DataTypes.FLOAT()),
            new DataField(7, "dec", DataTypes.DECIMAL(12, 3)),
            new DataField(8, "s", DataTypes.STRING()),
            new DataField(9, "dt", DataTypes.DATE()),
            new DataField(10, "ts", DataTypes.TIMESTAMP(3)),
            new DataField(11, "ltz", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)),
            new DataField(12, "nul", DataTypes.INT()),
            new DataField(13, "b", DataTypes.BOOLEAN()),
            new DataField(14, "tm", DataTypes.TIME()));

    private PaimonTables paimon;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;
    private final List<GenericRow> written = new ArrayList<>();
    private long rowGroupsSkipped;

    @BeforeClass
    public void createTable()
            throws Exception
    {
        paimon = new PaimonTables();
        allocator = new RootAllocator();
        Schema.Builder builder = Schema.newBuilder();
        ROW_TYPE.getFields().forEach(field -> builder.column(field.name(), field.type()));
        FileStoreTable table = paimon.create("pruned", builder
                .option("file.format", "orc")
                .option("orc.row.index.stride", "1000")
                .option("orc.stripe.size", "20000")
                .option("orc.rows.between.memory.checks", "100")
                .build());
        for (int k = 0; k < ROWS; k++) {
            written.add(row(k));
        }
        paimon.write(table, written.toArray(InternalRow[]::new));
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse());
    }

    private static GenericRow row(int k)
    {
        int group = k / 1000;
        double d = (k - 3000) * 1.5;
        if (group == 0 && k % 97 == 0) {
            d = Double.NaN;
        }
        else if (group == 1 && k % 10 == 0) {
            d = k % 20 == 0 ? -0.0 : 0.0;
        }
        else if (group == 2 && k % 50 == 0) {
            d = Double.POSITIVE_INFINITY;
        }
        else if (group == 3 && k % 50 == 0) {
            d = Double.NEGATIVE_INFINITY;
        }
        else if (group == 4 && k % 3 == 0) {
            d = Double.NaN;
        }
        float f = (float) d;
        if (group == 5 && k % 7 == 0) {
            f = -0.0f;
        }
        long tsMillis = (k - 3000) * 3_600_000L + 123;
        long ltzMicros = (k - 3000) * 86_400_000_000L + 456_789;
        return GenericRow.of(
                k,
                k - 3000,
                (k - 3000) * 1_000_000_000_000L,
                (byte) (k / 47 - 64),
                (short) (k * 10 - 30000),
                k % 11 == 0 ? null : d,
                k % 13 == 0 ? null : f,
                Decimal.fromBigDecimal(BigDecimal.valueOf((k - 3000) * 1001L, 3), 12, 3),
                group == 4 ? null : BinaryString.fromString(String.format("s%05d", k)),
                k == 5 ? -719162 : k * 10 - 40000,
                org.apache.paimon.data.Timestamp.fromEpochMillis(tsMillis),
                org.apache.paimon.data.Timestamp.fromEpochMillis(Math.floorDiv(ltzMicros, 1000), (int) Math.floorMod(ltzMicros, 1000) * 1000),
                k < 3000 ? null : k,
                k >= 4500,
                k * 1000 % 86_400_000);
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
    public Object[][] filters()
    {
        return new Object[][] {
                {compare("i", EQ, 0)},
                {compare("i", LT, -2500)},
                {compare("i", GE, 2999)},
                {in("i", -3000, 2999, 12)},
                {compare("i", NE, 5)},
                {compare("bi", GT, 2_000_000_000_000_000L)},
                {compare("bi", LE, -2_999_000_000_000_000L)},
                {compare("ti", EQ, (byte) 0)},
                {compare("ti", LT, (byte) -60)},
                {compare("si", LT, (short) -29000)},
                {compare("si", GE, (short) 29000)},
                {compare("d", EQ, Double.NaN)},
                {compare("d", NE, 1.5)},
                {compare("d", EQ, 0.0)},
                {compare("d", EQ, -0.0)},
                {compare("d", LE, -0.0)},
                {compare("d", GT, 1e308)},
                {compare("d", LT, -1e308)},
                {compare("d", GE, Double.POSITIVE_INFINITY)},
                {compare("d", GT, 4000.0)},
                {isNull("d")},
                {compare("f", EQ, 0.0f)},
                {compare("f", LT, -4000.0f)},
                {compare("f", NE, 0.0f)},
                {compare("dec", LT, new BigDecimal("-2990.000"))},
                {compare("dec", EQ, new BigDecimal("0.000"))},
                {compare("s", EQ, "s04000")},
                {compare("s", GE, "s05990")},
                {compare("s", LT, "s00010")},
                {isNull("s")},
                {compare("dt", LT, -39000)},
                {compare("dt", EQ, -719162)},
                {compare("dt", GE, 0)},
                {compare("ts", LT, Timestamp.ofMillis(-2990 * 3_600_000L))},
                {compare("ts", EQ, Timestamp.ofMillis(123))},
                {compare("ts", GT, Timestamp.ofMillis(2990 * 3_600_000L))},
                {compare("ltz", LE, Timestamp.ofMicros(-2995 * 86_400_000_000L))},
                {compare("ltz", EQ, Timestamp.ofMicros(456_789))},
                {isNull("nul")},
                {isNotNull("nul")},
                {compare("nul", LT, 3100)},
                {compare("nul", EQ, 10)},
                {compare("b", EQ, true)},
                {compare("b", EQ, false)},
                {compare("tm", GT, 5_990_000)},
                {or(compare("i", LT, -2990), compare("s", EQ, "s05999"))},
                {and(compare("i", GT, 0), compare("d", LT, 0.0))},
                {and(isNull("nul"), compare("dt", GE, -39990))},
        };
    }

    @Test(dataProvider = "filters")
    public void testFilteredReadKeepsEveryMatch(FilterSpec filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db.pruned"), PaimonTable.MAIN_BRANCH);
        Predicate predicate = filter.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).plan(table.snapshot(new ScanVersion.Latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withFilter(predicate).withBatchSize(500);
        List<String> lines = new ArrayList<>();
        Counters counters = TableRead.forEachBatch(table, plan, request, allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        rowGroupsSkipped += counters.get(Counter.ROW_GROUPS_SKIPPED);

        List<String> expected = new ArrayList<>();
        for (GenericRow row : written) {
            boolean matches = RowEvaluator.test(predicate, field -> {
                int index = ROW_TYPE.getFieldIndex(field.name());
                return OrcTestRows.tarnValue(row, index, ROW_TYPE.getTypeAt(index));
            });
            if (matches) {
                expected.add(CanonicalValueFormatter.formatRow(row, ROW_TYPE));
            }
        }
        assertThat(CanonicalRowSet.of(lines).text()).as("WHERE %s", filter).isEqualTo(CanonicalRows.of(expected).text());
    }

    @Test
    public void testFileHasSeveralStripesAndRowGroups()
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db.pruned"), PaimonTable.MAIN_BRANCH);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).hasSize(1);
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        Counters counters = TableRead.forEachBatch(table, plan, request, allocator, batch -> {});
        assertThat(counters.get(Counter.ROW_GROUPS_READ)).as("stripes").isGreaterThan(2);
        assertThat(counters.get(Counter.ROWS_READ)).isEqualTo(ROWS);
    }

    @Test(dependsOnMethods = "testFilteredReadKeepsEveryMatch")
    public void testFiltersSkippedStripes()
    {
        // the filters cut through the file's statistics: the comparisons above are about pruning only if some pruned
        assertThat(rowGroupsSkipped).as("stripes skipped by all filters").isPositive();
    }
}
