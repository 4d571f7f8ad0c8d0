package io.tarn.storage.scan;

import io.tarn.storage.binary.BinaryRow;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A unit of reading: files of one partition and bucket. When {@code mergeRequired} is false the
 * files are read raw (append tables, deletion-vector tables, first-row tables); otherwise the
 * split holds every sorted run of its bucket and the reader merges them by key. A split with a
 * {@code rowRange} reads only those rows of its one file, read raw: a large file is read by
 * several splits at once.
 */
public record DataSplit(BinaryRow partition, int bucket, int totalBuckets, List<PlannedFile> files, boolean mergeRequired, Optional<RowRange> rowRange)
{
    public DataSplit
    {
        requireNonNull(partition, "partition is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
        requireNonNull(rowRange, "rowRange is null");
        if (files.isEmpty()) {
            throw new IllegalArgumentException("A split needs at least one file");
        }
        if (rowRange.isPresent()) {
            if (files.size() != 1 || mergeRequired) {
                throw new IllegalArgumentException("A row range needs a split of one file read raw, not " + files.size() + " files" + (mergeRequired ? " to merge" : ""));
            }
            if (rowRange.get().end() > files.get(0).file().rowCount()) {
                throw new IllegalArgumentException("Row range [%s, %s) is beyond the %s rows of %s"
                        .formatted(rowRange.get().start(), rowRange.get().end(), files.get(0).file().rowCount(), files.get(0).file().fileName()));
            }
        }
    }

    public DataSplit(BinaryRow partition, int bucket, int totalBuckets, List<PlannedFile> files, boolean mergeRequired)
    {
        this(partition, bucket, totalBuckets, files, mergeRequired, Optional.empty());
    }

    /**
     * The bytes of the split's files, or the row range's share of its file's bytes.
     */
    public long sizeInBytes()
    {
        long bytes = files.stream().mapToLong(file -> file.file().fileSize()).sum();
        if (rowRange.isEmpty()) {
            return bytes;
        }
        long fileRows = files.get(0).file().rowCount();
        return (long) Math.ceil((double) bytes * rowRange.get().rows() / fileRows);
    }

    public long rowCount()
    {
        if (rowRange.isPresent()) {
            return rowRange.get().rows();
        }
        return files.stream().mapToLong(file -> file.file().rowCount()).sum();
    }
}
