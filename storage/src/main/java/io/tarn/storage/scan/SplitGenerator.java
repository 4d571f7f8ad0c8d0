package io.tarn.storage.scan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Groups planned files into splits. Files read raw are bin-packed per partition and bucket, in
 * sequence-number order, with each file weighing at least the open-file cost, so that small files
 * share a split and a large file stands alone, and at most {@code maxFilesPerSplit} files in a
 * split. With a range size, a file read raw of more than that many bytes is cut into splits of
 * equal row ranges instead. Files that must be merged stay together: one split holds every sorted
 * run of its bucket.
 */
final class SplitGenerator
{
    private final long targetSize;
    private final long openFileCost;
    private final int maxFilesPerSplit;
    private final OptionalLong rangeSize;

    SplitGenerator(long targetSize, long openFileCost, int maxFilesPerSplit)
    {
        this(targetSize, openFileCost, maxFilesPerSplit, OptionalLong.empty());
    }

    SplitGenerator(long targetSize, long openFileCost, int maxFilesPerSplit, OptionalLong rangeSize)
    {
        if (targetSize <= 0 || openFileCost < 0 || maxFilesPerSplit < 1 || (rangeSize.isPresent() && rangeSize.getAsLong() <= 0)) {
            throw new IllegalArgumentException("Invalid split shape: target " + targetSize + ", open-file cost " + openFileCost + ", files per split " + maxFilesPerSplit
                    + ", range size " + rangeSize);
        }
        this.targetSize = targetSize;
        this.openFileCost = openFileCost;
        this.maxFilesPerSplit = maxFilesPerSplit;
        this.rangeSize = rangeSize;
    }

    List<DataSplit> splits(List<PlannedFile> files, boolean mergeRequired)
    {
        Map<BucketKey, List<PlannedFile>> byBucket = new LinkedHashMap<>();
        for (PlannedFile file : files) {
            byBucket.computeIfAbsent(new BucketKey(file), ignored -> new ArrayList<>()).add(file);
        }
        List<DataSplit> splits = new ArrayList<>();
        for (List<PlannedFile> bucketFiles : byBucket.values()) {
            PlannedFile first = bucketFiles.get(0);
            if (mergeRequired) {
                splits.add(new DataSplit(first.partition(), first.bucket(), first.totalBuckets(), bucketFiles, true));
                continue;
            }
            List<PlannedFile> ordered = new ArrayList<>(bucketFiles);
            ordered.sort(Comparator.comparingLong((PlannedFile file) -> file.file().minSequenceNumber())
                    .thenComparing(file -> file.file().fileName()));
            List<PlannedFile> bin = new ArrayList<>();
            long binWeight = 0;
            for (PlannedFile file : ordered) {
                int ranges = ranges(file);
                if (ranges > 1) {
                    long rows = file.file().rowCount();
                    for (int range = 0; range < ranges; range++) {
                        RowRange rowRange = new RowRange(rows * range / ranges, rows * (range + 1) / ranges);
                        splits.add(new DataSplit(first.partition(), first.bucket(), first.totalBuckets(), List.of(file), false, Optional.of(rowRange)));
                    }
                    continue;
                }
                long weight = Math.max(file.file().fileSize(), openFileCost);
                if (!bin.isEmpty() && (binWeight + weight > targetSize || bin.size() == maxFilesPerSplit)) {
                    splits.add(new DataSplit(first.partition(), first.bucket(), first.totalBuckets(), bin, false));
                    bin = new ArrayList<>();
                    binWeight = 0;
                }
                bin.add(file);
                binWeight += weight;
            }
            if (!bin.isEmpty()) {
                splits.add(new DataSplit(first.partition(), first.bucket(), first.totalBuckets(), bin, false));
            }
        }
        return splits;
    }

    /**
     * How many row ranges a file read raw is cut into: one unless it is larger than the range
     * size, and never more than it has rows.
     */
    private int ranges(PlannedFile file)
    {
        if (rangeSize.isEmpty() || file.file().fileSize() <= rangeSize.getAsLong()) {
            return 1;
        }
        long ranges = (file.file().fileSize() + rangeSize.getAsLong() - 1) / rangeSize.getAsLong();
        return (int) Math.min(Math.min(ranges, file.file().rowCount()), Integer.MAX_VALUE);
    }

    private record BucketKey(Object partition, int bucket)
    {
        BucketKey(PlannedFile file)
        {
            this(file.partition(), file.bucket());
        }
    }
}
