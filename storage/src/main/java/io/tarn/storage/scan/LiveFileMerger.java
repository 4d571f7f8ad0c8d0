package io.tarn.storage.scan;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    // the append-only phase: the ADDs, and an open-addressing table of their names' hashes
    // (slot value: index into added + 1, 0 empty), cheaper than a HashSet's nodes
    private List<ManifestEntry> added;
    private int[] nameHashes;
    private int[] nameSlots;
    // after it
    private Map<Object, ManifestEntry> live;

    LiveFileMerger(String tableName)
    {
        this(tableName, 0);
    }

    /**
     * @param expectedAdds how many ADDs to size for (the manifests' added-file counts); only a hint
     */
    LiveFileMerger(String tableName, int expectedAdds)
    {
        this.tableName = tableName;
        int capacity = Integer.highestOneBit(Math.max(32, Math.min(expectedAdds, 1 << 20)) * 2 - 1) * 2;
        this.added = new ArrayList<>(Math.max(10, Math.min(expectedAdds, 1 << 20)));
        this.nameHashes = new int[capacity];
        this.nameSlots = new int[capacity];
    }

    void add(ManifestEntry entry, String manifestName)
            throws CorruptFileException
    {
        if (live == null) {
            if (entry.kind() == FileKind.ADD && addName(entry.file().fileName())) {
                added.add(entry);
                return;
            }
            live = new LinkedHashMap<>();
            for (ManifestEntry previous : added) {
                live.put(previous.identifier(), previous);
            }
            added = null;
            nameHashes = null;
            nameSlots = null;
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

    /**
     * Records the name of the next ADD, unless an earlier ADD has the same name.
     */
    private boolean addName(String name)
    {
        if ((added.size() + 1) * 2 > nameSlots.length) {
            rehash(nameSlots.length * 2);
        }
        int hash = name.hashCode();
        int mask = nameSlots.length - 1;
        int slot = mix(hash) & mask;
        while (nameSlots[slot] != 0) {
            if (nameHashes[slot] == hash && added.get(nameSlots[slot] - 1).file().fileName().equals(name)) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
        nameHashes[slot] = hash;
        nameSlots[slot] = added.size() + 1;
        return true;
    }

    private void rehash(int capacity)
    {
        int[] hashes = new int[capacity];
        int[] slots = new int[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < nameSlots.length; i++) {
            if (nameSlots[i] != 0) {
                int slot = mix(nameHashes[i]) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                hashes[slot] = nameHashes[i];
                slots[slot] = nameSlots[i];
            }
        }
        nameHashes = hashes;
        nameSlots = slots;
    }

    private static int mix(int hash)
    {
        int mixed = hash * 0x9E3779B9;
        return mixed ^ (mixed >>> 16);
    }

    Collection<ManifestEntry> liveEntries()
    {
        return live == null ? added : live.values();
    }
}
