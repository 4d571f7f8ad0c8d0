package io.tarn.storage.scan;

import io.tarn.storage.binary.BinaryRow;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A unit of reading: files of one partition and bucket. When {@code mergeRequired} is false the
 * files are read raw (append tables, deletion-vector tables, first-row tables); otherwise the
 * split holds every sorted run of its bucket and the reader merges them by key.
 */
public record DataSplit(BinaryRow partition, int bucket, int totalBuckets, List<PlannedFile> files, boolean mergeRequired)
{
    public DataSplit
    {
        requireNonNull(partition, "partition is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
        if (files.isEmpty()) {
            throw new IllegalArgumentException("A split needs at least one file");
        }
    }

    public long sizeInBytes()
    {
        return files.stream().mapToLong(file -> file.file().fileSize()).sum();
    }

    public long rowCount()
    {
        return files.stream().mapToLong(file -> file.file().rowCount()).sum();
    }
}
