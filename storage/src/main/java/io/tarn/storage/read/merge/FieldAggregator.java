package io.tarn.storage.read.merge;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;
import io.tarn.types.ValueComparator;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * One column's aggregate function of the {@code aggregation} merge engine, with the semantics of
 * Paimon 1.3's {@code FieldXxxAgg} classes: how nulls fold, and which functions can take
 * retractions (-U/-D). Stateful functions (first_value) are {@link #reset()} per key.
 */
abstract class FieldAggregator
{
    protected final String table;
    protected final String field;
    protected final String function;
    protected final DataType type;

    FieldAggregator(String table, String field, String function, DataType type)
    {
        this.table = requireNonNull(table, "table is null");
        this.field = requireNonNull(field, "field is null");
        this.function = requireNonNull(function, "function is null");
        this.type = requireNonNull(type, "type is null");
    }

    abstract Object agg(Object accumulator, Object input);

    Object retract(Object accumulator, Object input)
            throws UnsupportedTableFeatureException
    {
        throw new UnsupportedTableFeatureException(("Table %s: aggregate function '%s' of column '%s' cannot take a retraction (-U/-D record); "
                + "Paimon needs 'fields.%s.ignore-retract' or 'aggregation.remove-record-on-delete' for that").formatted(table, function, field, field));
    }

    void reset() {}

    /**
     * A column's {@code fields.<column>.*} options that tune its aggregate function.
     */
    record Options(TableOptions tableOptions, String field)
    {
        Options
        {
            requireNonNull(tableOptions, "tableOptions is null");
            requireNonNull(field, "field is null");
        }

        private String option(String name)
        {
            return tableOptions.get("fields." + field + "." + name).orElse(null);
        }

        String listAggDelimiter()
        {
            String value = option("list-agg-delimiter");
            return value != null ? value : ",";
        }

        boolean distinct()
        {
            return tableOptions.flag("fields." + field + ".distinct");
        }

        List<String> nestedKey()
        {
            String value = option("nested-key");
            return value == null ? List.of() : Arrays.stream(value.split(",")).map(String::trim).toList();
        }

        int countLimit(String table)
                throws UnsupportedTableFeatureException
        {
            String value = option("count-limit");
            try {
                return value == null ? Integer.MAX_VALUE : Integer.parseInt(value.trim());
            }
            catch (NumberFormatException e) {
                throw new UnsupportedTableFeatureException("Table %s: option 'fields.%s.count-limit' is not an integer: %s".formatted(table, field, value), e);
            }
        }
    }

    /**
     * The aggregator for {@code function} on a column of {@code type}.
     */
    static FieldAggregator create(String table, String field, DataType type, String function, Options options)
            throws UnsupportedTableFeatureException
    {
        String name = function.trim().toLowerCase(Locale.ROOT);
        return switch (name) {
            case "primary-key" -> new LastValue(table, field, name, type, false);
            case "sum" -> new Sum(table, field, requireType(table, field, name, type, isNumeric(type)));
            case "product" -> new Product(table, field, requireType(table, field, name, type, isNumeric(type)));
            case "max" -> new Extreme(table, field, name, requireType(table, field, name, type, ValueComparator.isOrderable(type)), true);
            case "min" -> new Extreme(table, field, name, requireType(table, field, name, type, ValueComparator.isOrderable(type)), false);
            case "last_value" -> new LastValue(table, field, name, type, true);
            case "last_non_null_value" -> new LastNonNullValue(table, field, type);
            case "first_value" -> new FirstValue(table, field, name, type, false);
            case "first_non_null_value", "first_not_null_value" -> new FirstValue(table, field, name, type, true);
            case "listagg" -> new ListAgg(table, field, requireType(table, field, name, type, type.root() == TypeRoot.VARCHAR), options.listAggDelimiter());
            case "bool_and" -> new Bool(table, field, name, requireType(table, field, name, type, type.root() == TypeRoot.BOOLEAN), true);
            case "bool_or" -> new Bool(table, field, name, requireType(table, field, name, type, type.root() == TypeRoot.BOOLEAN), false);
            case "collect" -> CollectionAggregators.collect(table, field, type, options.distinct());
            case "merge_map" -> CollectionAggregators.mergeMap(table, field, type);
            case "nested_update" -> CollectionAggregators.nestedUpdate(table, field, type, options.nestedKey(), options.countLimit(table));
            case "rbm32", "rbm64", "theta_sketch", "hll_sketch" -> throw new UnsupportedTableFeatureException(
                    "Table %s: aggregate function '%s' of column '%s' merges serialized sketches or bitmaps, which Tarn cannot merge yet"
                            .formatted(table, function, field));
            default -> throw new UnsupportedTableFeatureException("Table %s: aggregate function '%s' of column '%s' is not supported by Tarn yet"
                    .formatted(table, function, field));
        };
    }

    private static DataType requireType(String table, String field, String function, DataType type, boolean supported)
            throws UnsupportedTableFeatureException
    {
        if (!supported) {
            throw new UnsupportedTableFeatureException("Table %s: aggregate function '%s' does not support column '%s' of type %s"
                    .formatted(table, function, field, type.asSqlString()));
        }
        return type;
    }

    private static boolean isNumeric(DataType type)
    {
        return switch (type.root()) {
            case TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    /**
     * A DECIMAL result that does not fit the column's precision becomes null, as Paimon's
     * {@code Decimal.fromBigDecimal} does.
     */
    private static BigDecimal fitDecimal(BigDecimal value, DataType type)
    {
        AtomicType decimal = (AtomicType) type;
        BigDecimal scaled = value.setScale(decimal.scale(), RoundingMode.HALF_UP);
        return scaled.precision() > decimal.precision() ? null : scaled;
    }

    private static final class Sum
            extends FieldAggregator
    {
        Sum(String table, String field, DataType type)
        {
            super(table, field, "sum", type);
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            return switch (type.root()) {
                case TINYINT -> (byte) ((Byte) accumulator + (Byte) input);
                case SMALLINT -> (short) ((Short) accumulator + (Short) input);
                case INT -> (Integer) accumulator + (Integer) input;
                case BIGINT -> (Long) accumulator + (Long) input;
                case FLOAT -> (Float) accumulator + (Float) input;
                case DOUBLE -> (Double) accumulator + (Double) input;
                case DECIMAL -> fitDecimal(((BigDecimal) accumulator).add((BigDecimal) input), type);
                default -> throw new IllegalStateException("Not numeric: " + type);
            };
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            if (input == null) {
                return accumulator;
            }
            if (accumulator == null) {
                return negate(input);
            }
            return switch (type.root()) {
                case TINYINT -> (byte) ((Byte) accumulator - (Byte) input);
                case SMALLINT -> (short) ((Short) accumulator - (Short) input);
                case INT -> (Integer) accumulator - (Integer) input;
                case BIGINT -> (Long) accumulator - (Long) input;
                case FLOAT -> (Float) accumulator - (Float) input;
                case DOUBLE -> (Double) accumulator - (Double) input;
                case DECIMAL -> fitDecimal(((BigDecimal) accumulator).subtract((BigDecimal) input), type);
                default -> throw new IllegalStateException("Not numeric: " + type);
            };
        }

        private Object negate(Object value)
        {
            return switch (type.root()) {
                case TINYINT -> (byte) -(Byte) value;
                case SMALLINT -> (short) -(Short) value;
                case INT -> -(Integer) value;
                case BIGINT -> -(Long) value;
                case FLOAT -> -(Float) value;
                case DOUBLE -> -(Double) value;
                case DECIMAL -> fitDecimal(((BigDecimal) value).negate(), type);
                default -> throw new IllegalStateException("Not numeric: " + type);
            };
        }
    }

    private static final class Product
            extends FieldAggregator
    {
        Product(String table, String field, DataType type)
        {
            super(table, field, "product", type);
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            return switch (type.root()) {
                case TINYINT -> (byte) ((Byte) accumulator * (Byte) input);
                case SMALLINT -> (short) ((Short) accumulator * (Short) input);
                case INT -> (Integer) accumulator * (Integer) input;
                case BIGINT -> (Long) accumulator * (Long) input;
                case FLOAT -> (Float) accumulator * (Float) input;
                case DOUBLE -> (Double) accumulator * (Double) input;
                case DECIMAL -> fitDecimal(((BigDecimal) accumulator).multiply((BigDecimal) input), type);
                default -> throw new IllegalStateException("Not numeric: " + type);
            };
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator;
            }
            return switch (type.root()) {
                case TINYINT -> (byte) ((Byte) accumulator / (Byte) input);
                case SMALLINT -> (short) ((Short) accumulator / (Short) input);
                case INT -> (Integer) accumulator / (Integer) input;
                case BIGINT -> (Long) accumulator / (Long) input;
                case FLOAT -> (Float) accumulator / (Float) input;
                case DOUBLE -> (Double) accumulator / (Double) input;
                case DECIMAL -> fitDecimal(((BigDecimal) accumulator).divide((BigDecimal) input, MathContext.DECIMAL128), type);
                default -> throw new IllegalStateException("Not numeric: " + type);
            };
        }
    }

    private static final class Extreme
            extends FieldAggregator
    {
        private final boolean max;

        Extreme(String table, String field, String function, DataType type, boolean max)
        {
            super(table, field, function, type);
            this.max = max;
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            boolean accumulatorSmaller = ValueComparator.compare(type, accumulator, input) < 0;
            if (max) {
                return accumulatorSmaller ? input : accumulator;
            }
            return accumulatorSmaller ? accumulator : input;
        }
    }

    /**
     * last_value (a retraction sets null) and the primary-key columns (a retraction keeps the
     * retracted record's value).
     */
    private static final class LastValue
            extends FieldAggregator
    {
        private final boolean retractToNull;

        LastValue(String table, String field, String function, DataType type, boolean retractToNull)
        {
            super(table, field, function, type);
            this.retractToNull = retractToNull;
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            return input;
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            return retractToNull ? null : input;
        }
    }

    private static final class LastNonNullValue
            extends FieldAggregator
    {
        LastNonNullValue(String table, String field, DataType type)
        {
            super(table, field, "last_non_null_value", type);
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            return input == null ? accumulator : input;
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            // a retraction of a value clears it; one of null leaves the column alone
            return input != null ? null : accumulator;
        }
    }

    private static final class FirstValue
            extends FieldAggregator
    {
        private final boolean skipNulls;
        private boolean initialized;

        FirstValue(String table, String field, String function, DataType type, boolean skipNulls)
        {
            super(table, field, function, type);
            this.skipNulls = skipNulls;
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (!initialized && (!skipNulls || input != null)) {
                initialized = true;
                return input;
            }
            return accumulator;
        }

        @Override
        void reset()
        {
            initialized = false;
        }
    }

    private static final class ListAgg
            extends FieldAggregator
    {
        private final String delimiter;

        ListAgg(String table, String field, DataType type, String delimiter)
        {
            super(table, field, "listagg", type);
            this.delimiter = requireNonNull(delimiter, "delimiter is null");
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            return accumulator + delimiter + input;
        }
    }

    private static final class Bool
            extends FieldAggregator
    {
        private final boolean and;

        Bool(String table, String field, String function, DataType type, boolean and)
        {
            super(table, field, function, type);
            this.and = and;
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            if (accumulator == null || input == null) {
                return accumulator == null ? input : accumulator;
            }
            return and ? (Boolean) accumulator && (Boolean) input : (Boolean) accumulator || (Boolean) input;
        }
    }

    /**
     * {@code fields.<f>.ignore-retract=true}: retractions leave the accumulator alone.
     */
    static final class IgnoreRetract
            extends FieldAggregator
    {
        private final FieldAggregator delegate;

        IgnoreRetract(FieldAggregator delegate)
        {
            super(delegate.table, delegate.field, delegate.function, delegate.type);
            this.delegate = delegate;
        }

        @Override
        Object agg(Object accumulator, Object input)
        {
            return delegate.agg(accumulator, input);
        }

        @Override
        Object retract(Object accumulator, Object input)
        {
            return accumulator;
        }

        @Override
        void reset()
        {
            delegate.reset();
        }
    }
}
