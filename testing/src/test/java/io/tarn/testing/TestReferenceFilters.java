package io.tarn.testing;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each usual filter is one a reader can get wrong both ways: on Paimon's own read it keeps some
 * rows of its table and drops others.
 */
public class TestReferenceFilters
{
    private Path warehouse;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-reference-filters");
        Set<String> tables = ReferenceFilters.usual().stream().map(ReferenceFilter::table).collect(Collectors.toSet());
        tables.forEach(table -> ReferenceTables.create(warehouse, table));
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testEachFilterKeepsSomeRowsAndDropsOthers()
    {
        for (ReferenceFilter filter : ReferenceFilters.usual()) {
            ReferenceScan unfiltered = ReferenceScan.of(filter.table());
            int all = ReferenceReader.read(warehouse, unfiltered).rowCount();
            int kept = ReferenceReader.read(warehouse, filter.scan(ReferenceReader.rowType(warehouse, unfiltered))).rowCount();
            assertThat(kept).as(filter.toString()).isPositive().isLessThan(all);
        }
    }
}
