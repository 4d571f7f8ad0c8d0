package io.tarn.storage.commit;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Paths of data files (with their extra files) and of metadata files, in insertion order.
 */
final class ReferencedFiles
{
    final Set<String> dataFiles = new LinkedHashSet<>();
    final Set<String> metadataFiles = new LinkedHashSet<>();
}
