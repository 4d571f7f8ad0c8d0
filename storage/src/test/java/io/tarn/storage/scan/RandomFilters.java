package io.tarn.storage.scan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Random filters over a table's columns, written once for Tarn and for the oracle
 * ({@link FilterSpec}): comparisons, short and long IN and NOT IN lists, null tests, and
 * conjunctions and disjunctions of them up to three levels deep. Literals are half values the
 * table holds (so that equalities match rows) and half values from the column's whole domain
 * (absent values, values between and beyond the ones held), which is where pruning by statistics,
 * dictionaries and indexes can go wrong.
 */
final class RandomFilters
{
    /**
     * A column filters may name: values the table holds, a source of other values of its type, and
     * whether it may be compared by order (booleans are only tested for equality).
     */
    record Column(String name, List<Object> held, Function<Random, Object> anyValue, boolean ordered)
    {
        Column
        {
            requireNonNull(name, "name is null");
            held = List.copyOf(held);
            requireNonNull(anyValue, "anyValue is null");
            if (held.isEmpty()) {
                throw new IllegalArgumentException("Column " + name + " holds no value to draw literals from");
            }
        }
    }

    private static final FilterSpec.Op[] ORDERED_OPS = FilterSpec.Op.values();
    private static final FilterSpec.Op[] EQUALITY_OPS = {FilterSpec.Op.EQ, FilterSpec.Op.NE};

    private final List<Column> columns;
    private final Random random;

    RandomFilters(List<Column> columns, long seed)
    {
        this.columns = List.copyOf(columns);
        this.random = new Random(seed);
    }

    FilterSpec next()
    {
        return next(0);
    }

    private FilterSpec next(int depth)
    {
        if (depth < 2 && random.nextInt(10) < 4) {
            int count = 2 + random.nextInt(2);
            FilterSpec[] children = new FilterSpec[count];
            for (int i = 0; i < count; i++) {
                children[i] = next(depth + 1);
            }
            return random.nextBoolean() ? FilterSpec.and(children) : FilterSpec.or(children);
        }
        return leaf(columns.get(random.nextInt(columns.size())));
    }

    private FilterSpec leaf(Column column)
    {
        int kind = random.nextInt(20);
        if (kind < 11) {
            FilterSpec.Op[] ops = column.ordered() ? ORDERED_OPS : EQUALITY_OPS;
            return FilterSpec.compare(column.name(), ops[random.nextInt(ops.length)], literal(column));
        }
        if (kind < 14) {
            return FilterSpec.in(column.name(), literals(column, 1 + random.nextInt(4)));
        }
        if (kind < 16) {
            // long lists take the hashed and bitmap membership paths, and stretch statistics checks
            return FilterSpec.in(column.name(), literals(column, 30 + random.nextInt(200)));
        }
        if (kind < 18) {
            return FilterSpec.notIn(column.name(), literals(column, 1 + random.nextInt(4)));
        }
        return kind == 18 ? FilterSpec.isNull(column.name()) : FilterSpec.isNotNull(column.name());
    }

    private Object[] literals(Column column, int count)
    {
        Set<Object> values = new LinkedHashSet<>();
        // a boolean column has two values: stop when no new one can be drawn
        for (int attempt = 0; values.size() < count && attempt < count * 4; attempt++) {
            values.add(literal(column));
        }
        return new ArrayList<>(values).toArray();
    }

    private Object literal(Column column)
    {
        if (random.nextBoolean()) {
            return column.held().get(random.nextInt(column.held().size()));
        }
        return column.anyValue().apply(random);
    }
}
