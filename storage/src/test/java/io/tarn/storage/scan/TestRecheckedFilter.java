package io.tarn.storage.scan;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.TemporaryDirectories;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller that tests the filter again (a query engine) gets the rows of a file untested when the
 * file's statistics say the filter keeps most of them, and tested otherwise; any other caller
 * always gets exactly the matching rows.
 */
public class TestRecheckedFilter
{
    // one file: k = 0..9, 300 rows each
    private static final int ROWS = 3000;

    private Path warehouse;
    private PaimonTable table;
    private FieldRef k;
    private RootAllocator allocator;

    @BeforeClass
    @SuppressWarnings("try") // Paimon's close() declares Exception
    public void createTable()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-rechecked-filter");
        allocator = new RootAllocator();
        try (Catalog paimon = PaimonFileIndexTables.open(warehouse)) {
            paimon.createDatabase("db", true);
            org.apache.paimon.catalog.Identifier identifier = org.apache.paimon.catalog.Identifier.fromString("db.t");
            paimon.createTable(identifier, Schema.newBuilder().column("k", DataTypes.INT()).column("payload", DataTypes.STRING()).build(), false);
            Table paimonTable = paimon.getTable(identifier);
            BatchWriteBuilder builder = paimonTable.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int row = 0; row < ROWS; row++) {
                    write.write(GenericRow.of(row / 300, BinaryString.fromString("payload-" + row)));
                }
                commit.commit(write.prepareCommit());
            }
        }
        table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), Identifier.parse("db.t"));
        k = FieldRef.of(table.schema().rowType().field("k").orElseThrow());
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
    public void testUnselectiveFilterLeavesRowsToTheCaller()
            throws IOException
    {
        // statistics: k in [0, 9], so k <= 8 keeps about 8/9 of the rows
        Predicate mostRows = Predicates.lessOrEqual(k, 8);
        Read rechecked = read(mostRows, true);
        assertThat(rechecked.keys()).hasSize(ROWS).contains(9);
        assertThat(rechecked.metrics().get(Counter.ROWS_FILTERED)).isZero();

        Read tested = read(mostRows, false);
        assertThat(tested.keys()).hasSize(2700).allMatch(key -> key <= 8);
        assertThat(tested.metrics().get(Counter.ROWS_FILTERED)).isEqualTo(300);
    }

    @Test
    public void testSelectiveFilterIsTestedForEveryCaller()
            throws IOException
    {
        Predicate fewRows = Predicates.lessOrEqual(k, 2);
        for (boolean recheckedByCaller : new boolean[] {true, false}) {
            Read read = read(fewRows, recheckedByCaller);
            assertThat(read.keys()).hasSize(900).allMatch(key -> key <= 2);
        }
        // no estimate for an equality: tested
        assertThat(read(Predicates.equal(k, 4), true).keys()).hasSize(300).containsOnly(4);
    }

    private record Read(List<Integer> keys, Counters metrics) {}

    private Read read(Predicate filter, boolean recheckedByCaller)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).withFilter(filter).plan(table.snapshot(new ScanVersion.Latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields()).withFilter(filter);
        if (recheckedByCaller) {
            request = request.withFilterRecheckedByCaller();
        }
        List<Integer> keys = new ArrayList<>();
        Counters metrics = TableRead.forEachBatch(table, plan, request, allocator, batch -> {
            IntVector vector = (IntVector) batch.getVector(0);
            for (int row = 0; row < batch.getRowCount(); row++) {
                keys.add(vector.get(row));
            }
        });
        return new Read(keys, metrics);
    }
}
