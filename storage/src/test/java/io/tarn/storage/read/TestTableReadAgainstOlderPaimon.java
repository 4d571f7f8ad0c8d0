package io.tarn.storage.read;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.PaimonProcess;
import io.tarn.testing.ReferenceLayout;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables written by older Apache Paimon releases (0.9, 1.0, 1.2, 1.3), each in a child JVM of its
 * own ({@link PaimonProcess}), are read by Tarn with exactly the rows that release's own reader
 * returns, and that the oracle's release returns too.
 */
public class TestTableReadAgainstOlderPaimon
{
    private RootAllocator allocator;

    @BeforeClass
    public void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
        allocator.close();
    }

    @DataProvider
    public Object[][] versions()
    {
        return PaimonProcess.olderVersions().stream().map(version -> new Object[] {version}).toArray(Object[][]::new);
    }

    @Test(dataProvider = "versions")
    public void testTablesOfOlderReleaseReadLikeThatRelease(String version)
            throws IOException
    {
        PaimonProcess paimon = PaimonProcess.of(version);
        Path warehouse = TemporaryDirectories.create("tarn-paimon-" + version);
        try {
            paimon.writeTables(warehouse, ReferenceLayout.PARQUET);
            Map<String, CanonicalRows> expected = paimon.readTables(warehouse, PaimonProcess.tables());
            FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
            for (String table : PaimonProcess.tables()) {
                CanonicalRows rows = expected.get(table);
                assertThat(rows.rowCount()).as("%s written by %s", table, paimon).isPositive();
                assertThat(tarnRows(catalog, table)).as("%s written by %s", table, paimon).isEqualTo(rows.text());
                assertThat(ReferenceReader.read(warehouse, table)).as("%s written by %s, read by the oracle", table, paimon).isEqualTo(rows);
            }
        }
        finally {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    private String tarnRows(FileSystemCatalog catalog, String name)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(name));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, request.withBatchSize(16), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, request.columns(), lines));
        return CanonicalRowSet.of(lines).text();
    }
}
