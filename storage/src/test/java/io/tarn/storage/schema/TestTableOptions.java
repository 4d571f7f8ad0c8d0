package io.tarn.storage.schema;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.testng.annotations.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestTableOptions
{
    private static final String LOCATION = "/warehouse/db.db/t";

    @Test
    public void testDataFileDirectoryIsNormalizedInsideTheTable()
            throws Exception
    {
        assertThat(options(Map.of()).dataFileDirectory()).isEmpty();
        assertThat(options(Map.of("data-file.path-directory", "data")).dataFileDirectory()).isEqualTo("data");
        assertThat(options(Map.of("data-file.path-directory", " ./data//files/ ")).dataFileDirectory()).isEqualTo("data/files");
        assertThat(options(Map.of("data-file.path-directory", ".")).dataFileDirectory()).isEmpty();
        assertThat(options(Map.of("data-file.path-directory", "a..b")).dataFileDirectory()).isEqualTo("a..b");
        options(Map.of("data-file.path-directory", "data/x")).checkPaths(LOCATION);
    }

    @Test
    public void testDataFileDirectoryOutsideTheTableIsRefused()
    {
        for (String value : List.of("..", "../x", "a/../..", "a/..", "../../../../tmp/evil", "/tmp/evil", "file:/tmp/evil", "s3://bucket/x", "C:\\evil", "a\\..\\b", "a\0b")) {
            TableOptions options = options(Map.of("data-file.path-directory", value));
            assertThatThrownBy(options::dataFileDirectory)
                    .as(value)
                    .isInstanceOf(InvalidNameException.class)
                    .hasMessageStartingWith("Table db.t: option data-file.path-directory = ");
            assertThatThrownBy(() -> options.checkPaths(LOCATION)).as(value).isInstanceOf(InvalidNameException.class);
        }
    }

    @Test
    public void testExternalPathsAreRefused()
            throws Exception
    {
        for (Map<String, String> external : List.of(
                Map.of("data-file.external-paths", "file:/elsewhere"),
                Map.of("data-file.external-paths.strategy", "round-robin"),
                Map.of("data-file.external-paths.strategy", "specific-fs", "data-file.external-paths.specific-fs", "s3"),
                Map.of("data-file.external-paths.specific-fs", "oss"))) {
            assertThatThrownBy(() -> options(external).checkPaths(LOCATION))
                    .as(external.toString())
                    .isInstanceOf(UnsupportedTableFeatureException.class)
                    .hasMessageStartingWith("Table db.t sets option data-file.external-paths")
                    .hasMessageContaining("data files outside the table directory are not supported");
        }
        // Paimon's defaults: no external path
        options(Map.of("data-file.external-paths", " ", "data-file.external-paths.strategy", "none")).checkPaths(LOCATION);
    }

    @Test
    public void testPathOptionMustNameTheTableDirectory()
            throws Exception
    {
        options(Map.of("path", LOCATION)).checkPaths(LOCATION);
        options(Map.of("path", "file:" + LOCATION + "/")).checkPaths(LOCATION);
        options(Map.of("path", "file://" + LOCATION)).checkPaths(LOCATION);
        for (String path : List.of("/elsewhere", LOCATION + "/..", LOCATION + "/../u", "/warehouse/db.db/t2")) {
            assertThatThrownBy(() -> options(Map.of("path", path)).checkPaths(LOCATION))
                    .as(path)
                    .isInstanceOf(InvalidNameException.class)
                    .hasMessageContaining("sets option path = '%s', which is not its directory %s".formatted(path, LOCATION));
        }
    }

    private static TableOptions options(Map<String, String> options)
    {
        return new TableOptions("db.t", options);
    }
}
