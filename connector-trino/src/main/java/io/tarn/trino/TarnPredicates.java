package io.tarn.trino;

import io.airlift.slice.Slice;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.index.predicate.ValueRange;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestamp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns Trino's {@link TupleDomain}s into Tarn predicates over field ids. Only columns whose
 * values convert exactly are translated ({@link #isPushable}); the others are left out, which
 * only weakens the predicate, so skipping stays correct.
 */
final class TarnPredicates
{
    private TarnPredicates() {}

    /**
     * Whether a domain on this column translates exactly into a Tarn predicate.
     */
    static boolean isPushable(TarnColumnHandle column, DataType type)
    {
        if (!column.isBase() || column.isCount()) {
            return false;
        }
        return switch (type.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, VARCHAR, BINARY, VARBINARY, DATE, TIMESTAMP -> true;
            default -> false;
        };
    }

    /**
     * The conjunction of the domains on columns of {@code fields}; columns that are not pushable
     * or not in the schema are ignored. An empty result means no predicate.
     */
    static Optional<Predicate> toPredicate(TupleDomain<TarnColumnHandle> tupleDomain, List<DataField> fields)
    {
        if (tupleDomain.isNone()) {
            return Optional.of(Predicates.alwaysFalse());
        }
        Map<TarnColumnHandle, Domain> domains = tupleDomain.getDomains().orElseThrow();
        List<Predicate> conjuncts = new ArrayList<>();
        for (Map.Entry<TarnColumnHandle, Domain> entry : domains.entrySet()) {
            TarnColumnHandle column = entry.getKey();
            Optional<DataField> field = fields.stream().filter(candidate -> candidate.id() == column.fieldId()).findFirst();
            if (field.isEmpty() || !isPushable(column, field.get().type())) {
                continue;
            }
            conjuncts.add(toPredicate(entry.getValue(), FieldRef.of(field.get())));
        }
        if (conjuncts.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Predicates.and(conjuncts));
    }

    private static Predicate toPredicate(Domain domain, FieldRef field)
    {
        if (domain.isNone()) {
            return Predicates.alwaysFalse();
        }
        if (domain.isAll()) {
            return Predicates.alwaysTrue();
        }
        if (domain.isOnlyNull()) {
            return Predicates.isNull(field);
        }
        ValueSet values = domain.getValues();
        Predicate valuePredicate;
        if (values.isAll()) {
            valuePredicate = Predicates.isNotNull(field);
        }
        else if (values.isDiscreteSet()) {
            List<Object> literals = new ArrayList<>();
            for (Object value : values.getDiscreteSet()) {
                literals.add(toInternal(value, field.type()));
            }
            valuePredicate = literals.size() == 1 ? Predicates.equal(field, literals.get(0)) : Predicates.in(field, literals);
        }
        else if (values.complement().isDiscreteSet() && type(field) != TypeRoot.FLOAT && type(field) != TypeRoot.DOUBLE) {
            // x <> 'N' reaches the connector as the ranges below and above 'N': as a <> (or a
            // NOT IN) it is an equality test, which the reader answers once per dictionary value
            // or in the encoded pages. Not for REAL and DOUBLE, where NaN lies in no range but
            // satisfies <>.
            List<Object> literals = new ArrayList<>();
            for (Object value : values.complement().getDiscreteSet()) {
                literals.add(toInternal(value, field.type()));
            }
            valuePredicate = literals.size() == 1 ? Predicates.notEqual(field, literals.get(0)) : Predicates.notIn(field, literals);
        }
        else {
            // one leaf tested by binary search, not an OR of every range: a join's dynamic filter
            // may hold 10^5 ranges, and an OR costs all of them per row and per statistics unit
            List<ValueRange> ranges = new ArrayList<>();
            for (Range range : values.getRanges().getOrderedRanges()) {
                ranges.add(toRange(range, field));
            }
            valuePredicate = Predicates.inRanges(field, ranges);
        }
        return domain.isNullAllowed() ? Predicates.or(valuePredicate, Predicates.isNull(field)) : valuePredicate;
    }

    private static TypeRoot type(FieldRef field)
    {
        return field.type().root();
    }

    private static ValueRange toRange(Range range, FieldRef field)
    {
        Object low = range.isLowUnbounded() ? null : toInternal(range.getLowBoundedValue(), field.type());
        Object high = range.isHighUnbounded() ? null : toInternal(range.getHighBoundedValue(), field.type());
        return ValueRange.of(low, !range.isLowUnbounded() && range.isLowInclusive(), high, !range.isHighUnbounded() && range.isHighInclusive());
    }

    /**
     * A Trino stack value (long, double, boolean, Slice, Int128, LongTimestamp) as the internal
     * Java value of the Paimon type.
     */
    static Object toInternal(Object value, DataType type)
    {
        return switch (type.root()) {
            case BOOLEAN -> (Boolean) value;
            case TINYINT -> (byte) (long) (Long) value;
            case SMALLINT -> (short) (long) (Long) value;
            case INT -> (int) (long) (Long) value;
            case BIGINT -> (Long) value;
            case FLOAT -> Float.intBitsToFloat((int) (long) (Long) value);
            case DOUBLE -> (Double) value;
            case DECIMAL -> {
                AtomicType decimal = (AtomicType) type;
                BigInteger unscaled = value instanceof Int128 int128 ? int128.toBigInteger() : BigInteger.valueOf((Long) value);
                yield new BigDecimal(unscaled, decimal.scale());
            }
            case CHAR, VARCHAR -> ((Slice) value).toStringUtf8();
            case BINARY, VARBINARY -> ((Slice) value).getBytes();
            case DATE -> (int) (long) (Long) value;
            case TIMESTAMP -> {
                if (value instanceof LongTimestamp timestamp) {
                    long micros = timestamp.getEpochMicros();
                    long millis = Math.floorDiv(micros, 1000);
                    int nanos = (int) (Math.floorMod(micros, 1000) * 1000 + timestamp.getPicosOfMicro() / 1000);
                    yield new Timestamp(millis, nanos);
                }
                yield Timestamp.ofMicros((Long) value);
            }
            default -> throw new IllegalArgumentException("Cannot push down a value of type " + type);
        };
    }

    static BigDecimal decimal(Object value, DecimalType type)
    {
        if (type.isShort()) {
            return new BigDecimal(BigInteger.valueOf((Long) value), type.getScale());
        }
        return new BigDecimal(((Int128) value).toBigInteger(), type.getScale());
    }
}
