package io.tarn.storage.commit;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.RowType;
import io.tarn.types.ValueComparator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

/**
 * Computes a manifest's summary row for the manifest list: counts of added and deleted files,
 * min/max/null-count statistics of every partition column over the entries (what planners use
 * to skip the whole manifest), and the bucket and level ranges.
 */
final class ManifestMetaBuilder
{
    private ManifestMetaBuilder() {}

    static ManifestFileMeta build(String fileName, long fileSize, List<ManifestEntry> entries, RowType partitionType, long schemaId)
    {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("A manifest needs at least one entry: " + fileName);
        }
        List<DataType> types = partitionType.fields().stream().map(DataField::type).map(type -> (DataType) type.withNullable(true)).toList();
        int arity = types.size();
        Object[] min = new Object[arity];
        Object[] max = new Object[arity];
        long[] nullCounts = new long[arity];
        long added = 0;
        long deleted = 0;
        int minBucket = Integer.MAX_VALUE;
        int maxBucket = Integer.MIN_VALUE;
        int minLevel = Integer.MAX_VALUE;
        int maxLevel = Integer.MIN_VALUE;
        for (ManifestEntry entry : entries) {
            if (entry.kind() == FileKind.ADD) {
                added++;
            }
            else {
                deleted++;
            }
            minBucket = Math.min(minBucket, entry.bucket());
            maxBucket = Math.max(maxBucket, entry.bucket());
            minLevel = Math.min(minLevel, entry.file().level());
            maxLevel = Math.max(maxLevel, entry.file().level());
            BinaryRow partition = entry.partition();
            for (int i = 0; i < arity; i++) {
                if (partition.isNullAt(i)) {
                    nullCounts[i]++;
                    continue;
                }
                Object value = partition.value(i, types.get(i));
                if (min[i] == null || ValueComparator.compare(types.get(i), value, min[i]) < 0) {
                    min[i] = value;
                }
                if (max[i] == null || ValueComparator.compare(types.get(i), value, max[i]) > 0) {
                    max[i] = value;
                }
            }
        }
        List<Long> nulls = new ArrayList<>(arity);
        for (long count : nullCounts) {
            nulls.add(count);
        }
        SimpleStats partitionStats = new SimpleStats(
                BinaryRowWriter.encode(types, Arrays.asList(min)),
                BinaryRowWriter.encode(types, Arrays.asList(max)),
                nulls);
        return new ManifestFileMeta(fileName, fileSize, added, deleted, partitionStats, schemaId,
                OptionalInt.of(minBucket), OptionalInt.of(maxBucket), OptionalInt.of(minLevel), OptionalInt.of(maxLevel));
    }
}
