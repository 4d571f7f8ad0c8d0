package io.tarn.storage.write;

import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Removal of the files a writer produced for a commit that did not happen.
 */
public final class WrittenFiles
{
    private WrittenFiles() {}

    /**
     * Deletes the data files of {@code adds} and their extra files (index files). Call it only
     * when no snapshot can reference them, for example after the commit lost to a conflict.
     * Failures to delete are added to {@code failure} as suppressed exceptions: what is left is
     * an orphan that no snapshot references.
     */
    public static void deleteAfterFailure(PaimonTable table, List<ManifestEntry> adds, Exception failure)
    {
        for (ManifestEntry add : adds) {
            List<String> names = new ArrayList<>(add.file().extraFiles());
            names.add(add.file().fileName());
            for (String name : names) {
                try {
                    table.fileIO().delete(table.dataFilePath(add.partition(), add.bucket(), add.file(), name));
                }
                catch (IOException | RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
        }
    }
}
