package io.tarn.storage.scan;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Folds manifest entries, in commit order, into the set of live files. An entry is identified by
 * partition, bucket, level, file name, extra files, embedded index and external path, so a level
 * change is a DELETE followed by an ADD. A DELETE whose ADD was not seen (it lives in a manifest
 * that was skipped) is dropped: planning skips manifests and entries by rules that treat an ADD
 * and its DELETE alike.
 * <p>
 * Until the first DELETE (append tables never have one) the live files are simply the ADDs in
 * order, and only file names are hashed to catch a file added twice: distinct names are distinct
 * identities. At the first DELETE or repeated name, the entries so far move into a map by full
 * identity, which then decides as before (a repeated name in another partition, bucket or level
 * is a different file; the same identity twice is an error).
 */
final class LiveFileMerger
{
    private final String tableName;
    // the append-only phase
    private List<ManifestEntry> added = new ArrayList<>();
    private Set<String> addedNames = new HashSet<>();
    // after it
    private Map<Object, ManifestEntry> live;

    LiveFileMerger(String tableName)
    {
        this.tableName = tableName;
    }

    void add(ManifestEntry entry, String manifestName)
            throws CorruptFileException
    {
        if (live == null) {
            if (entry.kind() == FileKind.ADD && addedNames.add(entry.file().fileName())) {
                added.add(entry);
                return;
            }
            live = new LinkedHashMap<>();
            for (ManifestEntry previous : added) {
                live.put(previous.identifier(), previous);
            }
            added = null;
            addedNames = null;
        }
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
        return live == null ? added : live.values();
    }
}
