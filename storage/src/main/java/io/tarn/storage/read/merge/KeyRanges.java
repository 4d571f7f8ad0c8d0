package io.tarn.storage.read.merge;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.types.DataType;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The key ranges of data files as their metadata states them ({@code _MIN_KEY},
 * {@code _MAX_KEY}).
 */
final class KeyRanges
{
    private KeyRanges() {}

    /**
     * Which files' key ranges overlap no other file's (ranges that share only one key overlap).
     * A file whose bounds cannot be read counts as overlapping.
     */
    static boolean[] isolatedFiles(List<PlannedFile> files, MergeOrder order)
    {
        int count = files.size();
        boolean[] isolated = new boolean[count];
        Object[][] minKeys = new Object[count][];
        Object[][] maxKeys = new Object[count][];
        for (int i = 0; i < count; i++) {
            DataFileMeta meta = files.get(i).file();
            minKeys[i] = keyBound(meta.minKey(), order.keyTypes());
            maxKeys[i] = keyBound(meta.maxKey(), order.keyTypes());
            if (minKeys[i] == null || maxKeys[i] == null || order.compareKeys(minKeys[i], maxKeys[i]) > 0) {
                return isolated;
            }
        }
        Integer[] sorted = new Integer[count];
        Arrays.setAll(sorted, i -> i);
        Arrays.sort(sorted, Comparator.comparing(i -> minKeys[i], order::compareKeys));
        // the greatest max key of the files before in min-key order
        Object[] reach = null;
        for (int j = 0; j < count; j++) {
            int i = sorted[j];
            boolean clearBefore = reach == null || order.compareKeys(reach, minKeys[i]) < 0;
            boolean clearAfter = j == count - 1 || order.compareKeys(maxKeys[i], minKeys[sorted[j + 1]]) < 0;
            isolated[i] = clearBefore && clearAfter;
            if (reach == null || order.compareKeys(maxKeys[i], reach) > 0) {
                reach = maxKeys[i];
            }
        }
        return isolated;
    }

    private static Object[] keyBound(BinaryRow bound, List<DataType> keyTypes)
    {
        if (bound.arity() != keyTypes.size()) {
            return null;
        }
        try {
            Object[] values = bound.values(keyTypes).toArray();
            for (Object value : values) {
                if (value == null) {
                    return null;
                }
            }
            return values;
        }
        catch (IllegalArgumentException | UnsupportedOperationException e) {
            // malformed bounds: the file is merged like any other
            return null;
        }
    }
}
