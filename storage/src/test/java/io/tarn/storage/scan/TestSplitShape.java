package io.tarn.storage.scan;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an engine shapes the splits of a plan: a target size of its own, and a number of splits the
 * files read raw are spread over; the files planned stay the same.
 */
public class TestSplitShape
{
    private Path warehouse;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-split-shape");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        ReferenceTables.create(warehouse, ReferenceTables.PK_DEDUP);
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testFilesSpreadOverTheSplitsAsked()
            throws IOException
    {
        List<DataSplit> table = plan(ReferenceTables.APPEND_PARTITIONED, UnaryOperator.identity());
        int files = fileCount(table);
        assertThat(table).as("the table's own target packs several files into a split").anyMatch(split -> split.files().size() >= 2);

        List<DataSplit> onePerFile = plan(ReferenceTables.APPEND_PARTITIONED, planner -> planner.withMinSplits(files));
        assertThat(onePerFile).hasSize(files).allMatch(split -> split.files().size() == 1);
        assertSameFiles(onePerFile, table);

        List<DataSplit> pairs = plan(ReferenceTables.APPEND_PARTITIONED, planner -> planner.withMinSplits((files + 1) / 2));
        assertThat(pairs).allMatch(split -> split.files().size() <= 2);
        assertThat(pairs.size()).isGreaterThanOrEqualTo((files + 1) / 2);
        assertSameFiles(pairs, table);
    }

    @Test
    public void testTargetSizeOfTheEngine()
            throws IOException
    {
        List<DataSplit> table = plan(ReferenceTables.APPEND_PARTITIONED, UnaryOperator.identity());
        List<DataSplit> tiny = plan(ReferenceTables.APPEND_PARTITIONED, planner -> planner.withSplitTargetSize(1));
        assertThat(tiny).hasSize(fileCount(table)).allMatch(split -> split.files().size() == 1);
        assertSameFiles(tiny, table);
        assertThat(plan(ReferenceTables.APPEND_PARTITIONED, planner -> planner.withSplitTargetSize(Long.MAX_VALUE))).hasSizeLessThanOrEqualTo(table.size());
    }

    @Test
    public void testMergeSplitsKeepTheirWholeBucket()
            throws IOException
    {
        List<DataSplit> table = plan(ReferenceTables.PK_DEDUP, UnaryOperator.identity());
        assertThat(table).anyMatch(split -> split.mergeRequired() && split.files().size() >= 2);
        assertThat(plan(ReferenceTables.PK_DEDUP, planner -> planner.withSplitTargetSize(1).withMinSplits(1000))).isEqualTo(table);
    }

    private List<DataSplit> plan(ReferenceTable reference, UnaryOperator<ScanPlanner> shape)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(reference.identifier()));
        return shape.apply(new ScanPlanner(table)).plan(table.snapshot(ScanVersion.latest())).splits();
    }

    private static int fileCount(List<DataSplit> splits)
    {
        return splits.stream().mapToInt(split -> split.files().size()).sum();
    }

    private static void assertSameFiles(List<DataSplit> actual, List<DataSplit> expected)
    {
        Comparator<PlannedFile> byName = Comparator.comparing(file -> file.file().fileName());
        assertThat(actual.stream().flatMap(split -> split.files().stream()).sorted(byName).toList())
                .isEqualTo(expected.stream().flatMap(split -> split.files().stream()).sorted(byName).toList());
        for (DataSplit split : actual) {
            assertThat(split.files()).allMatch(file -> file.partition().equals(split.partition()) && file.bucket() == split.bucket());
        }
    }
}
