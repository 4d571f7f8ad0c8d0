package io.tarn.vector.orc;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataType;
import io.tarn.vector.CorruptDataException;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Rules out row groups by the Bloom filters of ORC's {@code BLOOM_FILTER_UTF8} streams: a group
 * is left out when an equality or IN leaf that the filter needs to be TRUE has none of its values
 * in the group's Bloom filter. AND needs every child, OR some child; NOT, ranges, IS [NOT] NULL,
 * starts_with and every other leaf may match.
 * <p>
 * Only files of ORC's Java writer are trusted (old C++ writers wrote filters that disagree with
 * the Java hashing), only the {@code BLOOM_FILTER_UTF8} stream is read (the legacy
 * {@code BLOOM_FILTER} stream hashed strings in the writer's default charset before HIVE-12055)
 * and only columns whose ORC type is exactly the filter's and whose hashing is checked against
 * ORC's writer: TINYINT, SMALLINT, INT, BIGINT and DATE (the value as a long), FLOAT and DOUBLE
 * (the bits of the value widened to a double; -0.0 and 0.0 hash apart, so both are probed), and
 * STRING / VARCHAR (the UTF-8 bytes). DECIMAL (hashed as ORC's normalized text), TIMESTAMP
 * (milliseconds adjusted by the writer's zone), TIME, BOOLEAN, CHAR and BINARY columns are read.
 */
final class BloomFilterPruner
{
    // the chance that n present-or-not values all miss a group's filter falls as (1 - fpp)^n:
    // beyond this many, probing costs more than it can skip
    private static final int MAX_IN_VALUES = 1000;

    private enum Hashing
    {
        INTEGER, FLOATING, UTF8
    }

    private final Predicate filter;
    // by field id: the ORC column of each equality or IN column whose hashing is known
    private final Map<Integer, Integer> columns = new HashMap<>();
    private final Map<Integer, Hashing> hashings = new HashMap<>();
    // by leaf: the hashes of its values, null where a value cannot be hashed as the writer did
    private final Map<Predicate, long[]> probes = new IdentityHashMap<>();

    /**
     * @param candidates by field id, the top-level ORC column of each filter column whose file
     * type is the filter's type
     */
    BloomFilterPruner(OrcTail tail, Predicate filter, Map<Integer, Integer> candidates)
    {
        requireNonNull(tail, "tail is null");
        this.filter = requireNonNull(filter, "filter is null");
        requireNonNull(candidates, "candidates is null");
        if (tail.footer().writer() == OrcPruner.JAVA_WRITER) {
            collect(filter, tail.footer().types(), candidates);
        }
    }

    private void collect(Predicate predicate, List<OrcType> types, Map<Integer, Integer> candidates)
    {
        FieldRef field = null;
        if (predicate instanceof Predicate.Comparison comparison && comparison.op() == Predicate.Comparison.Operator.EQUAL) {
            field = comparison.field();
        }
        else if (predicate instanceof Predicate.In in) {
            field = in.field();
        }
        else if (predicate instanceof Predicate.And and) {
            and.children().forEach(child -> collect(child, types, candidates));
        }
        else if (predicate instanceof Predicate.Or or) {
            or.children().forEach(child -> collect(child, types, candidates));
        }
        if (field == null) {
            return;
        }
        Integer column = candidates.get(field.fieldId());
        if (column == null || column < 0 || column >= types.size()) {
            return;
        }
        Hashing hashing = hashing(field.type(), types.get(column).kind());
        if (hashing != null) {
            columns.put(field.fieldId(), column);
            hashings.put(field.fieldId(), hashing);
        }
    }

    private static Hashing hashing(DataType type, OrcType.Kind kind)
    {
        return switch (type.root()) {
            case TINYINT -> kind == OrcType.Kind.BYTE ? Hashing.INTEGER : null;
            case SMALLINT -> kind == OrcType.Kind.SHORT ? Hashing.INTEGER : null;
            case INT -> kind == OrcType.Kind.INT ? Hashing.INTEGER : null;
            case BIGINT -> kind == OrcType.Kind.LONG ? Hashing.INTEGER : null;
            case DATE -> kind == OrcType.Kind.DATE ? Hashing.INTEGER : null;
            case FLOAT -> kind == OrcType.Kind.FLOAT ? Hashing.FLOATING : null;
            case DOUBLE -> kind == OrcType.Kind.DOUBLE ? Hashing.FLOATING : null;
            case VARCHAR -> kind == OrcType.Kind.STRING || kind == OrcType.Kind.VARCHAR ? Hashing.UTF8 : null;
            default -> null;
        };
    }

    /**
     * The ORC columns whose Bloom filter streams {@link #read} uses.
     */
    Set<Integer> columns()
    {
        return Set.copyOf(columns.values());
    }

    /**
     * The Bloom filters of a stripe's columns, by ORC column: a column whose stream is missing,
     * does not parse, holds a filter this reader cannot use or another number of filters than
     * the stripe has row groups is left out, and its leaves may match.
     */
    StripeFilters read(StripeStreams streams, long groups)
    {
        Map<Integer, List<OrcBloomFilter>> filters = new HashMap<>();
        for (int column : columns.values()) {
            DecompressedStream stream = streams.stream(column, StripeFooter.Stream.BLOOM_FILTER_UTF8);
            if (stream == null) {
                continue;
            }
            try {
                byte[] bytes = stream.readAll(1 << 28);
                Optional<List<OrcBloomFilter>> index = OrcBloomFilter.parseIndex(new ProtobufReader(bytes, 0, bytes.length));
                if (index.isPresent() && index.get().size() == groups) {
                    filters.put(column, index.get());
                }
            }
            catch (CorruptDataException e) {
                // a stream that does not parse skips nothing; the data is checked when read
            }
        }
        return new StripeFilters(filters);
    }

    /**
     * The Bloom filters of one stripe.
     */
    final class StripeFilters
    {
        private final Map<Integer, List<OrcBloomFilter>> filters;

        private StripeFilters(Map<Integer, List<OrcBloomFilter>> filters)
        {
            this.filters = filters;
        }

        boolean isEmpty()
        {
            return filters.isEmpty();
        }

        /**
         * False when the Bloom filters of row group {@code group} prove that no row satisfies
         * the filter.
         */
        boolean mightMatch(int group)
        {
            return filters.isEmpty() || mightMatch(filter, group);
        }

        private boolean mightMatch(Predicate predicate, int group)
        {
            if (predicate instanceof Predicate.And and) {
                return and.children().stream().allMatch(child -> mightMatch(child, group));
            }
            if (predicate instanceof Predicate.Or or) {
                return or.children().stream().anyMatch(child -> mightMatch(child, group));
            }
            FieldRef field;
            if (predicate instanceof Predicate.Comparison comparison && comparison.op() == Predicate.Comparison.Operator.EQUAL) {
                field = comparison.field();
            }
            else if (predicate instanceof Predicate.In in) {
                field = in.field();
            }
            else {
                return true;
            }
            Integer column = columns.get(field.fieldId());
            List<OrcBloomFilter> columnFilters = column == null ? null : filters.get(column);
            if (columnFilters == null) {
                return true;
            }
            long[] hashes = probes.computeIfAbsent(predicate, leaf -> hashes(leaf, hashings.get(field.fieldId())));
            if (hashes == null) {
                return true;
            }
            OrcBloomFilter bloomFilter = columnFilters.get(group);
            for (long hash : hashes) {
                if (bloomFilter.mightContain(hash)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static long[] hashes(Predicate leaf, Hashing hashing)
    {
        List<Object> values;
        if (leaf instanceof Predicate.Comparison comparison) {
            values = List.of(comparison.literal());
        }
        else {
            values = ((Predicate.In) leaf).literals();
            if (values.size() > MAX_IN_VALUES) {
                return null;
            }
        }
        long[] hashes = new long[values.size() * 2];
        int count = 0;
        for (Object value : values) {
            if (value == null) {
                return null;
            }
            switch (hashing) {
                case INTEGER -> hashes[count++] = BloomFilterHash.integer(((Number) value).longValue());
                case FLOATING -> {
                    double number = ((Number) value).doubleValue();
                    if (number == 0) {
                        // -0.0 = 0.0, but the writer hashed the bits of whichever it stored
                        hashes[count++] = BloomFilterHash.floating(0.0);
                        hashes[count++] = BloomFilterHash.floating(-0.0);
                    }
                    else {
                        hashes[count++] = BloomFilterHash.floating(number);
                    }
                }
                case UTF8 -> {
                    byte[] bytes = strictUtf8((String) value);
                    if (bytes == null) {
                        return null;
                    }
                    hashes[count++] = BloomFilterHash.bytes(bytes);
                }
            }
        }
        return Arrays.copyOf(hashes, count);
    }

    /**
     * The UTF-8 bytes of {@code value}, or null when it has an unpaired surrogate, which has no
     * UTF-8 form that the stored bytes could equal.
     */
    private static byte[] strictUtf8(String value)
    {
        try {
            ByteBuffer buffer = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(value));
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        }
        catch (CharacterCodingException e) {
            return null;
        }
    }
}
