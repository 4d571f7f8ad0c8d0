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
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
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
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DataTypes;
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

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static io.tarn.storage.scan.FilterSpec.in;
import static io.tarn.storage.scan.FilterSpec.isNull;
import static io.tarn.storage.scan.FilterSpec.notIn;
import static io.tarn.storage.scan.FilterSpec.or;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Row groups skipped by ORC Bloom filters, in a table Apache Paimon writes with
 * {@code file.format=orc} and {@code orc.bloom.filter.columns}: the columns hold a permutation
 * of the row numbers, so that every 1,000-row group and every stripe spans nearly the whole range
 * of values and statistics cannot tell the groups apart, while a group's Bloom filter holds only
 * its own values. Each filtered read returns exactly the rows Paimon's reader returns (FLOAT and
 * DOUBLE filters: the written rows the filter accepts, since Paimon's predicates tell -0.0 from
 * 0.0 where Tarn's, like SQL, do not); the counters show whether Bloom filters skipped groups.
 */
public class TestOrcBloomFilterPruning
{
    private static final int ROWS = 12_000;
    // prime to ROWS: k * STEP mod ROWS is a permutation of the row numbers
    private static final int STEP = 7919;
    private static final RowType ROW_TYPE = RowType.of(
            new DataField(0, "id", DataTypes.INT().notNull()),
            new DataField(1, "i", DataTypes.INT()),
            new DataField(2, "bi", DataTypes.BIGINT()),
            new DataField(3, "si", DataTypes.SMALLINT()),
            new DataField(4, "dt", DataTypes.DATE()),
            new DataField(5, "d", DataTypes.DOUBLE()),
            new DataField(6, "f", DataTypes.FLOAT()),
            new DataField(7, "s", DataTypes.STRING()),
            new DataField(8, "dec", DataTypes.DECIMAL(10, 2)));

    private PaimonTables paimon;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;
    private final List<GenericRow> written = new ArrayList<>();

    /**
     * What a filtered read must count in {@link Counter#ROW_GROUPS_SKIPPED_BY_BLOOM_FILTER}.
     */
    enum Skips
    {
        // the filter's values are in a few groups: Bloom filters rule out others
        SOME,
        // Bloom filters do not apply: the type, operator or NOT is one they cannot answer
        NONE,
        // statistics may already rule out the groups Bloom filters would
        ANY
    }

    @BeforeClass
    public void createTable()
            throws Exception
    {
        paimon = new PaimonTables();
        allocator = new RootAllocator();
        Schema.Builder builder = Schema.newBuilder();
        ROW_TYPE.getFields().forEach(field -> builder.column(field.name(), field.type()));
        FileStoreTable table = paimon.create("bloom", builder
                .option("file.format", "orc")
                .option("orc.bloom.filter.columns", "i,bi,si,dt,d,f,s,dec")
                .option("orc.bloom.filter.fpp", "0.01")
                .option("orc.row.index.stride", "1000")
                .option("orc.stripe.size", "250000")
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
        int p = (int) ((long) k * STEP % ROWS);
        // even values only: odd ones in the range are absent
        int even = 2 * p - ROWS;
        double d = switch (p) {
            case 0 -> -0.0;
            case 1 -> 0.0;
            default -> (p - ROWS / 2) * 0.5 + 0.25;
        };
        // only -0.0 among the floats: a lookup of 0.0 must find it
        float f = p == 2 ? -0.0f : (p - ROWS / 2) + 0.5f;
        String s;
        if (p == 3) {
            s = "";
        }
        else if (p % 3 == 0) {
            s = "€𝄞ü-" + p;
        }
        else {
            s = "k" + p;
        }
        return GenericRow.of(
                k,
                k % 500 == 7 ? null : even,
                even * 1_000_000_007L,
                (short) even,
                even,
                d,
                f,
                p == 4 ? null : BinaryString.fromString(s),
                Decimal.fromBigDecimal(BigDecimal.valueOf(even, 2), 10, 2));
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
                {compare("i", EQ, 100), Skips.SOME},
                {compare("i", EQ, 101), Skips.SOME},
                {compare("i", EQ, -2468), Skips.SOME},
                {in("i", 100, 101, 2000, 3001), Skips.SOME},
                {in("i", 1, 3, 5, 7, 9), Skips.SOME},
                {compare("bi", EQ, 4242 * 1_000_000_007L), Skips.SOME},
                {compare("bi", EQ, 4243 * 1_000_000_007L), Skips.SOME},
                {in("bi", -10 * 1_000_000_007L, 10 * 1_000_000_007L), Skips.SOME},
                {compare("si", EQ, (short) 1234), Skips.SOME},
                {compare("dt", EQ, -5000), Skips.SOME},
                {compare("d", EQ, 0.0), Skips.SOME},
                {compare("d", EQ, -0.0), Skips.SOME},
                {compare("d", EQ, 10.25), Skips.SOME},
                {in("d", 0.0, 10.25, 10.5), Skips.SOME},
                {compare("f", EQ, 0.0f), Skips.SOME},
                {compare("f", EQ, -0.0f), Skips.SOME},
                {compare("f", EQ, 100.5f), Skips.SOME},
                {compare("s", EQ, "k5000"), Skips.SOME},
                {compare("s", EQ, "€𝄞ü-5001"), Skips.SOME},
                {compare("s", EQ, "€𝄞ü-5000"), Skips.SOME},
                {in("s", "k5000", "€𝄞ü-6003", "k9999x"), Skips.SOME},
                {compare("s", EQ, ""), Skips.ANY},
                {and(compare("i", EQ, 100), compare("s", EQ, "k6050")), Skips.SOME},
                {or(compare("i", EQ, 100), compare("bi", EQ, 42 * 1_000_000_007L)), Skips.SOME},
                {or(compare("i", EQ, 100), compare("i", GT, 0)), Skips.NONE},
                {notIn("i", 100, 102), Skips.NONE},
                {compare("i", GT, 11990), Skips.ANY},
                {isNull("i"), Skips.NONE},
                {isNull("s"), Skips.NONE},
                {compare("dec", EQ, new BigDecimal("1.00")), Skips.NONE},
        };
    }

    @Test(dataProvider = "filters")
    public void testBloomFiltersKeepEveryMatch(FilterSpec filter, Skips skips)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db.bloom"), PaimonTable.MAIN_BRANCH);
        Predicate predicate = filter.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).plan(table.snapshot(new ScanVersion.Latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withFilter(predicate).withBatchSize(500);
        List<String> lines = new ArrayList<>();
        Counters counters = TableRead.forEachBatch(table, plan, request, allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));

        assertThat(CanonicalRowSet.of(lines).text()).as("WHERE %s", filter).isEqualTo(expected(filter, predicate));
        long bloomSkips = counters.get(Counter.ROW_GROUPS_SKIPPED_BY_BLOOM_FILTER);
        switch (skips) {
            case SOME -> assertThat(bloomSkips).as("groups skipped by Bloom filters, WHERE %s", filter).isPositive();
            case NONE -> assertThat(bloomSkips).as("groups skipped by Bloom filters, WHERE %s", filter).isZero();
            case ANY -> {}
        }
    }

    private String expected(FilterSpec filter, Predicate predicate)
    {
        boolean floating = predicate.fieldIds().stream()
                .map(id -> ROW_TYPE.getTypeAt(ROW_TYPE.getFieldIndexByFieldId(id)).getTypeRoot())
                .anyMatch(root -> root == DataTypeRoot.FLOAT || root == DataTypeRoot.DOUBLE);
        if (!floating) {
            ReferenceScan unfiltered = ReferenceScan.of("db.bloom");
            ReferenceScan scan = unfiltered.withFilter(filter.paimon(ReferenceReader.rowType(Path.of(paimon.warehouse()), unfiltered)));
            return ReferenceReader.read(Path.of(paimon.warehouse()), scan).text();
        }
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
        return CanonicalRows.of(expected).text();
    }

    @Test
    public void testTableHasSeveralStripesOfSeveralGroups()
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse("db.bloom"), PaimonTable.MAIN_BRANCH);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        assertThat(plan.files()).singleElement().satisfies(file -> assertThat(file.file().fileName()).endsWith(".orc"));
        Counters counters = TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()), allocator, batch -> {});
        assertThat(counters.get(Counter.ROW_GROUPS_READ)).as("stripes").isBetween(2L, (long) ROWS / 1000 - 1);
        assertThat(counters.get(Counter.ROWS_READ)).isEqualTo(ROWS);
    }
}
