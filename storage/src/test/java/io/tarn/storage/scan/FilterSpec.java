package io.tarn.storage.scan;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Literals;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.RowType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * One filter written once and built twice: as a Tarn predicate over the table's field ids, and as
 * an Apache Paimon predicate over the same columns for the oracle.
 */
public sealed interface FilterSpec
{
    Predicate tarn(TableSchema schema);

    org.apache.paimon.predicate.Predicate paimon(RowType rowType);

    /**
     * The filter in the {@code --where} grammar of the CLI and the C ABI, which has conjunctions
     * but no disjunctions: empty for a filter with OR.
     */
    Optional<String> whereText();

    enum Op
    {
        EQ, NE, LT, LE, GT, GE
    }

    static FilterSpec compare(String column, Op op, Object value)
    {
        return new Compare(column, op, value);
    }

    static FilterSpec in(String column, Object... values)
    {
        return new In(column, List.of(values), false);
    }

    static FilterSpec notIn(String column, Object... values)
    {
        return new In(column, List.of(values), true);
    }

    static FilterSpec isNull(String column)
    {
        return new IsNull(column, false);
    }

    static FilterSpec isNotNull(String column)
    {
        return new IsNull(column, true);
    }

    static FilterSpec and(FilterSpec... children)
    {
        return new Junction(true, List.of(children));
    }

    static FilterSpec or(FilterSpec... children)
    {
        return new Junction(false, List.of(children));
    }

    private static FieldRef field(TableSchema schema, String column)
    {
        DataField field = schema.rowType().field(column).orElseThrow(() -> new IllegalArgumentException("No column " + column));
        return FieldRef.of(field);
    }

    /**
     * The literal in Tarn's internal form for the column's type ({@link LocalDate} and
     * {@link LocalDateTime} become days and timestamps).
     */
    private static Object tarnLiteral(TableSchema schema, String column, Object value)
    {
        return Literals.coerce(field(schema, column).type(), value);
    }

    private static int index(RowType rowType, String column)
    {
        int index = rowType.getFieldIndex(column);
        if (index < 0) {
            throw new IllegalArgumentException("No column " + column);
        }
        return index;
    }

    private static Object paimonLiteral(RowType rowType, String column, Object value)
    {
        if (value instanceof String text) {
            return BinaryString.fromString(text);
        }
        if (value instanceof BigDecimal decimal) {
            org.apache.paimon.types.DecimalType type = (org.apache.paimon.types.DecimalType) rowType.getTypeAt(index(rowType, column));
            return Decimal.fromBigDecimal(decimal, type.getPrecision(), type.getScale());
        }
        if (value instanceof LocalDate date) {
            return Math.toIntExact(date.toEpochDay());
        }
        if (value instanceof LocalDateTime dateTime) {
            return Timestamp.fromLocalDateTime(dateTime);
        }
        return value;
    }

    /**
     * A literal as the {@code --where} grammar spells it: strings quoted, numbers, booleans,
     * dates and timestamps bare.
     */
    private static String whereLiteral(Object value)
    {
        if (value instanceof String text) {
            return "'" + text.replace("'", "''") + "'";
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        return value.toString();
    }

    record Compare(String column, Op op, Object value)
            implements FilterSpec
    {
        public Compare
        {
            requireNonNull(column, "column is null");
            requireNonNull(op, "op is null");
            requireNonNull(value, "value is null");
        }

        @Override
        public Predicate tarn(TableSchema schema)
        {
            FieldRef field = field(schema, column);
            Object value = tarnLiteral(schema, column, this.value);
            return switch (op) {
                case EQ -> Predicates.equal(field, value);
                case NE -> Predicates.notEqual(field, value);
                case LT -> Predicates.lessThan(field, value);
                case LE -> Predicates.lessOrEqual(field, value);
                case GT -> Predicates.greaterThan(field, value);
                case GE -> Predicates.greaterOrEqual(field, value);
            };
        }

        @Override
        public org.apache.paimon.predicate.Predicate paimon(RowType rowType)
        {
            PredicateBuilder builder = new PredicateBuilder(rowType);
            int index = index(rowType, column);
            Object literal = paimonLiteral(rowType, column, value);
            return switch (op) {
                case EQ -> builder.equal(index, literal);
                case NE -> builder.notEqual(index, literal);
                case LT -> builder.lessThan(index, literal);
                case LE -> builder.lessOrEqual(index, literal);
                case GT -> builder.greaterThan(index, literal);
                case GE -> builder.greaterOrEqual(index, literal);
            };
        }

        @Override
        public Optional<String> whereText()
        {
            String operator = switch (op) {
                case EQ -> "=";
                case NE -> "<>";
                case LT -> "<";
                case LE -> "<=";
                case GT -> ">";
                case GE -> ">=";
            };
            return Optional.of(column + " " + operator + " " + whereLiteral(value));
        }

        @Override
        public String toString()
        {
            return column + " " + op + " " + value;
        }
    }

    record In(String column, List<Object> values, boolean negated)
            implements FilterSpec
    {
        @Override
        public Predicate tarn(TableSchema schema)
        {
            List<Object> literals = values.stream().map(value -> tarnLiteral(schema, column, value)).toList();
            return negated ? Predicates.notIn(field(schema, column), literals) : Predicates.in(field(schema, column), literals);
        }

        @Override
        public org.apache.paimon.predicate.Predicate paimon(RowType rowType)
        {
            List<Object> literals = values.stream().map(value -> paimonLiteral(rowType, column, value)).toList();
            PredicateBuilder builder = new PredicateBuilder(rowType);
            return negated ? builder.notIn(index(rowType, column), literals) : builder.in(index(rowType, column), literals);
        }

        @Override
        public Optional<String> whereText()
        {
            String list = values.stream().map(FilterSpec::whereLiteral).collect(Collectors.joining(", "));
            return Optional.of(column + (negated ? " NOT IN (" : " IN (") + list + ")");
        }

        @Override
        public String toString()
        {
            return column + (negated ? " NOT IN " : " IN ") + values;
        }
    }

    record IsNull(String column, boolean negated)
            implements FilterSpec
    {
        @Override
        public Predicate tarn(TableSchema schema)
        {
            return negated ? Predicates.isNotNull(field(schema, column)) : Predicates.isNull(field(schema, column));
        }

        @Override
        public org.apache.paimon.predicate.Predicate paimon(RowType rowType)
        {
            PredicateBuilder builder = new PredicateBuilder(rowType);
            return negated ? builder.isNotNull(index(rowType, column)) : builder.isNull(index(rowType, column));
        }

        @Override
        public Optional<String> whereText()
        {
            return Optional.of(toString());
        }

        @Override
        public String toString()
        {
            return column + (negated ? " IS NOT NULL" : " IS NULL");
        }
    }

    record Junction(boolean conjunction, List<FilterSpec> children)
            implements FilterSpec
    {
        @Override
        public Predicate tarn(TableSchema schema)
        {
            List<Predicate> predicates = children.stream().map(child -> child.tarn(schema)).toList();
            return conjunction ? Predicates.and(predicates) : Predicates.or(predicates);
        }

        @Override
        public org.apache.paimon.predicate.Predicate paimon(RowType rowType)
        {
            List<org.apache.paimon.predicate.Predicate> predicates = children.stream().map(child -> child.paimon(rowType)).toList();
            return conjunction ? PredicateBuilder.and(predicates) : PredicateBuilder.or(predicates);
        }

        @Override
        public Optional<String> whereText()
        {
            List<Optional<String>> texts = children.stream().map(FilterSpec::whereText).toList();
            if (!conjunction || texts.stream().anyMatch(Optional::isEmpty)) {
                return Optional.empty();
            }
            return Optional.of(texts.stream().map(Optional::get).collect(Collectors.joining(" AND ")));
        }

        @Override
        public String toString()
        {
            return "(" + String.join(conjunction ? " AND " : " OR ", children.stream().map(Object::toString).toList()) + ")";
        }
    }
}
