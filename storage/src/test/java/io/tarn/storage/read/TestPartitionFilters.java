package io.tarn.storage.read;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.NE;
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter on partition columns is decided for a whole file by its partition value, which is
 * exact whatever the column's type: in Apache Paimon's partitioned table (partitioned by a
 * string and an integer), a planned file of a matching partition has none of its rows tested or,
 * under late materialization, decoded twice, and a null partition value is never taken to match.
 * The rows are always the oracle's.
 */
public class TestPartitionFilters
{
    private static final ReferenceScan ALL = ReferenceScan.of(ReferenceTables.APPEND_PARTITIONED.identifier());

    private Path warehouse;
    private PaimonTable table;
    private RootAllocator allocator;

    @BeforeClass
    public void createTable()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-partition-filters");
        allocator = new RootAllocator();
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), Identifier.parse(ALL.table()));
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testStringPartitionFilterTestsNoRow()
            throws IOException
    {
        Counters counters = assertOracleRows(compare("dt", EQ, "2024-01-01"));
        assertThat(counters.get(Counter.ROWS_READ)).isPositive();
        assertThat(counters.get(Counter.FILTER_PROBES)).as("rows tested").isZero();
        assertThat(counters.get(Counter.ROWS_READ_AGAIN)).as("rows decoded twice").isZero();
        assertThat(counters.get(Counter.ROWS_FILTERED)).isZero();
    }

    @Test
    public void testOtherConjunctsAreStillTested()
            throws IOException
    {
        Counters counters = assertOracleRows(and(compare("dt", EQ, "2024-01-01"), compare("id", GT, 7)));
        assertThat(counters.get(Counter.FILTER_PROBES)).as("rows tested on id").isPositive();
        assertThat(counters.get(Counter.ROWS_FILTERED) + counters.get(Counter.ROWS_READ_AGAIN)).as("rows of the partition that id rules out").isPositive();
    }

    @Test
    public void testNullPartitionDoesNotMatch()
            throws IOException
    {
        // dt <> '2024-01-01' is unknown, so false, on the rows of the null dt partition
        assertOracleRows(compare("dt", NE, "2024-01-01"));
        assertOracleRows(compare("region", NE, 1));
    }

    private Counters assertOracleRows(FilterSpec filter)
            throws IOException
    {
        Predicate predicate = filter.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).plan(table.snapshot(ScanVersion.latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withFilter(predicate);
        List<String> lines = new ArrayList<>();
        Counters counters = TableRead.forEachBatch(table, plan, request, allocator, batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        String expected = ReferenceReader.read(warehouse, ALL.withFilter(filter.paimon(ReferenceReader.rowType(warehouse, ALL)))).text();
        assertThat(CanonicalRowSet.of(lines).text()).as(filter.toString()).isEqualTo(expected);
        return counters;
    }
}
