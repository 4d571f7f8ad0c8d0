package io.tarn.storage.snapshot;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSnapshotJson
{
    private PaimonTables paimon;
    private FileStoreTable appendTable;
    private FileStoreTable primaryKeyTable;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        appendTable = paimon.create("append", Schema.newBuilder()
                .column("a", DataTypes.INT())
                .column("b", DataTypes.STRING())
                .build());
        for (int i = 0; i < 3; i++) {
            paimon.write(appendTable, GenericRow.of(i, BinaryString.fromString("row" + i)));
        }
        appendTable.createTag("plain", 1);
        appendTable.createTag("retained", 2, Duration.ofMillis(3_600_500));

        primaryKeyTable = paimon.create("pk", Schema.newBuilder()
                .column("k", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", "1")
                .option("changelog-producer", "input")
                .build());
        paimon.write(primaryKeyTable, GenericRow.of(1, BinaryString.fromString("a")));
        paimon.write(primaryKeyTable, GenericRow.of(1, BinaryString.fromString("b")), GenericRow.of(2, BinaryString.fromString("c")));
        paimon.compact(primaryKeyTable);
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testPaimonSnapshotFiles()
            throws Exception
    {
        for (FileStoreTable table : List.of(appendTable, primaryKeyTable)) {
            org.apache.paimon.utils.SnapshotManager paimonSnapshots = table.snapshotManager();
            long latest = paimonSnapshots.latestSnapshotId();
            assertThat(latest).isGreaterThanOrEqualTo(2);
            for (long id = 1; id <= latest; id++) {
                Path file = Path.of(table.location().toString().replace("file:", ""), "snapshot", "snapshot-" + id);
                String text = Files.readString(file);
                org.apache.paimon.Snapshot expected = paimonSnapshots.snapshot(id);

                Snapshot actual = SnapshotJson.parse(text.getBytes(StandardCharsets.UTF_8), file.toString());
                assertSameSnapshot(actual, expected);
                // our text for the same snapshot is Paimon's text, byte for byte, but for the key
                // that Paimon 1.4 omits when null and Tarn writes as Paimon 1.3 did
                assertThat(withoutNullChangelogList(SnapshotJson.toJson(actual))).isEqualTo(text);
                assertThat(withoutNullChangelogList(SnapshotJson.toJson(actual))).isEqualTo(expected.toJson());
                assertThat(org.apache.paimon.Snapshot.fromJson(SnapshotJson.toJson(actual))).isEqualTo(expected);
                assertThat(org.apache.paimon.Snapshot.fromJson(SnapshotJson.toJson(actual))).isEqualTo(expected);
            }
        }
    }

    @Test
    public void testFullyPopulatedSnapshot()
            throws Exception
    {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("p1", "v1");
        properties.put("p2", "");
        for (org.apache.paimon.Snapshot.CommitKind kind : org.apache.paimon.Snapshot.CommitKind.values()) {
            org.apache.paimon.Snapshot expected = new org.apache.paimon.Snapshot(
                    3, 42, 7, "manifest-list-a-0", 11L, "manifest-list-a-1", 12L, "manifest-list-a-2", 13L,
                    "index-manifest-x-0", "user \"quoted\"", 99, kind, 1_795_000_000_123L,
                    1000L, -5L, 4L, 123_456L, "stat-abc-0", properties, 77L);
            String text = expected.toJson();
            Snapshot actual = SnapshotJson.parse(text.getBytes(StandardCharsets.UTF_8), "snapshot-42");
            assertSameSnapshot(actual, expected);
            assertThat(actual.commitKind().name()).isEqualTo(kind.name());
            assertThat(SnapshotJson.toJson(actual)).isEqualTo(text);
            assertThat(org.apache.paimon.Snapshot.fromJson(SnapshotJson.toJson(actual))).isEqualTo(expected);

            // Paimon up to 1.3 also wrote the offsets of a log system, which Tarn keeps and 1.4 ignores
            String withOffsets = text.replace("\"timeMillis\" : 1795000000123,\n", "\"timeMillis\" : 1795000000123,\n  \"logOffsets\" : {\n    \"0\" : 17,\n    \"3\" : -1\n  },\n");
            assertThat(withOffsets).isNotEqualTo(text);
            Snapshot parsedWithOffsets = SnapshotJson.parse(withOffsets.getBytes(StandardCharsets.UTF_8), "snapshot-42");
            assertThat(parsedWithOffsets.logOffsets()).contains(Map.of(0, 17L, 3, -1L));
            assertThat(SnapshotJson.toJson(parsedWithOffsets)).isEqualTo(withOffsets);
            assertThat(org.apache.paimon.Snapshot.fromJson(withOffsets)).isEqualTo(expected);
        }
    }

    @Test
    public void testSparseSnapshot()
            throws Exception
    {
        // what an old writer leaves out: sizes, counts, logOffsets, nextRowId
        String text = """
                {
                  "version" : 3,
                  "id" : 5,
                  "schemaId" : 0,
                  "baseManifestList" : "base",
                  "deltaManifestList" : "delta",
                  "changelogManifestList" : null,
                  "commitUser" : "user",
                  "commitIdentifier" : 1,
                  "commitKind" : "COMPACT",
                  "timeMillis" : 10,
                  "totalRecordCount" : null,
                  "deltaRecordCount" : null
                }""";
        org.apache.paimon.Snapshot expected = org.apache.paimon.Snapshot.fromJson(text);
        Snapshot actual = SnapshotJson.parse(text.getBytes(StandardCharsets.UTF_8), "snapshot-5");
        assertSameSnapshot(actual, expected);
        assertThat(actual.totalRecordCount()).isEmpty();
        assertThat(actual.deltaRecordCount()).isEmpty();
        assertThat(actual.logOffsets()).isEmpty();
        assertThat(SnapshotJson.toJson(actual)).isEqualTo(text);

        // an empty logOffsets object is kept as "{ }", and so are empty properties
        String empty = text.replace("\"timeMillis\" : 10,\n", "\"timeMillis\" : 10,\n  \"logOffsets\" : { },\n")
                .replace("\"deltaRecordCount\" : null\n", "\"deltaRecordCount\" : null,\n  \"properties\" : { }\n");
        Snapshot parsedEmpty = SnapshotJson.parse(empty.getBytes(StandardCharsets.UTF_8), "snapshot-5");
        assertThat(parsedEmpty.logOffsets()).contains(Map.of());
        assertThat(parsedEmpty.properties()).contains(Map.of());
        assertThat(SnapshotJson.toJson(parsedEmpty)).isEqualTo(empty);
    }

    @Test
    public void testVersionOneSnapshot()
            throws Exception
    {
        String text = """
                {"id": 1, "schemaId": 0, "baseManifestList": "b", "deltaManifestList": "d", "commitUser": "u",
                 "commitIdentifier": 3, "commitKind": "APPEND", "timeMillis": 4, "unknownKey": [1, {"x": 2}]}
                """;
        Snapshot snapshot = SnapshotJson.parse(text.getBytes(StandardCharsets.UTF_8), "snapshot-1");
        // Paimon 1.4 reads a missing version as 0 (its field became an int); up to 1.3 it meant 1
        org.apache.paimon.Snapshot expected = org.apache.paimon.Snapshot.fromJson(text.replace("{\"id\"", "{\"version\": 1, \"id\""));
        assertThat(expected.version()).isEqualTo(1);
        assertSameSnapshot(snapshot, expected);
        assertThat(snapshot.version()).isEqualTo(1);
    }

    @Test
    public void testMissingRequiredKeys()
            throws Exception
    {
        String text = appendTable.snapshotManager().snapshot(1).toJson();
        for (String key : List.of("id", "schemaId", "baseManifestList", "deltaManifestList", "commitKind", "commitUser", "commitIdentifier", "timeMillis")) {
            String broken = text.replaceFirst("(?m)^  \"" + key + "\" : .*\\n", "");
            assertThat(broken).isNotEqualTo(text);
            assertThatThrownBy(() -> SnapshotJson.parse(broken.getBytes(StandardCharsets.UTF_8), "/t/snapshot/snapshot-1"))
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining("/t/snapshot/snapshot-1")
                    .hasMessageContaining("'" + key + "'");
        }
    }

    @Test
    public void testFutureVersion()
            throws Exception
    {
        String text = appendTable.snapshotManager().snapshot(1).toJson().replace("\"version\" : 3", "\"version\" : 4");
        assertThatThrownBy(() -> SnapshotJson.parse(text.getBytes(StandardCharsets.UTF_8), "/t/snapshot/snapshot-1"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("/t/snapshot/snapshot-1")
                .hasMessageContaining("version 4");
    }

    @Test
    public void testMalformedSnapshots()
    {
        for (String text : List.of("", "[]", "{", "not json", "{} {}", "{}]", "{\"id\": \"1\"}", "{\"id\": 1.5}",
                "{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,\"commitKind\":\"DELETE\",\"timeMillis\":1}",
                "{\"version\":3,\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,\"commitKind\":\"APPEND\",\"timeMillis\":1,\"logOffsets\":{\"x\":1}}")) {
            assertThatThrownBy(() -> SnapshotJson.parse(text.getBytes(StandardCharsets.UTF_8), "snapshot-9"))
                    .as(text)
                    .isInstanceOf(CorruptFileException.class)
                    .hasMessageContaining("snapshot-9");
        }
    }

    @Test
    public void testPaimonTagFiles()
            throws Exception
    {
        org.apache.paimon.utils.TagManager paimonTags = appendTable.tagManager();
        for (String name : List.of("plain", "retained")) {
            Path file = Path.of(paimon.tableRoot("append"), "tag", "tag-" + name);
            String text = Files.readString(file);
            org.apache.paimon.tag.Tag expected = paimonTags.getOrThrow(name);

            Tag actual = SnapshotJson.parseTag(text.getBytes(StandardCharsets.UTF_8), file.toString());
            assertSameSnapshot(actual.snapshot(), expected);
            assertThat(actual.tagCreateTime()).isEqualTo(Optional.ofNullable(expected.getTagCreateTime()));
            assertThat(actual.tagTimeRetained()).isEqualTo(Optional.ofNullable(expected.getTagTimeRetained()));
            assertThat(withoutNullChangelogList(SnapshotJson.toJson(actual))).isEqualTo(text);
            assertThat(org.apache.paimon.tag.Tag.fromJson(SnapshotJson.toJson(actual))).isEqualTo(expected);
        }
        assertThat(SnapshotJson.parseTag(Files.readAllBytes(Path.of(paimon.tableRoot("append"), "tag", "tag-retained")), "tag-retained").tagTimeRetained())
                .contains(Duration.ofMillis(3_600_500));
    }

    @Test
    public void testTagTimeSpellings()
            throws Exception
    {
        org.apache.paimon.Snapshot snapshot = appendTable.snapshotManager().snapshot(1);
        List<LocalDateTime> times = List.of(
                LocalDateTime.of(2026, 1, 2, 3, 4),
                LocalDateTime.of(2026, 1, 2, 3, 4, 5),
                LocalDateTime.of(2026, 1, 2, 3, 4, 0, 7),
                LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_999));
        List<Duration> durations = List.of(Duration.ZERO, Duration.ofSeconds(3600), Duration.ofNanos(1), Duration.ofDays(400).plusNanos(123_000_000));
        for (int i = 0; i < times.size(); i++) {
            org.apache.paimon.tag.Tag expected = org.apache.paimon.tag.Tag.fromSnapshotAndTagTtl(snapshot, durations.get(i), times.get(i));
            String text = expected.toJson();
            Tag actual = SnapshotJson.parseTag(text.getBytes(StandardCharsets.UTF_8), "tag-x");
            assertThat(actual.tagCreateTime()).contains(times.get(i));
            assertThat(actual.tagTimeRetained()).contains(durations.get(i));
            assertThat(withoutNullChangelogList(SnapshotJson.toJson(actual))).isEqualTo(text);
        }
    }

    public static void assertSameSnapshot(Snapshot actual, org.apache.paimon.Snapshot expected)
    {
        assertThat(actual.version()).isEqualTo(expected.version());
        assertThat(actual.id()).isEqualTo(expected.id());
        assertThat(actual.schemaId()).isEqualTo(expected.schemaId());
        assertThat(actual.baseManifestList()).isEqualTo(expected.baseManifestList());
        assertThat(actual.baseManifestListSize()).isEqualTo(Optional.ofNullable(expected.baseManifestListSize()));
        assertThat(actual.deltaManifestList()).isEqualTo(expected.deltaManifestList());
        assertThat(actual.deltaManifestListSize()).isEqualTo(Optional.ofNullable(expected.deltaManifestListSize()));
        assertThat(actual.changelogManifestList()).isEqualTo(Optional.ofNullable(expected.changelogManifestList()));
        assertThat(actual.changelogManifestListSize()).isEqualTo(Optional.ofNullable(expected.changelogManifestListSize()));
        assertThat(actual.indexManifest()).isEqualTo(Optional.ofNullable(expected.indexManifest()));
        assertThat(actual.commitUser()).isEqualTo(expected.commitUser());
        assertThat(actual.commitIdentifier()).isEqualTo(expected.commitIdentifier());
        assertThat(actual.commitKind().name()).isEqualTo(expected.commitKind().name());
        assertThat(actual.timeMillis()).isEqualTo(expected.timeMillis());
        // Paimon 1.4 reads a count that old writers left out as 0
        assertThat(actual.totalRecordCount().orElse(0L)).isEqualTo(expected.totalRecordCount());
        assertThat(actual.deltaRecordCount().orElse(0L)).isEqualTo(expected.deltaRecordCount());
        assertThat(actual.changelogRecordCount()).isEqualTo(Optional.ofNullable(expected.changelogRecordCount()));
        assertThat(actual.watermark()).isEqualTo(Optional.ofNullable(expected.watermark()));
        assertThat(actual.statistics()).isEqualTo(Optional.ofNullable(expected.statistics()));
        assertThat(actual.properties()).isEqualTo(Optional.ofNullable(expected.properties()));
        assertThat(actual.nextRowId()).isEqualTo(Optional.ofNullable(expected.nextRowId()));
    }

    private static String withoutNullChangelogList(String text)
    {
        return text.replace("  \"changelogManifestList\" : null,\n", "");
    }
}
