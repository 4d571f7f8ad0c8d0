package io.tarn.storage.read;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.fs.s3.S3FileIO;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTable;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.util.List;

/**
 * The reads of {@link TestTableReadAgainstPaimon}, every reference table at every version and
 * under filters, from an object store: Apache Paimon writes the tables into a bucket of a real
 * S3-compatible server (S3Proxy on 127.0.0.1) through its own S3 file system, Tarn reads them
 * through the S3 API, and the oracle's rows are Paimon's reads of the same objects through S3.
 */
public class TestTableReadFromS3AgainstPaimon
        extends TestTableReadAgainstPaimon
{
    private ObjectStoreLake lake;
    private S3FileIO fileIO;

    @Override
    protected FileSystemCatalog openLake(List<ReferenceTable> tables)
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-s3-read", tables);
        Warehouse onS3 = Warehouse.open(lake.location(), lake.clientProperties());
        fileIO = (S3FileIO) onS3.fileIO();
        return onS3.catalog();
    }

    @Override
    protected void closeLake()
            throws IOException
    {
        if (fileIO != null) {
            fileIO.close();
        }
        if (lake != null) {
            lake.close();
        }
    }

    @Override
    protected String oracleRows(ReferenceScan scan)
    {
        return lake.paimon().read(scan).text();
    }

    @Override
    protected List<ReferenceSnapshot> oracleSnapshots(String table)
    {
        return lake.paimon().snapshots(table);
    }

    @Override
    protected RowType oracleRowType(ReferenceScan scan)
    {
        return lake.paimon().rowType(scan);
    }
}
