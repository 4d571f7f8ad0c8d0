package io.tarn.storage.catalog;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * How deeply a column's type nests in the Parquet schema of a data file, and the limit the reader
 * accepts. A column is one schema level, a ROW adds one per field level, an ARRAY, MULTISET or MAP
 * adds two (the repeated {@code list} or {@code key_value} group and its element). The reader
 * refuses footers deeper than {@link #MAX_PARQUET_DEPTH} (the Parquet footer parser's guard), so a
 * table whose columns nest deeper could be written but never read back.
 */
final class NestingDepth
{
    /**
     * The deepest schema element the Parquet footer parser of {@code vector-reader} accepts,
     * counted from the root message (depth 0).
     */
    static final int MAX_PARQUET_DEPTH = 64;

    private NestingDepth() {}

    /**
     * The depth of the deepest Parquet schema element of a column of this type, the column itself
     * at depth 1.
     */
    static int of(DataType type)
    {
        requireNonNull(type, "type is null");
        if (type instanceof ArrayType array) {
            return 2 + of(array.element());
        }
        if (type instanceof MultisetType multiset) {
            return 2 + of(multiset.element());
        }
        if (type instanceof MapType map) {
            return 2 + Math.max(of(map.key()), of(map.value()));
        }
        if (type instanceof RowType row) {
            return 1 + row.fields().stream().mapToInt(field -> of(field.type())).max().orElse(0);
        }
        return 1;
    }

    /**
     * Refuses columns whose data files the reader could not read back.
     */
    static void check(String tableName, List<DataField> fields)
            throws UnsupportedTableFeatureException
    {
        for (DataField field : fields) {
            int depth = of(field.type());
            if (depth > MAX_PARQUET_DEPTH) {
                throw new UnsupportedTableFeatureException("Table %s: column '%s' of type %s nests %s levels deep in Parquet; at most %s levels can be read back (an ARRAY or MAP counts 2, a ROW 1)"
                        .formatted(tableName, field.name(), field.type().asSqlString(), depth, MAX_PARQUET_DEPTH));
            }
        }
    }
}
