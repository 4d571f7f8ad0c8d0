package io.tarn.storage.scan;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Folds manifest entries, in commit order, into the set of live files. An entry is identified by
 * partition, bucket, level, file name, extra files, embedded index and external path, so a level
 * change is a DELETE followed by an ADD. A DELETE whose ADD was not seen (it lives in a manifest
 * that was skipped) is dropped: planning skips manifests and entries by rules that treat an ADD
 * and its DELETE alike.
 */
final class LiveFileMerger
{
    private final String tableName;
    private final Map<Object, ManifestEntry> live = new LinkedHashMap<>();

    LiveFileMerger(String tableName)
    {
        this.tableName = tableName;
    }

    void add(ManifestEntry entry, String manifestName)
            throws CorruptFileException
    {
        Object identifier = entry.identifier();
        if (entry.kind() == FileKind.ADD) {
            if (live.putIfAbsent(identifier, entry) != null) {
                throw new CorruptFileException("Table " + tableName + ": manifest " + manifestName + " adds file "
                        + entry.file().fileName() + " (bucket " + entry.bucket() + ", level " + entry.file().level() + ") which is already live");
            }
        }
        else {
            live.remove(identifier);
        }
    }

    Collection<ManifestEntry> liveEntries()
    {
        return live.values();
    }
}
