package io.tarn.vector.filter;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.AlwaysTrue;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.index.predicate.SqlComparison;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.TransferPair;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.IdentityHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Applies a residual {@link Predicate} to an Arrow batch column by column.
 *
 * <p>Each node of the predicate yields two bitmaps over the batch's rows: the rows where it is
 * TRUE and the rows where it is FALSE; a row in neither is unknown (SQL NULL). AND, OR and NOT
 * combine the bitmaps under Kleene logic, so the result equals {@link RowEvaluator#test} row by
 * row. FLOAT / DOUBLE compare as SQL does ({@link SqlComparison}: -0.0 = 0.0, NaN unordered).
 * Comparisons, IN and starts_with on integer, date, time, timestamp, floating-point, string
 * and binary columns, IN RANGES on integer, date, time and floating-point columns, and
 * comparisons on decimals of up to 18 digits, read the Arrow buffers directly with the literal in
 * the vector's own representation; other cases (BOOLEAN, wider DECIMAL, IN on decimals, IN RANGES
 * on strings, decimals and timestamps) go through {@link ArrowValues} and {@link RowEvaluator}
 * row by row. IN and IN RANGES cost one binary search (or hash probe) per row, whatever the
 * number of literals or ranges ({@link FilterProbes} counts that work).
 *
 * <p>Strings are compared by their UTF-8 bytes, which is code-point order for well-formed UTF-8
 * (all that Paimon writes); a literal that is not well-formed UTF-16 (a lone surrogate) is
 * evaluated on decoded strings instead, as {@link io.tarn.types.ValueComparator} does.
 */
public final class BatchFilter
{
    private static final int MAX_LONG_DECIMAL_PRECISION = 18;

    private BatchFilter() {}

    /**
     * The ascending indexes of the rows of {@code root} for which {@code predicate} is TRUE.
     *
     * @param columns the column index in {@code root} of each field id that the predicate reads;
     * the vector there must be laid out as {@link io.tarn.vector.ArrowTypes} maps the field's type
     * @throws IllegalArgumentException if a field id has no column or a vector does not match its
     * field's type
     */
    public static int[] selectedRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns)
    {
        return selectedRows(predicate, root, columns, Map.of());
    }

    /**
     * {@link #selectedRows(Predicate, VectorSchemaRoot, Map)} where the leaves of
     * {@code predicate} that are keys of {@code matchedLeaves} (the same objects: looked up by
     * identity) take their verdicts from those matches instead of from their columns, which the
     * batch then need not hold.
     */
    public static int[] selectedRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns, Map<Predicate, LeafMatches> matchedLeaves)
    {
        return selectedRows(predicate, root, columns, matchedLeaves, new FilterProbes());
    }

    /**
     * {@link #selectedRows(Predicate, VectorSchemaRoot, Map, Map)} that adds the work of the
     * evaluation to {@code probes}.
     */
    public static int[] selectedRows(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns, Map<Predicate, LeafMatches> matchedLeaves, FilterProbes probes)
    {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(root, "root is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(matchedLeaves, "matchedLeaves is null");
        requireNonNull(probes, "probes is null");
        Truth truth = evaluate(predicate, new Batch(root, columns, matchedLeaves.isEmpty() ? Map.of() : new IdentityHashMap<>(matchedLeaves), probes), root.getRowCount());
        return truth.trueRows();
    }

    private record Batch(VectorSchemaRoot root, Map<Integer, Integer> columns, Map<Predicate, LeafMatches> matchedLeaves, FilterProbes probes) {}

    /**
     * Keeps only the {@code selected} rows of {@code root}, in place: every vector is rebuilt with
     * those rows (in its own allocator) and replaces its old buffers, and the row count becomes
     * {@code selected.length}. The root and its memory stay the caller's.
     *
     * @param selected strictly ascending row indexes of {@code root}
     */
    public static void compact(VectorSchemaRoot root, int[] selected)
    {
        requireNonNull(root, "root is null");
        checkSelection(selected, root.getRowCount());
        if (selected.length == root.getRowCount()) {
            // strictly ascending and in range: every row is selected
            return;
        }
        for (FieldVector vector : root.getFieldVectors()) {
            try (FieldVector compacted = copyRows(vector, selected, vector.getAllocator())) {
                TransferPair transfer = compacted.makeTransferPair(vector);
                transfer.transfer();
            }
        }
        root.setRowCount(selected.length);
    }

    /**
     * A new root holding copies of the {@code selected} rows of {@code root}, allocated from
     * {@code allocator}. The new root belongs to the caller, who must close it; {@code root} is
     * unchanged.
     *
     * @param selected strictly ascending row indexes of {@code root}
     */
    public static VectorSchemaRoot select(VectorSchemaRoot root, int[] selected, BufferAllocator allocator)
    {
        requireNonNull(root, "root is null");
        requireNonNull(allocator, "allocator is null");
        checkSelection(selected, root.getRowCount());
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (FieldVector vector : root.getFieldVectors()) {
                vectors.add(copyRows(vector, selected, allocator));
            }
        }
        catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot result = new VectorSchemaRoot(root.getSchema().getFields(), vectors, selected.length);
        result.setRowCount(selected.length);
        return result;
    }

    private static void checkSelection(int[] selected, int rowCount)
    {
        requireNonNull(selected, "selected is null");
        int previous = -1;
        for (int row : selected) {
            if (row <= previous || row >= rowCount) {
                throw new IllegalArgumentException("Selected rows must be strictly ascending indexes below " + rowCount + ", but " + row + " follows " + previous);
            }
            previous = row;
        }
    }

    private static FieldVector copyRows(FieldVector source, int[] selected, BufferAllocator allocator)
    {
        FieldVector target = source.getField().createVector(allocator);
        try {
            target.setInitialCapacity(Math.max(selected.length, 1));
            target.allocateNew();
            for (int i = 0; i < selected.length; i++) {
                copyValue(source, selected[i], target, i);
            }
            target.setValueCount(selected.length);
            return target;
        }
        catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    // ListVector and StructVector copy through generic readers and writers that do not cover every
    // child type, so nested values are copied structurally and only leaves use copyFromSafe
    private static void copyValue(FieldVector source, int sourceRow, FieldVector target, int targetRow)
    {
        if (source instanceof ListVector list) {
            ListVector targetList = (ListVector) target;
            if (list.isNull(sourceRow)) {
                targetList.setNull(targetRow);
                return;
            }
            int start = list.getElementStartIndex(sourceRow);
            int end = list.getElementEndIndex(sourceRow);
            int offset = targetList.startNewValue(targetRow);
            for (int i = start; i < end; i++) {
                copyValue(list.getDataVector(), i, targetList.getDataVector(), offset + i - start);
            }
            targetList.endValue(targetRow, end - start);
            return;
        }
        if (source instanceof StructVector struct) {
            StructVector targetStruct = (StructVector) target;
            if (struct.isNull(sourceRow)) {
                targetStruct.setNull(targetRow);
                return;
            }
            targetStruct.setIndexDefined(targetRow);
            List<FieldVector> children = struct.getChildrenFromFields();
            List<FieldVector> targetChildren = targetStruct.getChildrenFromFields();
            for (int i = 0; i < children.size(); i++) {
                copyValue(children.get(i), sourceRow, targetChildren.get(i), targetRow);
            }
            return;
        }
        target.copyFromSafe(sourceRow, targetRow, source);
    }

    private static Truth evaluate(Predicate predicate, Batch batch, int rows)
    {
        VectorSchemaRoot root = batch.root();
        Map<Integer, Integer> columns = batch.columns();
        LeafMatches matches = batch.matchedLeaves().get(predicate);
        if (matches != null) {
            return matched(predicate, matches, rows);
        }
        if (predicate instanceof And and) {
            Truth result = null;
            // range tests of one column (x >= a AND x < b) become one pass over its values
            Map<FieldVector, IntegerRange> ranges = new IdentityHashMap<>();
            for (Predicate child : and.children()) {
                IntegerRange range = child instanceof Comparison comparison && !batch.matchedLeaves().containsKey(child)
                        ? integerRange(comparison, column(comparison.field(), root, columns))
                        : null;
                if (range != null && range.trueInside()) {
                    ranges.merge(range.vector(), range, IntegerRange::intersect);
                    continue;
                }
                Truth truth;
                if (range != null) {
                    // a <> of an integer column: its range is at hand already
                    batch.probes().add(rows);
                    truth = new Truth(rows);
                    range.test(rows, truth);
                }
                else {
                    truth = evaluate(child, batch, rows);
                }
                result = result == null ? truth : result.and(truth);
            }
            for (IntegerRange range : ranges.values()) {
                // one range test stands for the comparisons merged into it: count one per row and bound
                batch.probes().add(2L * rows);
                Truth truth = new Truth(rows);
                range.test(rows, truth);
                result = result == null ? truth : result.and(truth);
            }
            return result;
        }
        if (predicate instanceof Or or) {
            Truth result = null;
            for (Predicate child : or.children()) {
                Truth truth = evaluate(child, batch, rows);
                result = result == null ? truth : result.or(truth);
            }
            return result;
        }
        if (predicate instanceof Not not) {
            return evaluate(not.predicate(), batch, rows).not();
        }
        if (predicate instanceof AlwaysTrue) {
            return Truth.constant(rows, true);
        }
        if (predicate instanceof AlwaysFalse) {
            return Truth.constant(rows, false);
        }
        if (predicate instanceof IsNull isNull) {
            return nulls(column(isNull.field(), root, columns), rows, true);
        }
        if (predicate instanceof IsNotNull isNotNull) {
            return nulls(column(isNotNull.field(), root, columns), rows, false);
        }
        if (predicate instanceof Comparison comparison) {
            FieldVector vector = column(comparison.field(), root, columns);
            batch.probes().add(rows);
            Truth truth = new Truth(rows);
            if (!compare(comparison, vector, rows, truth)) {
                rowByRow(predicate, comparison.field(), vector, rows, truth);
            }
            return truth;
        }
        if (predicate instanceof In in) {
            FieldVector vector = column(in.field(), root, columns);
            Truth truth = new Truth(rows);
            if (!in(in, vector, rows, truth)) {
                rowByRow(predicate, in.field(), vector, rows, truth);
            }
            batch.probes().add((long) rows * (in.hasByteKeys() ? 1 : FilterProbes.binarySearchSteps(in.literals().size())));
            return truth;
        }
        if (predicate instanceof InRanges inRanges) {
            FieldVector vector = column(inRanges.field(), root, columns);
            Truth truth = new Truth(rows);
            if (!inRanges(inRanges, vector, rows, truth)) {
                rowByRow(predicate, inRanges.field(), vector, rows, truth);
            }
            // a range holds two bounds: finding the candidate, then testing its other bound
            batch.probes().add((long) rows * (FilterProbes.binarySearchSteps(inRanges.ranges().size()) + 1));
            return truth;
        }
        if (predicate instanceof StartsWith startsWith) {
            FieldVector vector = column(startsWith.field(), root, columns);
            batch.probes().add(rows);
            Truth truth = new Truth(rows);
            byte[] prefix = utf8(startsWith.prefix());
            if (prefix != null && vector instanceof BaseVariableWidthVector strings) {
                startsWith(strings, prefix, rows, truth);
            }
            else {
                rowByRow(predicate, startsWith.field(), vector, rows, truth);
            }
            return truth;
        }
        throw new IllegalArgumentException("Unknown predicate: " + predicate.getClass().getName());
    }

    /**
     * The verdicts of an equality leaf ({@code =}, {@code IN}: true where equal; {@code <>}: true
     * where valid and not equal) from its matches; null rows are unknown.
     */
    private static Truth matched(Predicate leaf, LeafMatches matches, int rows)
    {
        if (matches.rows() != rows) {
            throw new IllegalArgumentException("Matches of " + matches.rows() + " rows for a batch of " + rows + " rows");
        }
        boolean trueWhenEqual = !(leaf instanceof Comparison comparison && comparison.op() == Operator.NOT_EQUAL);
        Truth truth = new Truth(rows);
        long[] equal = matches.equal();
        long[] valid = matches.valid();
        for (int word = 0; word < Truth.words(rows); word++) {
            long equalBits = equal[word] & valid[word];
            long otherBits = ~equal[word] & valid[word];
            truth.assign(word, trueWhenEqual ? equalBits : otherBits, trueWhenEqual ? otherBits : equalBits);
        }
        return truth;
    }

    private static FieldVector column(FieldRef field, VectorSchemaRoot root, Map<Integer, Integer> columns)
    {
        Integer index = columns.get(field.fieldId());
        if (index == null) {
            throw new IllegalArgumentException("Column " + field.name() + " (field id " + field.fieldId() + ") of the filter is not in the batch");
        }
        if (index < 0 || index >= root.getFieldVectors().size()) {
            throw new IllegalArgumentException("Column index " + index + " of field " + field.name() + " is outside the batch's " + root.getFieldVectors().size() + " columns");
        }
        FieldVector vector = root.getVector(index);
        if (vector.getValueCount() < root.getRowCount()) {
            throw new IllegalArgumentException("Column " + field.name() + " has " + vector.getValueCount() + " values but the batch has " + root.getRowCount() + " rows");
        }
        return vector;
    }

    private static Truth nulls(FieldVector vector, int rows, boolean isNull)
    {
        if (vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector) {
            long[] valid = validityWords(vector, rows);
            Truth truth = new Truth(rows);
            for (int word = 0; word < Truth.words(rows); word++) {
                long all = Truth.lowBits(Math.min(Long.SIZE, rows - (word << 6)));
                long validBits = valid == null ? all : valid[word];
                truth.assign(word, isNull ? all & ~validBits : validBits, isNull ? validBits : all & ~validBits);
            }
            return truth;
        }
        Truth truth = new Truth(rows);
        for (int row = 0; row < rows; row++) {
            truth.set(row, vector.isNull(row) == isNull);
        }
        return truth;
    }

    private static void rowByRow(Predicate leaf, FieldRef field, FieldVector vector, int rows, Truth truth)
    {
        DataType type = field.type();
        for (int row = 0; row < rows; row++) {
            Object value = ArrowValues.value(vector, row, type);
            Boolean result = RowEvaluator.evaluate(leaf, ignored -> value);
            if (result != null) {
                truth.set(row, result);
            }
        }
    }

    /**
     * Evaluates a comparison on the raw buffers when the vector and literal allow it.
     *
     * @return false when the caller must evaluate row by row instead
     */
    private static boolean compare(Comparison comparison, FieldVector vector, int rows, Truth truth)
    {
        IntegerRange range = integerRange(comparison, vector);
        if (range != null) {
            range.test(rows, truth);
            return true;
        }
        Operator op = comparison.op();
        Object literal = comparison.literal();
        switch (comparison.field().type().root()) {
            case FLOAT -> {
                Float4Vector floats = as(vector, Float4Vector.class, comparison.field());
                float value = (Float) literal;
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, SqlComparison.test(op, data.getFloat((long) row * Float.BYTES), value));
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = as(vector, Float8Vector.class, comparison.field());
                double value = (Double) literal;
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, SqlComparison.test(op, data.getDouble((long) row * Double.BYTES), value));
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                byte[] value = literal instanceof String string ? utf8(string) : (byte[]) literal;
                if (value == null) {
                    return false;
                }
                compareBytes(as(vector, BaseVariableWidthVector.class, comparison.field()), value, op, rows, truth);
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * A comparison of an integer-like column (integers, dates, times, timestamps, decimals of up
     * to 18 digits) as a test of its values against a range, or null for other comparisons.
     */
    private static IntegerRange integerRange(Comparison comparison, FieldVector vector)
    {
        Object literal = comparison.literal();
        return switch (comparison.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME ->
                    IntegerRange.of(integerVector(comparison.field(), vector), ((Number) literal).longValue(), false, comparison.op());
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimeStampVector timestamps = as(vector, TimeStampVector.class, comparison.field());
                long[] scaled = inUnit((Timestamp) literal, unit(timestamps));
                yield scaled == null ? null : IntegerRange.of(timestamps, scaled[0], scaled[1] != 0, comparison.op());
            }
            case DECIMAL -> {
                // up to 18 digits the unscaled values are longs, compared like integers with the
                // literal at the column's scale (rounded down, remembering a cut-off fraction)
                DecimalVector decimals = as(vector, DecimalVector.class, comparison.field());
                if (decimals.getPrecision() > MAX_LONG_DECIMAL_PRECISION || !(literal instanceof BigDecimal value)) {
                    yield null;
                }
                BigDecimal floor = value.setScale(decimals.getScale(), RoundingMode.FLOOR);
                BigInteger unscaled = floor.unscaledValue();
                yield unscaled.bitLength() >= Long.SIZE ? null : IntegerRange.of(decimals, unscaled.longValue(), floor.compareTo(value) != 0, comparison.op());
            }
            default -> null;
        };
    }

    /**
     * Rows of {@code vector} whose values lie in {@code [low, high]} (none when {@code empty})
     * are TRUE, other non-null rows FALSE; the reverse when not {@code trueInside}.
     */
    private record IntegerRange(BaseFixedWidthVector vector, long low, long high, boolean empty, boolean trueInside)
    {
        /**
         * {@code value op literal}, where the literal is {@code literal} plus a fraction in
         * (0, 1) when {@code literalHasFraction}.
         */
        static IntegerRange of(BaseFixedWidthVector vector, long literal, boolean literalHasFraction, Operator op)
        {
            long low = Long.MIN_VALUE;
            long high = Long.MAX_VALUE;
            boolean empty = false;
            switch (op) {
                case EQUAL, NOT_EQUAL -> {
                    low = literal;
                    high = literal;
                    empty = literalHasFraction;
                }
                case LESS_THAN -> {
                    if (literalHasFraction) {
                        high = literal;
                    }
                    else if (literal == Long.MIN_VALUE) {
                        empty = true;
                    }
                    else {
                        high = literal - 1;
                    }
                }
                case LESS_THAN_OR_EQUAL -> high = literal;
                case GREATER_THAN -> {
                    if (literal == Long.MAX_VALUE) {
                        empty = true;
                    }
                    else {
                        low = literal + 1;
                    }
                }
                case GREATER_THAN_OR_EQUAL -> {
                    if (!literalHasFraction) {
                        low = literal;
                    }
                    else if (literal == Long.MAX_VALUE) {
                        empty = true;
                    }
                    else {
                        low = literal + 1;
                    }
                }
            }
            return new IntegerRange(vector, low, high, empty, op != Operator.NOT_EQUAL);
        }

        /**
         * The conjunction of two ranges TRUE inside on the same vector: under Kleene logic a
         * non-null row is TRUE when inside both, FALSE when outside either.
         */
        IntegerRange intersect(IntegerRange other)
        {
            long newLow = Math.max(low, other.low);
            long newHigh = Math.min(high, other.high);
            return new IntegerRange(vector, newLow, newHigh, empty || other.empty || newLow > newHigh, true);
        }

        /**
         * Sets the verdicts of rows {@code [0, rows)}, 64 rows at a time: for each word of rows a
         * mask of the values inside, combined with the validity bits.
         */
        void test(int rows, Truth truth)
        {
            long[] valid = validityWords(vector, rows);
            int width = vector.getTypeWidth();
            // one bounds check here, then unchecked reads: a ByteBuffer view of the ArrowBuf cost a
            // few microseconds to create, which was most of a selective filter's time per batch
            long data = checkedAddress(vector.getDataBuffer(), (long) rows * width);
            long span = high - low;
            for (int word = 0; word < Truth.words(rows); word++) {
                int first = word << 6;
                int count = Math.min(Long.SIZE, rows - first);
                long inside = empty ? 0 : insideMask(data, width, first, count, low, span);
                long validBits = valid == null ? Truth.lowBits(count) : valid[word];
                long trueBits = trueInside ? inside : ~inside;
                truth.assign(word, trueBits & validBits, ~trueBits & validBits);
            }
        }
    }

    /**
     * Bit {@code i} set when the value of row {@code first + i} lies in {@code [low, low + span]}
     * (compared unsigned after subtracting {@code low}, which is exact for every long range).
     */
    private static long insideMask(long data, int width, int first, int count, long low, long span)
    {
        long mask = 0;
        switch (width) {
            case 1 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getByte(data + first + i) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            case 2 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getShort(data + ((long) (first + i) << 1)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            case 4 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getInt(data + ((long) (first + i) << 2)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            case 8 -> {
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getLong(data + ((long) (first + i) << 3)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
            default -> {
                // a 128-bit decimal of at most 18 digits: the low little-endian word is the value
                for (int i = 0; i < count; i++) {
                    mask |= (Long.compareUnsigned(MemoryUtil.getLong(data + ((long) (first + i) << 4)) - low, span) <= 0 ? 1L : 0L) << i;
                }
            }
        }
        return mask;
    }

    /**
     * The memory address of {@code buffer} after checking that it holds at least {@code bytes}.
     */
    private static long checkedAddress(ArrowBuf buffer, long bytes)
    {
        if (bytes > buffer.capacity()) {
            throw new IllegalStateException("A batch needs " + bytes + " bytes of a buffer of " + buffer.capacity());
        }
        return buffer.memoryAddress();
    }

    /**
     * The validity bits of rows {@code [0, rows)} as words of 64 rows (bits past the last row
     * clear), or null when no row is null.
     */
    private static long[] validityWords(FieldVector vector, int rows)
    {
        if (vector.getNullCount() == 0) {
            return null;
        }
        int bytes = (rows + 7) >>> 3;
        long bits = checkedAddress(vector.getValidityBuffer(), bytes);
        long[] words = new long[Truth.words(rows)];
        for (int i = 0; i < bytes; i++) {
            words[i >>> 3] |= (MemoryUtil.getByte(bits + i) & 0xFFL) << ((i & 7) << 3);
        }
        if ((rows & 63) != 0) {
            words[words.length - 1] &= Truth.lowBits(rows & 63);
        }
        return words;
    }

    private static long integerAt(ArrowBuf data, int width, int row)
    {
        return switch (width) {
            case 1 -> data.getByte(row);
            case 2 -> data.getShort((long) row * 2);
            case 4 -> data.getInt((long) row * 4);
            default -> data.getLong((long) row * 8);
        };
    }

    private static BaseFixedWidthVector integerVector(FieldRef field, FieldVector vector)
    {
        Class<? extends BaseFixedWidthVector> expected = switch (field.type().root()) {
            case TINYINT -> TinyIntVector.class;
            case SMALLINT -> SmallIntVector.class;
            case INT -> IntVector.class;
            case BIGINT -> BigIntVector.class;
            case DATE -> DateDayVector.class;
            case TIME -> TimeMilliVector.class;
            default -> throw new IllegalArgumentException("Not an integer type: " + field.type().asSqlString());
        };
        return as(vector, expected, field);
    }

    /**
     * Tests each row with the IN list's lookup structures (built once with the predicate): a
     * binary search or a hash probe per row, never a walk over the literals.
     */
    private static boolean in(In in, FieldVector vector, int rows, Truth truth)
    {
        switch (in.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                BaseFixedWidthVector integers = integerVector(in.field(), vector);
                ArrowBuf data = integers.getDataBuffer();
                int width = integers.getTypeWidth();
                for (int row = 0; row < rows; row++) {
                    if (!integers.isNull(row)) {
                        truth.set(row, in.containsLong(integerAt(data, width, row)));
                    }
                }
                return true;
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimeStampVector timestamps = as(vector, TimeStampVector.class, in.field());
                TimeUnit unit = unit(timestamps);
                ArrowBuf data = timestamps.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!timestamps.isNull(row)) {
                        truth.set(row, containsTimestamp(in, data.getLong((long) row * Long.BYTES), unit));
                    }
                }
                return true;
            }
            case FLOAT -> {
                Float4Vector floats = as(vector, Float4Vector.class, in.field());
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, in.containsNumber(data.getFloat((long) row * Float.BYTES)));
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = as(vector, Float8Vector.class, in.field());
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, in.containsNumber(data.getDouble((long) row * Double.BYTES)));
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                if (!in.hasByteKeys()) {
                    return false;
                }
                BaseVariableWidthVector bytes = as(vector, BaseVariableWidthVector.class, in.field());
                ArrowBuf data = bytes.getDataBuffer();
                byte[] scratch = new byte[64];
                for (int row = 0; row < rows; row++) {
                    if (!bytes.isNull(row)) {
                        int start = bytes.getStartOffset(row);
                        int length = ByteLiteral.checkedRange(data, start, bytes.getEndOffset(row));
                        if (length > scratch.length) {
                            scratch = new byte[Math.max(length, scratch.length * 2)];
                        }
                        data.getBytes(start, scratch, 0, length);
                        truth.set(row, in.containsBytes(scratch, 0, length));
                    }
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * Whether a timestamp vector's raw value in {@code unit} equals an IN literal.
     */
    private static boolean containsTimestamp(In in, long value, TimeUnit unit)
    {
        return switch (unit) {
            case SECOND -> {
                if (value > Long.MAX_VALUE / 1000 || value < Long.MIN_VALUE / 1000) {
                    // beyond every literal's epoch millis
                    yield false;
                }
                yield in.containsTimestamp(value * 1000, 0);
            }
            case MILLISECOND -> in.containsTimestamp(value, 0);
            case MICROSECOND -> in.containsTimestamp(Math.floorDiv(value, 1000L), (int) Math.floorMod(value, 1000L) * 1000);
            case NANOSECOND -> in.containsTimestamp(Math.floorDiv(value, 1_000_000L), (int) Math.floorMod(value, 1_000_000L));
        };
    }

    /**
     * Tests each row of an integer-like or floating-point column with one binary search over
     * the ranges.
     *
     * @return false when the caller must evaluate row by row instead
     */
    private static boolean inRanges(InRanges inRanges, FieldVector vector, int rows, Truth truth)
    {
        switch (inRanges.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                BaseFixedWidthVector integers = integerVector(inRanges.field(), vector);
                ArrowBuf data = integers.getDataBuffer();
                int width = integers.getTypeWidth();
                for (int row = 0; row < rows; row++) {
                    if (!integers.isNull(row)) {
                        truth.set(row, inRanges.containsLong(integerAt(data, width, row)));
                    }
                }
                return true;
            }
            case FLOAT -> {
                Float4Vector floats = as(vector, Float4Vector.class, inRanges.field());
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, inRanges.containsNumber(data.getFloat((long) row * Float.BYTES)));
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = as(vector, Float8Vector.class, inRanges.field());
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, inRanges.containsNumber(data.getDouble((long) row * Double.BYTES)));
                    }
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static void startsWith(BaseVariableWidthVector strings, byte[] prefix, int rows, Truth truth)
    {
        ByteLiteral literal = new ByteLiteral(prefix);
        ArrowBuf data = strings.getDataBuffer();
        long address = data.memoryAddress();
        for (int row = 0; row < rows; row++) {
            if (!strings.isNull(row)) {
                int start = strings.getStartOffset(row);
                int length = ByteLiteral.checkedRange(data, start, strings.getEndOffset(row));
                // a UTF-8 byte prefix ends on a character boundary of a well-formed value, so it is a code-point prefix
                truth.set(row, literal.isPrefixAt(address + start, length));
            }
        }
    }

    private static boolean test(Operator op, int order)
    {
        return switch (op) {
            case EQUAL -> order == 0;
            case NOT_EQUAL -> order != 0;
            case LESS_THAN -> order < 0;
            case LESS_THAN_OR_EQUAL -> order <= 0;
            case GREATER_THAN -> order > 0;
            case GREATER_THAN_OR_EQUAL -> order >= 0;
        };
    }

    /**
     * Tests each row's bytes against {@code value} by {@code op}, in unsigned lexicographic order.
     */
    private static void compareBytes(BaseVariableWidthVector strings, byte[] value, Operator op, int rows, Truth truth)
    {
        if (rows == 0) {
            return;
        }
        long[] valid = validityWords(strings, rows);
        ArrowBuf offsets = strings.getOffsetBuffer();
        ArrowBuf data = strings.getDataBuffer();
        long address = data.memoryAddress();
        ByteLiteral literal = new ByteLiteral(value);
        // equality needs no order: most values differ in length or in their first bytes
        boolean equality = op == Operator.EQUAL || op == Operator.NOT_EQUAL;
        boolean equalIsTrue = op == Operator.EQUAL;
        if ((long) (rows + 1) * BaseVariableWidthVector.OFFSET_WIDTH > offsets.capacity()) {
            throw new IllegalStateException("Offset buffer of " + offsets.capacity() + " bytes for " + rows + " rows");
        }
        // unchecked reads, as in ByteLiteral: the buffer's range was checked just above
        long offsetAddress = offsets.memoryAddress();
        int start = MemoryUtil.getInt(offsetAddress);
        for (int row = 0; row < rows; row++) {
            int end = MemoryUtil.getInt(offsetAddress + (long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH);
            if (valid == null || (valid[row >>> 6] & (1L << row)) != 0) {
                int length = ByteLiteral.checkedRange(data, start, end);
                boolean matches = equality
                        ? literal.equalsAt(address + start, length) == equalIsTrue
                        : test(op, literal.compareAt(address + start, length));
                truth.set(row, matches);
            }
            start = end;
        }
    }

    /**
     * The UTF-8 bytes of a well-formed string, or null when it holds a lone surrogate, which
     * UTF-8 cannot encode and which would therefore not keep code-point order.
     */
    /**
     * The UTF-8 bytes of {@code value}, or null when it is not well-formed UTF-16 (a lone
     * surrogate), which byte comparisons would get wrong.
     */
    static byte[] utf8(String value)
    {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            }
            else if (Character.isSurrogate(c)) {
                return null;
            }
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    private static <T> T as(FieldVector vector, Class<T> expected, FieldRef field)
    {
        if (!expected.isInstance(vector)) {
            throw new IllegalArgumentException("Column " + field.name() + " of type " + field.type().asSqlString() + " is read as " +
                    vector.getClass().getSimpleName() + " of Arrow type " + vector.getField().getType() + ", which does not hold that type");
        }
        return expected.cast(vector);
    }

    private static TimeUnit unit(TimeStampVector vector)
    {
        return ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
    }

    /**
     * The timestamp in {@code unit}: {@code [floor, 1 if a remainder was cut off else 0]}, or null
     * when it does not fit a long.
     */
    private static long[] inUnit(Timestamp timestamp, TimeUnit unit)
    {
        long millis = timestamp.epochMillis();
        int nanos = timestamp.nanoOfMillisecond();
        try {
            return switch (unit) {
                case SECOND -> new long[] {Math.floorDiv(millis, 1000L), (Math.floorMod(millis, 1000L) != 0 || nanos != 0) ? 1 : 0};
                case MILLISECOND -> new long[] {millis, nanos != 0 ? 1 : 0};
                case MICROSECOND -> new long[] {Math.addExact(Math.multiplyExact(millis, 1000L), nanos / 1000), nanos % 1000 != 0 ? 1 : 0};
                case NANOSECOND -> new long[] {Math.addExact(Math.multiplyExact(millis, 1_000_000L), nanos), 0};
            };
        }
        catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * The rows where a predicate is TRUE and the rows where it is FALSE, as bitmaps; unknown rows
     * are in neither. Bits at or above the row count are always clear.
     */
    private static final class Truth
    {
        private final int rows;
        private final long[] isTrue;
        private final long[] isFalse;

        Truth(int rows)
        {
            this(rows, new long[(rows + 63) >>> 6], new long[(rows + 63) >>> 6]);
        }

        private Truth(int rows, long[] isTrue, long[] isFalse)
        {
            this.rows = rows;
            this.isTrue = isTrue;
            this.isFalse = isFalse;
        }

        static Truth constant(int rows, boolean value)
        {
            Truth truth = new Truth(rows);
            long[] words = value ? truth.isTrue : truth.isFalse;
            for (int word = 0; word < words.length; word++) {
                words[word] = lowBits(Math.min(Long.SIZE, rows - (word << 6)));
            }
            return truth;
        }

        static int words(int rows)
        {
            return (rows + 63) >>> 6;
        }

        /**
         * A word with its lowest {@code count} bits set, {@code count} in [0, 64].
         */
        static long lowBits(int count)
        {
            return count == Long.SIZE ? -1L : (1L << count) - 1;
        }

        void set(int row, boolean value)
        {
            long[] words = value ? isTrue : isFalse;
            words[row >>> 6] |= 1L << row;
        }

        /**
         * Sets the TRUE and FALSE rows of one word of 64 rows; bits past the last row must be clear.
         */
        void assign(int word, long trueBits, long falseBits)
        {
            isTrue[word] = trueBits;
            isFalse[word] = falseBits;
        }

        Truth and(Truth other)
        {
            for (int i = 0; i < isTrue.length; i++) {
                isTrue[i] &= other.isTrue[i];
                isFalse[i] |= other.isFalse[i];
            }
            return this;
        }

        Truth or(Truth other)
        {
            for (int i = 0; i < isTrue.length; i++) {
                isTrue[i] |= other.isTrue[i];
                isFalse[i] &= other.isFalse[i];
            }
            return this;
        }

        Truth not()
        {
            return new Truth(rows, isFalse, isTrue);
        }

        int[] trueRows()
        {
            int count = 0;
            for (long word : isTrue) {
                count += Long.bitCount(word);
            }
            int[] result = new int[count];
            int next = 0;
            for (int i = 0; i < isTrue.length; i++) {
                long word = isTrue[i];
                while (word != 0) {
                    result[next++] = (i << 6) + Long.numberOfTrailingZeros(word);
                    word &= word - 1;
                }
            }
            return result;
        }
    }
}
