package io.tarn.storage.snapshot;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.snapshot.SnapshotStatistics.ColumnStats;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The JSON form of a statistics file: Paimon's layout, read back unchanged, and every malformed
 * file refused with its name and key. That Paimon reads what Tarn writes (and the reverse) is
 * tested with Paimon itself in TestTableCommit.
 */
public class TestSnapshotStatistics
{
    // written by Paimon 1.3 for a table analyzed by Spark (min and max in Paimon's string form)
    private static final String PAIMON_FILE = """
            {
              "snapshotId" : 4,
              "schemaId" : 1,
              "mergedRecordCount" : 1000,
              "mergedRecordSize" : 52000,
              "colStats" : {
                "id" : {
                  "colId" : 0,
                  "distinctCount" : 998,
                  "min" : "1",
                  "max" : "1000",
                  "nullCount" : 0,
                  "avgLen" : 4,
                  "maxLen" : 4
                },
                "name" : {
                  "colId" : 3,
                  "distinctCount" : 12,
                  "nullCount" : 7,
                  "avgLen" : 9,
                  "maxLen" : 20,
                  "futureKey" : true
                }
              }
            }""";

    @Test
    public void testReadsPaimonsLayout()
            throws CorruptFileException
    {
        SnapshotStatistics statistics = parse(PAIMON_FILE);
        assertThat(statistics.snapshotId()).isEqualTo(4);
        assertThat(statistics.schemaId()).isEqualTo(1);
        assertThat(statistics.mergedRecordCount()).contains(1000L);
        assertThat(statistics.mergedRecordSize()).contains(52000L);
        assertThat(statistics.columns()).containsOnlyKeys("id", "name");
        assertThat(statistics.columns().get("id")).isEqualTo(new ColumnStats(0, Optional.of(998L), Optional.of("1"), Optional.of("1000"), Optional.of(0L), Optional.of(4L), Optional.of(4L)));
        assertThat(statistics.columns().get("name")).isEqualTo(new ColumnStats(3, Optional.of(12L), Optional.empty(), Optional.empty(), Optional.of(7L), Optional.of(9L), Optional.of(20L)));
    }

    @Test
    public void testWritesWhatItReads()
            throws CorruptFileException
    {
        SnapshotStatistics statistics = parse(PAIMON_FILE);
        assertThat(parse(statistics.toJson())).isEqualTo(statistics);
        // Paimon leaves absent values out rather than writing nulls
        Map<String, ColumnStats> columns = new LinkedHashMap<>();
        columns.put("k", new ColumnStats(2, Optional.of(5L), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
        SnapshotStatistics sparse = new SnapshotStatistics(9, 0, Optional.empty(), Optional.empty(), columns);
        assertThat(sparse.toJson()).doesNotContain("null").doesNotContain("mergedRecordCount").doesNotContain("nullCount");
        assertThat(parse(sparse.toJson())).isEqualTo(sparse);
    }

    @Test
    public void testRefusesMalformedFiles()
    {
        assertThatThrownBy(() -> parse("{\"schemaId\" : 0}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("stat-1")
                .hasMessageContaining("snapshotId");
        assertThatThrownBy(() -> parse("{\"snapshotId\" : 1, \"schemaId\" : 0, \"colStats\" : [1]}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("colStats");
        assertThatThrownBy(() -> parse("{\"snapshotId\" : 1, \"schemaId\" : 0, \"colStats\" : {\"a\" : {\"distinctCount\" : 3}}}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("colId");
        assertThatThrownBy(() -> parse("{\"snapshotId\" : 1, \"schemaId\" : 0, \"colStats\" : {\"a\" : {\"colId\" : 0, \"distinctCount\" : -3}}}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("colStats.a.distinctCount")
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> parse("{\"snapshotId\" : 1, \"schemaId\" : 0, \"mergedRecordCount\" : \"many\"}"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("mergedRecordCount");
    }

    private static SnapshotStatistics parse(String json)
            throws CorruptFileException
    {
        return SnapshotStatistics.fromJson(json.getBytes(StandardCharsets.UTF_8), "stat-1");
    }
}
