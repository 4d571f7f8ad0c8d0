package io.tarn.storage.scan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups planned files into splits. Files read raw are bin-packed per partition and bucket, in
 * sequence-number order, with each file weighing at least the open-file cost, so that small files
 * share a split and a large file stands alone, and at most {@code maxFilesPerSplit} files in a
 * split. Files that must be merged stay together: one split holds every sorted run of its bucket.
 */
final class SplitGenerator
{
    private final long targetSize;
    private final long openFileCost;
    private final int maxFilesPerSplit;

    SplitGenerator(long targetSize, long openFileCost, int maxFilesPerSplit)
    {
        if (targetSize <= 0 || openFileCost < 0 || maxFilesPerSplit < 1) {
            throw new IllegalArgumentException("Invalid split shape: target " + targetSize + ", open-file cost " + openFileCost + ", files per split " + maxFilesPerSplit);
        }
        this.targetSize = targetSize;
        this.openFileCost = openFileCost;
        this.maxFilesPerSplit = maxFilesPerSplit;
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
                long weight = Math.max(file.file().fileSize(), openFileCost);
                if (!bin.isEmpty() && (binWeight + weight > targetSize || bin.size() == maxFilesPerSplit)) {
                    splits.add(new DataSplit(first.partition(), first.bucket(), first.totalBuckets(), bin, false));
                    bin = new ArrayList<>();
                    binWeight = 0;
                }
                bin.add(file);
                binWeight += weight;
            }
            splits.add(new DataSplit(first.partition(), first.bucket(), first.totalBuckets(), bin, false));
        }
        return splits;
    }

    private record BucketKey(Object partition, int bucket)
    {
        BucketKey(PlannedFile file)
        {
            this(file.partition(), file.bucket());
        }
    }
}
