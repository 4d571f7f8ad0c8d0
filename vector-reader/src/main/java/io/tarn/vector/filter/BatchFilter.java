package io.tarn.vector.filter;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.AlwaysTrue;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicate.StartsWith;
import io.tarn.index.predicate.RowEvaluator;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.vector.rows.ArrowValues;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Applies a residual {@link Predicate} to an Arrow batch column by column.
 *
 * <p>Each node of the predicate yields two bitmaps over the batch's rows: the rows where it is
 * TRUE and the rows where it is FALSE; a row in neither is unknown (SQL NULL). AND, OR and NOT
 * combine the bitmaps under Kleene logic, so the result equals {@link RowEvaluator#test} row by
 * row. Comparisons, IN and starts_with on integer, date, time, timestamp, floating-point, string
 * and binary columns read the Arrow buffers directly with the literal in the vector's own
 * representation; other types (BOOLEAN, DECIMAL) go through {@link ArrowValues} and
 * {@link RowEvaluator} row by row.
 *
 * <p>Strings are compared by their UTF-8 bytes, which is code-point order for well-formed UTF-8
 * (all that Paimon writes); a literal that is not well-formed UTF-16 (a lone surrogate) is
 * evaluated on decoded strings instead, as {@link io.tarn.types.ValueComparator} does.
 */
public final class BatchFilter
{
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
        requireNonNull(predicate, "predicate is null");
        requireNonNull(root, "root is null");
        requireNonNull(columns, "columns is null");
        Truth truth = evaluate(predicate, root, columns, root.getRowCount());
        return truth.trueRows();
    }

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

    private static Truth evaluate(Predicate predicate, VectorSchemaRoot root, Map<Integer, Integer> columns, int rows)
    {
        if (predicate instanceof And and) {
            Truth result = null;
            for (Predicate child : and.children()) {
                Truth truth = evaluate(child, root, columns, rows);
                result = result == null ? truth : result.and(truth);
            }
            return result;
        }
        if (predicate instanceof Or or) {
            Truth result = null;
            for (Predicate child : or.children()) {
                Truth truth = evaluate(child, root, columns, rows);
                result = result == null ? truth : result.or(truth);
            }
            return result;
        }
        if (predicate instanceof Not not) {
            return evaluate(not.predicate(), root, columns, rows).not();
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
            return truth;
        }
        if (predicate instanceof StartsWith startsWith) {
            FieldVector vector = column(startsWith.field(), root, columns);
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
        Operator op = comparison.op();
        Object literal = comparison.literal();
        switch (comparison.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                BaseFixedWidthVector integers = integerVector(comparison.field(), vector);
                compareIntegers(integers, ((Number) literal).longValue(), false, op, rows, truth);
                return true;
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimeStampVector timestamps = as(vector, TimeStampVector.class, comparison.field());
                long[] scaled = inUnit((Timestamp) literal, unit(timestamps));
                if (scaled == null) {
                    return false;
                }
                compareIntegers(timestamps, scaled[0], scaled[1] != 0, op, rows, truth);
                return true;
            }
            case FLOAT -> {
                Float4Vector floats = as(vector, Float4Vector.class, comparison.field());
                float value = (Float) literal;
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        truth.set(row, test(op, Float.compare(data.getFloat((long) row * Float.BYTES), value)));
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
                        truth.set(row, test(op, Double.compare(data.getDouble((long) row * Double.BYTES), value)));
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                byte[] value = literal instanceof String string ? utf8(string) : (byte[]) literal;
                if (value == null) {
                    return false;
                }
                BaseVariableWidthVector bytes = as(vector, BaseVariableWidthVector.class, comparison.field());
                ArrowBuf data = bytes.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!bytes.isNull(row)) {
                        truth.set(row, test(op, compareBytes(data, bytes.getStartOffset(row), bytes.getEndOffset(row), value)));
                    }
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static void compareIntegers(BaseFixedWidthVector vector, long literal, boolean literalHasFraction, Operator op, int rows, Truth truth)
    {
        ArrowBuf data = vector.getDataBuffer();
        int width = vector.getTypeWidth();
        for (int row = 0; row < rows; row++) {
            if (!vector.isNull(row)) {
                int order = Long.compare(integerAt(data, width, row), literal);
                if (order == 0 && literalHasFraction) {
                    // the literal lies strictly between this unit and the next
                    order = -1;
                }
                truth.set(row, test(op, order));
            }
        }
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

    private static boolean in(In in, FieldVector vector, int rows, Truth truth)
    {
        List<Object> literals = in.literals();
        switch (in.field().type().root()) {
            case TINYINT, SMALLINT, INT, BIGINT, DATE, TIME -> {
                long[] values = new long[literals.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = ((Number) literals.get(i)).longValue();
                }
                inIntegers(integerVector(in.field(), vector), values, rows, truth);
                return true;
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                TimeStampVector timestamps = as(vector, TimeStampVector.class, in.field());
                long[] values = new long[literals.size()];
                int count = 0;
                for (Object literal : literals) {
                    long[] scaled = inUnit((Timestamp) literal, unit(timestamps));
                    if (scaled == null) {
                        return false;
                    }
                    // a literal finer than the vector's unit equals no value
                    if (scaled[1] == 0) {
                        values[count++] = scaled[0];
                    }
                }
                inIntegers(timestamps, Arrays.copyOf(values, count), rows, truth);
                return true;
            }
            case FLOAT -> {
                Float4Vector floats = as(vector, Float4Vector.class, in.field());
                long[] bits = new long[literals.size()];
                for (int i = 0; i < bits.length; i++) {
                    bits[i] = Float.floatToIntBits((Float) literals.get(i));
                }
                Arrays.sort(bits);
                ArrowBuf data = floats.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!floats.isNull(row)) {
                        // Float.compare is 0 exactly when the canonical bits are equal (NaN = NaN, -0.0 != 0.0)
                        truth.set(row, Arrays.binarySearch(bits, Float.floatToIntBits(data.getFloat((long) row * Float.BYTES))) >= 0);
                    }
                }
                return true;
            }
            case DOUBLE -> {
                Float8Vector doubles = as(vector, Float8Vector.class, in.field());
                long[] bits = new long[literals.size()];
                for (int i = 0; i < bits.length; i++) {
                    bits[i] = Double.doubleToLongBits((Double) literals.get(i));
                }
                Arrays.sort(bits);
                ArrowBuf data = doubles.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!doubles.isNull(row)) {
                        truth.set(row, Arrays.binarySearch(bits, Double.doubleToLongBits(data.getDouble((long) row * Double.BYTES))) >= 0);
                    }
                }
                return true;
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                byte[][] values = new byte[literals.size()][];
                for (int i = 0; i < values.length; i++) {
                    Object literal = literals.get(i);
                    values[i] = literal instanceof String string ? utf8(string) : (byte[]) literal;
                    if (values[i] == null) {
                        return false;
                    }
                }
                BaseVariableWidthVector bytes = as(vector, BaseVariableWidthVector.class, in.field());
                ArrowBuf data = bytes.getDataBuffer();
                for (int row = 0; row < rows; row++) {
                    if (!bytes.isNull(row)) {
                        int start = bytes.getStartOffset(row);
                        int end = bytes.getEndOffset(row);
                        boolean found = false;
                        for (int i = 0; i < values.length && !found; i++) {
                            found = values[i].length == end - start && compareBytes(data, start, end, values[i]) == 0;
                        }
                        truth.set(row, found);
                    }
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static void inIntegers(BaseFixedWidthVector vector, long[] values, int rows, Truth truth)
    {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        ArrowBuf data = vector.getDataBuffer();
        int width = vector.getTypeWidth();
        for (int row = 0; row < rows; row++) {
            if (!vector.isNull(row)) {
                truth.set(row, Arrays.binarySearch(sorted, integerAt(data, width, row)) >= 0);
            }
        }
    }

    private static void startsWith(BaseVariableWidthVector strings, byte[] prefix, int rows, Truth truth)
    {
        ArrowBuf data = strings.getDataBuffer();
        for (int row = 0; row < rows; row++) {
            if (!strings.isNull(row)) {
                int start = strings.getStartOffset(row);
                int end = strings.getEndOffset(row);
                // a UTF-8 byte prefix ends on a character boundary of a well-formed value, so it is a code-point prefix
                truth.set(row, end - start >= prefix.length && compareBytes(data, start, start + prefix.length, prefix) == 0);
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
     * Unsigned lexicographic order of {@code data[start, end)} against {@code value}.
     */
    private static int compareBytes(ArrowBuf data, int start, int end, byte[] value)
    {
        int length = Math.min(end - start, value.length);
        for (int i = 0; i < length; i++) {
            int order = Integer.compare(data.getByte(start + i) & 0xFF, value[i] & 0xFF);
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(end - start, value.length);
    }

    /**
     * The UTF-8 bytes of a well-formed string, or null when it holds a lone surrogate, which
     * UTF-8 cannot encode and which would therefore not keep code-point order.
     */
    private static byte[] utf8(String value)
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
            for (int row = 0; row < rows; row++) {
                truth.set(row, value);
            }
            return truth;
        }

        void set(int row, boolean value)
        {
            long[] words = value ? isTrue : isFalse;
            words[row >>> 6] |= 1L << row;
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
