package io.tarn.storage.fs;

import org.testng.annotations.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

public class TestFileStatus
{
    private static final String SNAPSHOTS = "s3://lake/db.db/t/snapshot";

    @Test
    public void testFileNameInPicksOnlyTheDirectFilesOfOneDirectory()
    {
        assertThat(file(SNAPSHOTS + "/snapshot-3").fileNameIn(SNAPSHOTS)).contains("snapshot-3");
        // a file further down, a directory, a sibling directory sharing the prefix, the directory's own marker
        assertThat(file(SNAPSHOTS + "/old/snapshot-3").fileNameIn(SNAPSHOTS)).isEmpty();
        assertThat(new FileStatus(SNAPSHOTS + "/snapshot-4", 0, 0, true).fileNameIn(SNAPSHOTS)).isEmpty();
        assertThat(file(SNAPSHOTS + "s/snapshot-3").fileNameIn(SNAPSHOTS)).isEmpty();
        assertThat(file(SNAPSHOTS).fileNameIn(SNAPSHOTS)).isEmpty();
        assertThat(file("s3://lake/db.db/t/schema/schema-0").fileNameIn(SNAPSHOTS)).isEmpty();
    }

    @Test
    public void testContentTagIsEmptyUnlessGiven()
    {
        assertThat(file(SNAPSHOTS + "/snapshot-3").contentTag()).isEmpty();
        assertThat(new FileStatus(SNAPSHOTS + "/snapshot-3", 10, 0, false, false, Optional.of("\"etag\"")).contentTag()).contains("\"etag\"");
    }

    private static FileStatus file(String path)
    {
        return new FileStatus(path, 10, 0, false);
    }
}
