package io.tarn.storage.sort;

import io.tarn.index.order.HilbertKeys;
import io.tarn.index.order.LexicographicOrder;
import io.tarn.index.order.ZOrderKeys;
import io.tarn.types.DataType;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The sort key of a batch row under a strategy, and the order of keys: z-values and Hilbert
 * values are byte strings compared unsigned; plain order keeps the column values.
 */
final class RowKeys
{
    private final SortStrategy strategy;
    private final int[] columns;
    private final List<DataType> types;
    private final ZOrderKeys zOrder;
    private final HilbertKeys hilbert;
    private final LexicographicOrder lexicographic;

    /**
     * @param columns positions of the sort columns in the batches
     */
    RowKeys(SortStrategy strategy, int[] columns, List<DataType> types, int varLengthContribution)
    {
        this.strategy = requireNonNull(strategy, "strategy is null");
        this.columns = columns.clone();
        this.types = List.copyOf(requireNonNull(types, "types is null"));
        this.zOrder = strategy == SortStrategy.ZORDER ? new ZOrderKeys(types, varLengthContribution) : null;
        this.hilbert = strategy == SortStrategy.HILBERT ? new HilbertKeys(types) : null;
        this.lexicographic = strategy == SortStrategy.ORDER ? new LexicographicOrder(types) : null;
    }

    Object key(VectorSchemaRoot batch, int row)
    {
        List<Object> values = new ArrayList<>(columns.length);
        for (int i = 0; i < columns.length; i++) {
            values.add(ArrowValues.value(batch.getVector(columns[i]), row, types.get(i)));
        }
        return switch (strategy) {
            case ZORDER -> zOrder.key(values);
            case HILBERT -> hilbert.key(values);
            case ORDER -> values;
        };
    }

    @SuppressWarnings("unchecked")
    Comparator<Object> comparator()
    {
        if (strategy == SortStrategy.ORDER) {
            return (left, right) -> lexicographic.compare((List<Object>) left, (List<Object>) right);
        }
        return (left, right) -> Arrays.compareUnsigned((byte[]) left, (byte[]) right);
    }

    /**
     * The first 8 bytes of a byte key as an unsigned big-endian number (zero-padded), which orders
     * keys as their bytes do until it ties; 0 for plain-order keys, which always tie.
     */
    static long prefix(Object key)
    {
        if (!(key instanceof byte[] bytes)) {
            return 0;
        }
        long prefix = 0;
        for (int i = 0; i < 8; i++) {
            prefix = (prefix << 8) | (i < bytes.length ? bytes[i] & 0xFF : 0);
        }
        return prefix;
    }

    /**
     * A rough size of a key on the heap, for the memory budget.
     */
    static long estimatedSize(Object key)
    {
        if (key instanceof byte[] bytes) {
            return 16L + bytes.length;
        }
        long size = 40;
        for (Object value : (List<?>) key) {
            size += 16;
            if (value instanceof String text) {
                size += 40L + 2L * text.length();
            }
            else if (value instanceof byte[] bytes) {
                size += 16L + bytes.length;
            }
            else if (value != null) {
                size += 24;
            }
        }
        return size;
    }
}
