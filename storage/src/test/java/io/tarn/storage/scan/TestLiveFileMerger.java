package io.tarn.storage.scan;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.types.DataTypes;
import org.testng.annotations.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The merge rules of Paimon's {@code FileEntry.mergeEntries}, worked by hand: an ADD makes a file
 * live, a DELETE of the same identity removes it, adding a live identity again is an error, and a
 * file of the same name in another bucket or level is another file.
 */
public class TestLiveFileMerger
{
    private static final BinaryRow PARTITION = BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("2024-01-01"));

    @Test
    public void testAppendOnly()
            throws CorruptFileException
    {
        // enough entries to grow the name table several times
        LiveFileMerger merger = new LiveFileMerger("t");
        List<ManifestEntry> added = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ManifestEntry entry = entry(FileKind.ADD, "data-" + i, 0, 0);
            added.add(entry);
            merger.add(entry, "manifest-1");
        }
        assertThat(merger.liveEntries()).containsExactlyElementsOf(added);

        ManifestEntry duplicate = entry(FileKind.ADD, "data-500", 0, 0);
        assertThatThrownBy(() -> merger.add(duplicate, "manifest-2"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("Table t")
                .hasMessageContaining("manifest-2")
                .hasMessageContaining("data-500");
    }

    @Test
    public void testSameNameElsewhereIsAnotherFile()
            throws CorruptFileException
    {
        LiveFileMerger merger = new LiveFileMerger("t");
        ManifestEntry first = entry(FileKind.ADD, "data-1", 0, 0);
        ManifestEntry otherBucket = entry(FileKind.ADD, "data-1", 1, 0);
        ManifestEntry otherLevel = entry(FileKind.ADD, "data-1", 0, 1);
        ManifestEntry second = entry(FileKind.ADD, "data-2", 0, 0);
        merger.add(first, "m");
        merger.add(otherBucket, "m");
        merger.add(otherLevel, "m");
        merger.add(second, "m");
        assertThat(merger.liveEntries()).containsExactly(first, otherBucket, otherLevel, second);
        assertThatThrownBy(() -> merger.add(entry(FileKind.ADD, "data-1", 1, 0), "m")).isInstanceOf(CorruptFileException.class);
    }

    @Test
    public void testDeletes()
            throws CorruptFileException
    {
        LiveFileMerger merger = new LiveFileMerger("t");
        ManifestEntry first = entry(FileKind.ADD, "data-1", 0, 0);
        ManifestEntry second = entry(FileKind.ADD, "data-2", 0, 0);
        ManifestEntry compacted = entry(FileKind.ADD, "data-1", 0, 5);
        merger.add(first, "m");
        merger.add(second, "m");
        // a DELETE of another level removes nothing; one whose ADD was never seen is dropped
        merger.add(entry(FileKind.DELETE, "data-1", 0, 5), "m");
        merger.add(entry(FileKind.DELETE, "data-9", 0, 0), "m");
        assertThat(merger.liveEntries()).containsExactly(first, second);
        merger.add(entry(FileKind.DELETE, "data-1", 0, 0), "m");
        merger.add(compacted, "m");
        assertThat(merger.liveEntries()).containsExactly(second, compacted);
        // deleted, a file may be added again
        merger.add(entry(FileKind.DELETE, "data-2", 0, 0), "m");
        merger.add(second, "m");
        assertThat(merger.liveEntries()).containsExactly(compacted, second);
    }

    @Test
    public void testDeleteFirst()
            throws CorruptFileException
    {
        LiveFileMerger merger = new LiveFileMerger("t");
        merger.add(entry(FileKind.DELETE, "data-1", 0, 0), "m");
        ManifestEntry added = entry(FileKind.ADD, "data-1", 0, 0);
        merger.add(added, "m");
        assertThat(merger.liveEntries()).containsExactly(added);
    }

    private static ManifestEntry entry(FileKind kind, String name, int bucket, int level)
    {
        DataFileMeta file = new DataFileMeta(name, 100, 1, BinaryRow.EMPTY, BinaryRow.EMPTY, SimpleStats.EMPTY, SimpleStats.EMPTY, 0, 0, 0, level,
                List.of(), OptionalLong.empty(), OptionalLong.empty(), null, OptionalInt.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.empty(), Optional.empty());
        return new ManifestEntry(kind, PARTITION, bucket, 1, file);
    }
}
