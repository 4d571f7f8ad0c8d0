package io.tarn.vector.orc;

import io.tarn.index.predicate.ColumnStats;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.StatsEvaluator;
import io.tarn.index.predicate.StatsProvider;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;
import io.tarn.types.ValueComparator;
import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileCorruptionException;
import org.roaringbitmap.RoaringBitmap;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.zone.ZoneRules;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TimeZone;

import static java.util.Objects.requireNonNull;

/**
 * Skips the stripes, then the row groups of a stripe, whose ORC statistics prove that no row
 * satisfies the filter, through the shared {@link StatsEvaluator}. Only top-level columns of
 * primitive types prune, and only where the file column was written as exactly the filter's type.
 * <p>
 * Statistics are offered only where they are bounds of what this reader returns:
 * <ul>
 * <li>integers, dates and times as stored; booleans from the count of trues;</li>
 * <li>floating point only when the sum is a number: ORC's writer leaves NaN out of minimum and
 * maximum, or keeps NaN bounds when the first value was NaN, and its sum is NaN either way;</li>
 * <li>strings from the lower and upper bounds of writers that truncate long values (ORC-203),
 * else minimum and maximum, decoded strictly as UTF-8; not for CHAR, whose stored values are
 * padded while the reader returns them trimmed;</li>
 * <li>decimals unless written by ORC 1.5.0 to 1.5.5 (ORC-517 broke their 64-bit decimal bounds);</li>
 * <li>timestamps only from writers with ORC-135 (bounds kept in UTC), widened by a millisecond on
 * each side, and none that reach back to the Julian calendar; instants of Paimon's legacy TIMESTAMP_LTZ layout, which the reader moves by the
 * writer's zone offset, by the most any zone is off UTC unless the zone is known to be UTC;</li>
 * <li>row counts and null counts only when they are consistent with the rows.</li>
 * </ul>
 * Statistics that cannot be parsed are not used: the stripe or group is read. Row groups that
 * statistics keep are then tested against the Bloom filters ({@link BloomFilterPruner}).
 */
final class OrcPruner
{
    // ORC's WriterVersion ids of the Java writer (writer code 0)
    private static final int HIVE_8732 = 1;
    private static final int ORC_135 = 6;
    static final int JAVA_WRITER = 0;
    // no zone is more than 18 hours off UTC
    private static final long MAX_ZONE_OFFSET_MILLIS = 18 * 3600_000L;
    // a day after the Gregorian cutover (1582-10-15): bounds below it may be Julian wall clocks
    private static final long JULIAN_BOUNDS_LIMIT_MILLIS = -12_219_206_400_000L;

    private final OrcTail tail;
    private final Predicate filter;
    private final boolean legacyInstants;
    // by field id: the top-level ORC column of each filter column that may prune
    private final Map<Integer, Integer> columns = new HashMap<>();
    private final BloomFilterPruner bloomFilters;
    private List<List<ColumnStatistics>> stripeStatistics;
    private long rowGroupsSkippedByBloomFilter;

    OrcPruner(OrcTail tail, OrcSchemaBinding binding, Predicate filter, Optional<List<DataField>> fileFields, boolean legacyInstants)
            throws DataFileCorruptionException
    {
        this.tail = requireNonNull(tail, "tail is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.legacyInstants = legacyInstants;
        Map<Integer, DataType> fileTypes = new HashMap<>();
        fileFields.ifPresent(fields -> fields.forEach(field -> fileTypes.put(field.id(), field.type())));
        for (FieldRef field : fieldRefs(filter)) {
            if (!(field.type() instanceof AtomicType)) {
                continue;
            }
            DataType fileType = fileTypes.get(field.fieldId());
            if (fileFields.isPresent() && (fileType == null || !sameType(fileType, field.type()))) {
                // a type change since the file was written: its statistics are of another type
                continue;
            }
            OptionalInt column = binding.topLevelColumn(new DataField(field.fieldId(), field.name(), field.type()));
            if (column.isPresent()) {
                columns.put(field.fieldId(), column.getAsInt());
            }
        }
        this.bloomFilters = new BloomFilterPruner(tail, filter, columns);
    }

    private static boolean sameType(DataType left, DataType right)
    {
        return left.withNullable(true).equals(right.withNullable(true));
    }

    private static Set<FieldRef> fieldRefs(Predicate predicate)
    {
        Set<FieldRef> refs = new HashSet<>();
        collect(predicate, refs);
        return refs;
    }

    private static void collect(Predicate predicate, Set<FieldRef> refs)
    {
        if (predicate instanceof Predicate.Comparison comparison) {
            refs.add(comparison.field());
        }
        else if (predicate instanceof Predicate.In in) {
            refs.add(in.field());
        }
        else if (predicate instanceof Predicate.InRanges inRanges) {
            refs.add(inRanges.field());
        }
        else if (predicate instanceof Predicate.IsNull isNull) {
            refs.add(isNull.field());
        }
        else if (predicate instanceof Predicate.IsNotNull isNotNull) {
            refs.add(isNotNull.field());
        }
        else if (predicate instanceof Predicate.StartsWith startsWith) {
            refs.add(startsWith.field());
        }
        else if (predicate instanceof Predicate.And and) {
            and.children().forEach(child -> collect(child, refs));
        }
        else if (predicate instanceof Predicate.Or or) {
            or.children().forEach(child -> collect(child, refs));
        }
        else if (predicate instanceof Predicate.Not not) {
            collect(not.predicate(), refs);
        }
    }

    /**
     * The ORC columns whose row indexes {@link #keptRows} reads.
     */
    Set<Integer> indexColumns()
    {
        return Set.copyOf(columns.values());
    }

    /**
     * The ORC columns whose Bloom filter streams {@link #keptRows} reads.
     */
    Set<Integer> bloomFilterColumns()
    {
        return bloomFilters.columns();
    }

    /**
     * The row groups that statistics kept but Bloom filters left out, over all stripes so far.
     */
    long rowGroupsSkippedByBloomFilter()
    {
        return rowGroupsSkippedByBloomFilter;
    }

    /**
     * False when the stripe's statistics prove that none of its rows matches.
     */
    boolean stripeMightMatch(int stripe, long rows, OrcCodec codec)
    {
        if (stripeStatistics == null) {
            try {
                stripeStatistics = tail.stripeStatistics(codec);
            }
            catch (CorruptDataException e) {
                // statistics that do not parse prune nothing; the data is checked when read
                stripeStatistics = List.of();
            }
        }
        if (stripeStatistics.size() != tail.footer().stripes().size()) {
            return true;
        }
        List<ColumnStatistics> statistics = stripeStatistics.get(stripe);
        return StatsEvaluator.mightMatch(filter, new Stats(column -> column < statistics.size() ? statistics.get(column) : null, rows, Optional.empty()));
    }

    /**
     * The rows of the stripe (stripe positions) in row groups whose statistics and Bloom filters
     * do not rule out a match, or empty when every group may match (or the indexes cannot tell).
     * Groups without a row of {@code selection} (stripe positions; null for all rows) are left
     * out unexamined, so that a read of rows a filter pass selected counts no Bloom filter skips
     * the filter pass counted.
     */
    Optional<RoaringBitmap> keptRows(StripeStreams streams, long stripeRows, int stride, RoaringBitmap selection)
    {
        long groups = (stripeRows + stride - 1) / stride;
        Map<Integer, List<RowIndexEntry>> indexes = new HashMap<>();
        for (int column : columns.values()) {
            Optional<List<RowIndexEntry>> entries = RowIndexes.parse(streams, column);
            // an index that does not parse prunes nothing
            if (entries.isPresent() && entries.get().size() == groups) {
                indexes.put(column, entries.get());
            }
        }
        BloomFilterPruner.StripeFilters stripeFilters = bloomFilters.read(streams, groups);
        if (indexes.isEmpty() && stripeFilters.isEmpty()) {
            return Optional.empty();
        }
        RoaringBitmap kept = new RoaringBitmap();
        boolean all = true;
        for (int group = 0; group < groups; group++) {
            long start = (long) group * stride;
            long rows = Math.min(stride, stripeRows - start);
            if (selection != null && !selection.intersects(start, start + rows)) {
                all = false;
                continue;
            }
            int index = group;
            Stats stats = new Stats(column -> {
                List<RowIndexEntry> entries = indexes.get(column);
                return entries == null ? null : entries.get(index).statistics();
            }, rows, Optional.of(streams.writerTimeZone()));
            if (!StatsEvaluator.mightMatch(filter, stats)) {
                all = false;
            }
            else if (!stripeFilters.mightMatch(group)) {
                rowGroupsSkippedByBloomFilter++;
                all = false;
            }
            else {
                kept.add(start, start + rows);
            }
        }
        return all ? Optional.empty() : Optional.of(kept);
    }

    private interface StatisticsSource
    {
        ColumnStatistics statistics(int column);
    }

    /**
     * The statistics of a stripe or row group as {@link StatsEvaluator} takes them.
     */
    private final class Stats
            implements StatsProvider
    {
        private final StatisticsSource source;
        private final long rows;
        // the writer's zone, when known (row groups: from the stripe footer)
        private final Optional<TimeZone> writerZone;

        Stats(StatisticsSource source, long rows, Optional<TimeZone> writerZone)
        {
            this.source = source;
            this.rows = rows;
            this.writerZone = writerZone;
        }

        @Override
        public OptionalLong rowCount()
        {
            return OptionalLong.of(rows);
        }

        @Override
        public Optional<ColumnStats> columnStats(FieldRef field)
        {
            Integer column = columns.get(field.fieldId());
            if (column == null) {
                return Optional.empty();
            }
            ColumnStatistics statistics = source.statistics(column);
            if (statistics == null) {
                return Optional.empty();
            }
            return Optional.of(convert(statistics, tail.footer().types().get(column), (AtomicType) field.type()));
        }

        private ColumnStats convert(ColumnStatistics statistics, OrcType type, AtomicType requested)
        {
            long values = statistics.numberOfValues();
            if (values < 0 || values > rows || (Boolean.FALSE.equals(statistics.hasNull()) && values != rows)) {
                return ColumnStats.unknown(rows);
            }
            Long nulls = rows - values;
            if (values == 0) {
                return new ColumnStats(null, null, nulls, rows);
            }
            Object[] bounds = bounds(statistics, type, requested, values);
            if (bounds != null && ValueComparator.compare(requested, bounds[0], bounds[1]) > 0) {
                // bounds that contradict each other bound nothing
                bounds = null;
            }
            return new ColumnStats(bounds == null ? null : bounds[0], bounds == null ? null : bounds[1], nulls, rows);
        }

        private Object[] bounds(ColumnStatistics statistics, OrcType type, AtomicType requested, long values)
        {
            int writerVersion = tail.postScript().writerVersion();
            boolean javaWriter = tail.footer().writer() == JAVA_WRITER;
            OrcType.Kind kind = type.kind();
            switch (requested.root()) {
                case BOOLEAN -> {
                    if (kind == OrcType.Kind.BOOLEAN && statistics.trueCount() != null && statistics.trueCount() >= 0 && statistics.trueCount() <= values) {
                        long trues = statistics.trueCount();
                        return new Object[] {trues == values, trues > 0};
                    }
                }
                case TINYINT -> {
                    return kind == OrcType.Kind.BYTE ? integers(statistics, Byte.MIN_VALUE, Byte.MAX_VALUE, value -> (byte) value) : null;
                }
                case SMALLINT -> {
                    return kind == OrcType.Kind.SHORT ? integers(statistics, Short.MIN_VALUE, Short.MAX_VALUE, value -> (short) value) : null;
                }
                case INT, TIME -> {
                    return kind == OrcType.Kind.INT ? integers(statistics, Integer.MIN_VALUE, Integer.MAX_VALUE, value -> (int) value) : null;
                }
                case BIGINT -> {
                    return kind == OrcType.Kind.LONG ? integers(statistics, Long.MIN_VALUE, Long.MAX_VALUE, value -> value) : null;
                }
                case DATE -> {
                    if (kind == OrcType.Kind.DATE && statistics.dateMinimum() != null && statistics.dateMaximum() != null) {
                        return new Object[] {statistics.dateMinimum(), statistics.dateMaximum()};
                    }
                }
                case FLOAT, DOUBLE -> {
                    boolean single = requested.root() == TypeRoot.FLOAT;
                    if (kind == (single ? OrcType.Kind.FLOAT : OrcType.Kind.DOUBLE) && statistics.doubleMinimum() != null && statistics.doubleMaximum() != null
                            && statistics.doubleSum() != null && !statistics.doubleSum().isNaN()) {
                        double min = statistics.doubleMinimum();
                        double max = statistics.doubleMaximum();
                        return single ? new Object[] {(float) min, (float) max} : new Object[] {min, max};
                    }
                }
                case DECIMAL -> {
                    boolean broken = javaWriter && (writerVersion < HIVE_8732 || (writerVersion == ORC_135 && type.precision() <= 18));
                    if (kind == OrcType.Kind.DECIMAL && !broken && statistics.decimalMinimum() != null && statistics.decimalMaximum() != null) {
                        try {
                            return new Object[] {new BigDecimal(statistics.decimalMinimum()), new BigDecimal(statistics.decimalMaximum())};
                        }
                        catch (NumberFormatException e) {
                            return null;
                        }
                    }
                }
                case VARCHAR -> {
                    boolean text = kind == OrcType.Kind.STRING || kind == OrcType.Kind.VARCHAR;
                    if (text && (!javaWriter || writerVersion >= HIVE_8732)) {
                        byte[] lower = statistics.stringLowerBound() != null ? statistics.stringLowerBound() : statistics.stringMinimum();
                        byte[] upper = statistics.stringUpperBound() != null ? statistics.stringUpperBound() : statistics.stringMaximum();
                        String min = utf8(lower);
                        String max = utf8(upper);
                        return min == null || max == null ? null : new Object[] {min, max};
                    }
                }
                case TIMESTAMP, TIMESTAMP_LTZ -> {
                    boolean known = !javaWriter || writerVersion >= ORC_135;
                    boolean layout = requested.root() == TypeRoot.TIMESTAMP ? kind == OrcType.Kind.TIMESTAMP : kind == OrcType.Kind.TIMESTAMP_INSTANT;
                    if (known && layout && statistics.timestampMinimumUtc() != null && statistics.timestampMaximumUtc() != null) {
                        long slack = 1;
                        if (kind == OrcType.Kind.TIMESTAMP_INSTANT && legacyInstants && !writerZoneIsUtc()) {
                            slack += MAX_ZONE_OFFSET_MILLIS;
                        }
                        long min = statistics.timestampMinimumUtc();
                        long max = statistics.timestampMaximumUtc();
                        if (min < Long.MIN_VALUE / 2 || max > Long.MAX_VALUE / 2) {
                            return null;
                        }
                        boolean wallClock = kind == OrcType.Kind.TIMESTAMP || legacyInstants;
                        if (wallClock && tail.footer().calendar() != FileFooter.PROLEPTIC_GREGORIAN && min < JULIAN_BOUNDS_LIMIT_MILLIS) {
                            // Julian wall clocks, which the reader moves to the Gregorian calendar by up to weeks
                            return null;
                        }
                        // the bounds are whole milliseconds: the values go up to the next one
                        return new Object[] {Timestamp.ofMillis(min - slack), new Timestamp(max + slack, 999_999)};
                    }
                }
                default -> {
                }
            }
            return null;
        }

        private boolean writerZoneIsUtc()
        {
            if (writerZone.isEmpty()) {
                return false;
            }
            ZoneRules rules = writerZone.get().toZoneId().getRules();
            return rules.isFixedOffset() && rules.getOffset(Instant.EPOCH).getTotalSeconds() == 0;
        }
    }

    private interface IntegerValue
    {
        Object of(long value);
    }

    private static Object[] integers(ColumnStatistics statistics, long low, long high, IntegerValue value)
    {
        Long min = statistics.integerMinimum();
        Long max = statistics.integerMaximum();
        if (min == null || max == null || min < low || max > high || min > max) {
            return null;
        }
        return new Object[] {value.of(min), value.of(max)};
    }

    private static String utf8(byte[] bytes)
    {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        }
        catch (CharacterCodingException e) {
            return null;
        }
    }
}
