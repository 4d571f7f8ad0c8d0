package io.tarn.index.order;

import io.tarn.types.DataType;
import io.tarn.types.ValueComparator;

import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Plain order of a row's sort column values: by the first column, ties by the next, each
 * ascending in Paimon's value order ({@link ValueComparator}) with nulls first, the order of the
 * ascending record comparators Paimon's {@code order} sort strategy uses.
 */
public final class LexicographicOrder
        implements Comparator<List<?>>
{
    private final List<DataType> types;

    public LexicographicOrder(List<? extends DataType> types)
    {
        this.types = List.copyOf(requireNonNull(types, "types is null"));
        if (this.types.isEmpty()) {
            throw new IllegalArgumentException("An order needs at least one column");
        }
        for (DataType type : this.types) {
            if (!ValueComparator.isOrderable(type)) {
                throw new IllegalArgumentException("Cannot sort by a column of type " + type.asSqlString());
            }
        }
    }

    @Override
    public int compare(List<?> left, List<?> right)
    {
        for (int i = 0; i < types.size(); i++) {
            Object a = left.get(i);
            Object b = right.get(i);
            if (a == null || b == null) {
                if (a != b) {
                    return a == null ? -1 : 1;
                }
                continue;
            }
            int result = ValueComparator.compare(types.get(i), a, b);
            if (result != 0) {
                return result;
            }
        }
        return 0;
    }
}
