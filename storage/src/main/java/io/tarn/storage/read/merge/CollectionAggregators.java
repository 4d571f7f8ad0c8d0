package io.tarn.storage.read.merge;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The aggregate functions over ARRAY and MAP columns: {@code collect}, {@code merge_map} and
 * {@code nested_update}, with the semantics of Paimon 1.3's {@code FieldCollectAgg},
 * {@code FieldMergeMapAgg} and {@code FieldNestedUpdateAgg}, element order included (see
 * {@link PaimonHashKey}).
 */
final class CollectionAggregators
{
    private CollectionAggregators() {}

    static FieldAggregator collect(String table, String field, DataType type, boolean distinct)
            throws UnsupportedTableFeatureException
    {
        if (!(type instanceof ArrayType arrayType)) {
            throw wrongType(table, field, "collect", "ARRAY", type);
        }
        return new Collect(table, field, arrayType, distinct);
    }

    static FieldAggregator mergeMap(String table, String field, DataType type)
            throws UnsupportedTableFeatureException
    {
        if (!(type instanceof MapType mapType)) {
            throw wrongType(table, field, "merge_map", "MAP", type);
        }
        return new MergeMap(table, field, mapType);
    }

    static FieldAggregator nestedUpdate(String table, String field, DataType type, List<String> nestedKey, int countLimit)
            throws UnsupportedTableFeatureException
    {
        if (!(type instanceof ArrayType arrayType) || !(arrayType.element() instanceof RowType rowType)) {
            throw wrongType(table, field, "nested_update", "ARRAY<ROW>", type);
        }
        int[] keyPositions = new int[nestedKey.size()];
        List<DataType> keyTypes = new ArrayList<>();
        for (int i = 0; i < nestedKey.size(); i++) {
            String name = nestedKey.get(i);
            List<DataField> fields = rowType.fields();
            int position = -1;
            for (int j = 0; j < fields.size(); j++) {
                if (fields.get(j).name().equals(name)) {
                    position = j;
                }
            }
            if (position < 0) {
                throw new UnsupportedTableFeatureException("Table %s: nested key '%s' of column '%s' is not a field of %s"
                        .formatted(table, name, field, type.asSqlString()));
            }
            if (!fields.get(position).type().root().isAtomic()) {
                throw new UnsupportedTableFeatureException("Table %s: nested key '%s' of column '%s' has the nested type %s, which Tarn cannot key by yet"
                        .formatted(table, name, field, fields.get(position).type().asSqlString()));
            }
            keyPositions[i] = position;
            keyTypes.add(fields.get(position).type());
        }
        return new NestedUpdate(table, field, type, keyPositions, keyTypes, countLimit);
    }

    private static UnsupportedTableFeatureException wrongType(String table, String field, String function, String expected, DataType type)
    {
        return new UnsupportedTableFeatureException("Table %s: aggregate function '%s' needs a column of type %s, but column '%s' is %s"
                .formatted(table, function, expected, field, type.asSqlString()));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> elements(Object array)
    {
        return array == null ? List.of() : (List<Object>) array;
    }

    /**
     * Deep equality of internal values, binary content compared by value (Paimon's generated
     * record equaliser does the same for nested elements).
     */
    static boolean deepEquals(Object left, Object right)
    {
        if (left instanceof byte[] a && right instanceof byte[] b) {
            return Arrays.equals(a, b);
        }
        if (left instanceof List<?> a && right instanceof List<?> b) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!deepEquals(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (left instanceof Map<?, ?> a && right instanceof Map<?, ?> b) {
            return deepEquals(new ArrayList<>(a.keySet()), new ArrayList<>(b.keySet()))
                    && deepEquals(new ArrayList<>(a.values()), new ArrayList<>(b.values()));
        }
        return Objects.equals(left, right);
    }

    private static final class Collect
            extends FieldAggregator
    {
        private final boolean distinct;
        private final DataType elementType;

        Collect(String table, String field, ArrayType type, boolean distinct)
        {
            super(table, field, "collect", type);
            this.distinct = distinct;
            this.elementType = type.element();
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null && input == null) {
                return null;
            }
            if ((accumulator == null || input == null) && !distinct) {
                return accumulator == null ? input : accumulator;
            }
            if (!distinct) {
                List<Object> all = new ArrayList<>(elements(accumulator));
                all.addAll(elements(input));
                return Collections.unmodifiableList(all);
            }
            if (!elementType.root().isAtomic()) {
                // nested elements: first-seen order, the accumulator being distinct already
                List<Object> all = new ArrayList<>(elements(accumulator));
                for (Object element : elements(input)) {
                    if (all.stream().noneMatch(existing -> deepEquals(existing, element))) {
                        all.add(element);
                    }
                }
                return Collections.unmodifiableList(all);
            }
            Set<PaimonHashKey> set = new HashSet<>();
            for (Object element : elements(accumulator)) {
                set.add(new PaimonHashKey(elementType, element));
            }
            for (Object element : elements(input)) {
                set.add(new PaimonHashKey(elementType, element));
            }
            List<Object> result = new ArrayList<>(set.size());
            for (PaimonHashKey element : set) {
                result.add(element.value());
            }
            return Collections.unmodifiableList(result);
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator;
            }
            List<Object> retracted = new ArrayList<>(elements(input));
            if (retracted.isEmpty()) {
                return accumulator;
            }
            List<Object> kept = new ArrayList<>();
            for (Object candidate : elements(accumulator)) {
                if (!removeFirst(retracted, candidate)) {
                    kept.add(candidate);
                }
            }
            return Collections.unmodifiableList(kept);
        }

        private static boolean removeFirst(List<Object> list, Object element)
        {
            Iterator<Object> iterator = list.iterator();
            while (iterator.hasNext()) {
                if (deepEquals(iterator.next(), element)) {
                    iterator.remove();
                    return true;
                }
            }
            return false;
        }
    }

    private static final class MergeMap
            extends FieldAggregator
    {
        private final DataType keyType;

        MergeMap(String table, String field, MapType type)
        {
            super(table, field, "merge_map", type);
            this.keyType = type.key();
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            Map<PaimonHashKey, Object> merged = new HashMap<>();
            putAll(merged, accumulator);
            putAll(merged, input);
            return unwrap(merged);
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            if (accumulator == null || input == null || entries(input).isEmpty()) {
                return accumulator;
            }
            Set<PaimonHashKey> retracted = new HashSet<>();
            for (Object key : entries(input).keySet()) {
                retracted.add(new PaimonHashKey(keyType, key));
            }
            Map<PaimonHashKey, Object> kept = new HashMap<>();
            for (Map.Entry<Object, Object> entry : entries(accumulator).entrySet()) {
                PaimonHashKey key = new PaimonHashKey(keyType, entry.getKey());
                if (!retracted.contains(key)) {
                    kept.put(key, entry.getValue());
                }
            }
            return unwrap(kept);
        }

        private void putAll(Map<PaimonHashKey, Object> target, Object map)
        {
            for (Map.Entry<Object, Object> entry : entries(map).entrySet()) {
                target.put(new PaimonHashKey(keyType, entry.getKey()), entry.getValue());
            }
        }

        @SuppressWarnings("unchecked")
        private static Map<Object, Object> entries(Object map)
        {
            return (Map<Object, Object>) map;
        }

        private static Map<Object, Object> unwrap(Map<PaimonHashKey, Object> map)
        {
            Map<Object, Object> result = new LinkedHashMap<>();
            map.forEach((key, value) -> result.put(key.value(), value));
            return Collections.unmodifiableMap(result);
        }
    }

    private static final class NestedUpdate
            extends FieldAggregator
    {
        private final int[] keyPositions;
        private final List<DataType> keyTypes;
        private final int countLimit;

        NestedUpdate(String table, String field, DataType type, int[] keyPositions, List<DataType> keyTypes, int countLimit)
        {
            super(table, field, "nested_update", type);
            this.keyPositions = keyPositions;
            this.keyTypes = List.copyOf(keyTypes);
            this.countLimit = countLimit;
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            List<Object> accumulated = elements(accumulator);
            if (accumulated.size() >= countLimit) {
                return accumulator;
            }
            int remaining = countLimit - accumulated.size();
            List<Object> rows = new ArrayList<>();
            addNonNull(rows, accumulated, Integer.MAX_VALUE);
            addNonNull(rows, elements(input), remaining);
            if (keyPositions.length == 0) {
                return Collections.unmodifiableList(rows);
            }
            // the last row of each nested key wins; Paimon keys a HashMap by the key's BinaryRow
            Map<BinaryRow, Object> byKey = new HashMap<>();
            for (Object row : rows) {
                byKey.put(key(row), row);
            }
            return List.copyOf(byKey.values());
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator;
            }
            if (keyPositions.length == 0) {
                List<Object> rows = new ArrayList<>();
                addNonNull(rows, elements(accumulator), Integer.MAX_VALUE);
                for (Object retracted : elements(input)) {
                    if (retracted != null) {
                        rows.removeIf(row -> deepEquals(row, retracted));
                    }
                }
                return Collections.unmodifiableList(rows);
            }
            Map<BinaryRow, Object> byKey = new HashMap<>();
            for (Object row : elements(accumulator)) {
                if (row != null) {
                    byKey.put(key(row), row);
                }
            }
            for (Object row : elements(input)) {
                if (row != null) {
                    byKey.remove(key(row));
                }
            }
            return List.copyOf(byKey.values());
        }

        private BinaryRow key(Object row)
        {
            List<?> fields = (List<?>) row;
            List<Object> key = new ArrayList<>(keyPositions.length);
            for (int position : keyPositions) {
                key.add(fields.get(position));
            }
            return BinaryRowWriter.encode(keyTypes, key);
        }

        private static void addNonNull(List<Object> target, List<Object> source, int limit)
        {
            int added = 0;
            for (Object row : source) {
                if (added >= limit) {
                    return;
                }
                if (row != null) {
                    target.add(row);
                    added++;
                }
            }
        }
    }
}
