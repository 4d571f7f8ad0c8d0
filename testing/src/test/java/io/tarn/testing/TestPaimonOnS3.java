package io.tarn.testing;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Paimon's S3 file system in its child JVM writes a reference table into the server's bucket and
 * reads it back as the generator intends; a request that fails in the child fails here with the
 * child's error, and the child goes on serving.
 */
public class TestPaimonOnS3
{
    private static final ReferenceTable TABLE = ReferenceTables.APPEND_BUCKETED;

    private ObjectStoreLake lake;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-paimon-on-s3", List.of(TABLE));
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (lake != null) {
            lake.close();
        }
    }

    @Test
    public void testWritesIntoTheBucketAndReadsBack()
            throws IOException
    {
        assertThat(lake.paimon().read(TABLE.identifier()).rowCount()).isEqualTo(TABLE.expectedRowCount());
        assertThat(lake.paimon().snapshots(TABLE.identifier())).extracting(ReferenceSnapshot::id).containsExactly(1L, 2L, 3L);
        assertThat(lake.paimon().read(ReferenceScan.of(TABLE.identifier()).atSnapshot(1)).rowCount()).isPositive().isLessThan((int) TABLE.expectedRowCount());
        // the objects are where the server keeps the bucket
        Path table = lake.objects().resolve(ReferenceTables.DATABASE + ".db").resolve(TABLE.tableName());
        assertThat(table.resolve("snapshot").resolve("snapshot-3")).isRegularFile();
        try (Stream<Path> files = Files.walk(table)) {
            assertThat(files.filter(file -> file.getFileName().toString().endsWith(".parquet"))).isNotEmpty();
        }
    }

    @Test
    public void testFailureInTheChildIsReportedAndTheChildServesOn()
    {
        assertThatThrownBy(() -> lake.paimon().read("ref.missing"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Paimon on S3 failed")
                .hasMessageContaining("Table does not exist: ref.missing");
        assertThat(lake.paimon().tags(TABLE.identifier())).isEmpty();
    }
}
