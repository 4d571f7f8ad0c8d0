package io.tarn.testing;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One data file of Paimon's scan plan.
 *
 * @param partition the partition values formatted as a canonical line (top-level format, TAB
 * between partition columns in partition-key order); empty for an unpartitioned table
 * @param extraFiles the file names listed in the file's extra files (e.g. its {@code .index} file)
 * @param embeddedIndex whether the manifest entry carries an embedded file index
 * @param deletionFile the file's deletion vector, if any
 */
public record PlannedFile(
        String partition,
        int bucket,
        String fileName,
        int level,
        long rowCount,
        long schemaId,
        List<String> extraFiles,
        boolean embeddedIndex,
        Optional<PlannedDeletionFile> deletionFile)
{
    public static final Comparator<PlannedFile> ORDER = Comparator
            .comparing(PlannedFile::partition, CanonicalRows.utf8Order())
            .thenComparingInt(PlannedFile::bucket)
            .thenComparing(PlannedFile::fileName);

    public PlannedFile
    {
        requireNonNull(partition, "partition is null");
        requireNonNull(fileName, "fileName is null");
        extraFiles = List.copyOf(requireNonNull(extraFiles, "extraFiles is null"));
        requireNonNull(deletionFile, "deletionFile is null");
    }
}
