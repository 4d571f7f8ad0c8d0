package io.tarn.storage.read;

import io.tarn.testing.ReferenceLayout;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reads of {@link TestTableReadAgainstPaimon}, every reference table at every version and
 * under filters, on the tables written with {@code file.format=avro}: every data file Avro.
 */
public class TestAvroTableReadAgainstPaimon
        extends TestTableReadAgainstPaimon
{
    // the one reference table with MAP columns
    private static final ReferenceTable MAP_TABLE = ReferenceTables.APPEND_NESTED;

    private Path parquetWarehouse;

    @Override
    protected ReferenceLayout layout()
    {
        return ReferenceLayout.AVRO;
    }

    @BeforeClass
    public void createParquetCopy()
    {
        parquetWarehouse = TemporaryDirectories.create("tarn-read-parquet");
        ReferenceTables.create(parquetWarehouse, MAP_TABLE, ReferenceLayout.PARQUET);
    }

    @AfterClass(alwaysRun = true)
    public void deleteParquetCopy()
            throws IOException
    {
        TemporaryDirectories.deleteRecursively(parquetWarehouse);
    }

    /**
     * Paimon's Avro reader collects the entries of a map into a hash map, so it returns them in
     * hash order, not in the order they were written and stored; its Parquet reader keeps that
     * order, and so does Tarn's Avro reader. The rows of the table with maps must therefore equal
     * Paimon's read of the same table written as Parquet: the same values, written in the same
     * commits, with the entries in written order.
     */
    @Override
    protected String oracleRows(ReferenceScan scan)
    {
        if (scan.table().equals(MAP_TABLE.identifier())) {
            return ReferenceReader.read(parquetWarehouse, scan).text();
        }
        return super.oracleRows(scan);
    }

    @Test
    public void testEveryDataFileIsAvro()
    {
        assertThat(ReferenceDataFiles.countByFormat(warehouse()))
                .containsOnlyKeys("avro");
    }
}
