package io.tarn.trino;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the split source cuts the planner's splits: by target size and by a file count that leaves
 * a table of few files several splits.
 */
public class TestTarnSplitSource
{
    private Path warehouse;
    private DataSplit split;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-split-source");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        String[] name = ReferenceTables.APPEND_PARTITIONED.identifier().split("\\.");
        PaimonTable table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), new Identifier(name[0], name[1]));
        split = new ScanPlanner(table).plan(table.snapshotManager().latest()).splits().stream()
                .filter(candidate -> candidate.files().size() >= 2)
                .findFirst()
                .orElseThrow();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testFewFilesGetOneSplitEach()
    {
        assertThat(TarnSplitSource.maxFilesPerSplit(Collections.nCopies(TarnSplitSource.MIN_SPLITS, single()))).isEqualTo(1);
        assertThat(TarnSplitSource.maxFilesPerSplit(Collections.nCopies(TarnSplitSource.MIN_SPLITS + 1, single()))).isEqualTo(2);
        assertThat(TarnSplitSource.maxFilesPerSplit(List.of())).isEqualTo(1);

        // far below the target size, yet divided by file
        List<DataSplit> parts = TarnSplitSource.divide(split, Long.MAX_VALUE, 1);
        assertThat(parts).hasSize(split.files().size());
        assertThat(parts.stream().flatMap(part -> part.files().stream()).toList()).isEqualTo(split.files());
        assertThat(parts).allMatch(part -> part.partition().equals(split.partition()) && part.bucket() == split.bucket() && !part.mergeRequired());
    }

    @Test
    public void testDividesByTargetSizeAndKeepsSmallSplitsWhole()
    {
        assertThat(TarnSplitSource.divide(split, Long.MAX_VALUE, Integer.MAX_VALUE)).containsExactly(split);
        List<DataSplit> bySize = TarnSplitSource.divide(split, 1, Integer.MAX_VALUE);
        assertThat(bySize).hasSize(split.files().size());
        int pairs = (split.files().size() + 1) / 2;
        assertThat(TarnSplitSource.divide(split, Long.MAX_VALUE, 2)).hasSize(pairs);
    }

    private DataSplit single()
    {
        PlannedFile file = split.files().get(0);
        return new DataSplit(split.partition(), split.bucket(), split.totalBuckets(), List.of(file), false);
    }
}
