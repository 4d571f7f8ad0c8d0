package io.tarn.vector.reader;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.CorruptDataException;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.reader.decoders.ValueBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.Type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;

/**
 * Turns the decoded values of one file column into the Arrow representation of the requested
 * Paimon type: first an in-place conversion of the dense values (unit changes, widening,
 * decimal rescaling), then a scatter into the vector's slots, leaving null slots cleared. The
 * pairs of file and requested type are fixed when the reader opens; anything outside Paimon's
 * type mapping and its widening schema changes is rejected there.
 */
final class LeafConverter
{
    private enum Target
    {
        BIT, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, DECIMAL128, VARIABLE
    }

    private enum Conversion
    {
        NONE, INT_TO_LONG, INT_TO_FLOAT, INT_TO_DOUBLE, LONG_TO_DOUBLE, FLOAT_TO_DOUBLE,
        LONG_MULTIPLY, LONG_DIVIDE, LONG_DIVIDE_TO_INT, INT_DECIMAL, LONG_DECIMAL, BINARY_DECIMAL,
        INT_TO_STRING, LONG_TO_STRING, FLOAT_TO_STRING, DOUBLE_TO_STRING
    }

    private final Target target;
    private final Conversion conversion;
    private final long factor;
    private final int rescale;
    private static final long[] LONG_POWERS_OF_TEN = new long[19];

    static {
        long power = 1;
        for (int i = 0; i < LONG_POWERS_OF_TEN.length; i++) {
            LONG_POWERS_OF_TEN[i] = power;
            power *= 10;
        }
    }

    private long[] high = new long[0];

    private LeafConverter(Target target, Conversion conversion, long factor, int rescale)
    {
        this.target = target;
        this.conversion = conversion;
        this.factor = factor;
        this.rescale = rescale;
    }

    /**
     * Whether the values reach their vector as the file's bytes, unchanged.
     */
    boolean isPlainBinary()
    {
        return target == Target.VARIABLE && conversion == Conversion.NONE;
    }

    static LeafConverter create(SchemaElement element, DataType requested, String file)
            throws ParquetUnsupportedException
    {
        Type physical = element.getType();
        LogicalType logical = element.isSetLogicalType() ? element.getLogicalType() : null;
        ConvertedType converted = element.isSetConverted_type() ? element.getConverted_type() : null;
        if (!(requested instanceof AtomicType atomic)) {
            throw unsupported(element, requested, file);
        }
        TypeRoot root = atomic.root();
        boolean unsigned = (logical != null && logical.isSetINTEGER() && !logical.getINTEGER().isIsSigned())
                || (converted != null && converted.name().startsWith("UINT"));
        if (unsigned) {
            // Paimon never writes unsigned integers; reading them as signed would change values
            throw unsupported(element, requested, file);
        }
        boolean decimalColumn = (logical != null && logical.isSetDECIMAL()) || converted == ConvertedType.DECIMAL;
        int fileScale = 0;
        if (decimalColumn) {
            fileScale = logical != null && logical.isSetDECIMAL() ? logical.getDECIMAL().getScale() : element.getScale();
        }
        switch (root) {
            case BOOLEAN -> {
                if (physical == Type.BOOLEAN) {
                    return new LeafConverter(Target.BIT, Conversion.NONE, 1, 0);
                }
            }
            case TINYINT, SMALLINT, INT, DATE -> {
                if (physical == Type.INT32 && !decimalColumn) {
                    Target target = root == TypeRoot.TINYINT ? Target.INT8 : root == TypeRoot.SMALLINT ? Target.INT16 : Target.INT32;
                    return new LeafConverter(target, Conversion.NONE, 1, 0);
                }
            }
            case BIGINT -> {
                if (physical == Type.INT32 && !decimalColumn) {
                    return new LeafConverter(Target.INT64, Conversion.INT_TO_LONG, 1, 0);
                }
                if (physical == Type.INT64 && !decimalColumn) {
                    return new LeafConverter(Target.INT64, Conversion.NONE, 1, 0);
                }
            }
            case FLOAT -> {
                if (physical == Type.FLOAT) {
                    return new LeafConverter(Target.FLOAT32, Conversion.NONE, 1, 0);
                }
                if (physical == Type.INT32 && !decimalColumn) {
                    return new LeafConverter(Target.FLOAT32, Conversion.INT_TO_FLOAT, 1, 0);
                }
            }
            case DOUBLE -> {
                switch (physical) {
                    case DOUBLE -> {
                        return new LeafConverter(Target.FLOAT64, Conversion.NONE, 1, 0);
                    }
                    case FLOAT -> {
                        return new LeafConverter(Target.FLOAT64, Conversion.FLOAT_TO_DOUBLE, 1, 0);
                    }
                    case INT32 -> {
                        if (!decimalColumn) {
                            return new LeafConverter(Target.FLOAT64, Conversion.INT_TO_DOUBLE, 1, 0);
                        }
                    }
                    case INT64 -> {
                        if (!decimalColumn) {
                            return new LeafConverter(Target.FLOAT64, Conversion.LONG_TO_DOUBLE, 1, 0);
                        }
                    }
                    default -> {
                    }
                }
            }
            case DECIMAL -> {
                int rescale = atomic.scale() - fileScale;
                if (rescale >= 0 && rescale <= 38) {
                    switch (physical) {
                        case INT32 -> {
                            return new LeafConverter(Target.DECIMAL128, Conversion.INT_DECIMAL, 1, rescale);
                        }
                        case INT64 -> {
                            return new LeafConverter(Target.DECIMAL128, Conversion.LONG_DECIMAL, 1, rescale);
                        }
                        case FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY -> {
                            if (decimalColumn) {
                                return new LeafConverter(Target.DECIMAL128, Conversion.BINARY_DECIMAL, 1, rescale);
                            }
                        }
                        default -> {
                        }
                    }
                }
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                if (physical == Type.BYTE_ARRAY || physical == Type.FIXED_LEN_BYTE_ARRAY) {
                    return new LeafConverter(Target.VARIABLE, Conversion.NONE, 1, 0);
                }
                // a number column changed to a string type: Paimon casts with the number's toString,
                // then pads CHAR(n) / truncates to the length
                boolean text = root == TypeRoot.CHAR || root == TypeRoot.VARCHAR;
                boolean numeric = !decimalColumn && (logical == null || logical.isSetINTEGER()) && (converted == null || converted.name().startsWith("INT"));
                if (text && numeric) {
                    Conversion toString = switch (physical) {
                        case INT32 -> Conversion.INT_TO_STRING;
                        case INT64 -> Conversion.LONG_TO_STRING;
                        case FLOAT -> Conversion.FLOAT_TO_STRING;
                        case DOUBLE -> Conversion.DOUBLE_TO_STRING;
                        default -> null;
                    };
                    if (toString != null) {
                        return new LeafConverter(Target.VARIABLE, toString, root == TypeRoot.CHAR ? -atomic.precision() : atomic.precision(), 0);
                    }
                }
            }
            case TIME -> {
                if (physical == Type.INT32) {
                    return new LeafConverter(Target.INT32, Conversion.NONE, 1, 0);
                }
                if (physical == Type.INT64 && logical != null && logical.isSetTIME()) {
                    long divisor = unitsPerSecond(logical.getTIME().getUnit()) / 1000;
                    return new LeafConverter(Target.INT32, Conversion.LONG_DIVIDE_TO_INT, divisor, 0);
                }
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                long targetUnits = switch (ArrowTypes.timeUnit(atomic.precision())) {
                    case MILLISECOND -> 1_000L;
                    case MICROSECOND -> 1_000_000L;
                    default -> 1_000_000_000L;
                };
                long fileUnits = -1;
                if (physical == Type.INT96) {
                    fileUnits = 1_000_000_000L;
                }
                else if (physical == Type.INT64) {
                    if (logical != null && logical.isSetTIMESTAMP()) {
                        fileUnits = unitsPerSecond(logical.getTIMESTAMP().getUnit());
                    }
                    else if (converted == ConvertedType.TIMESTAMP_MILLIS) {
                        fileUnits = 1_000L;
                    }
                    else if (converted == ConvertedType.TIMESTAMP_MICROS) {
                        fileUnits = 1_000_000L;
                    }
                }
                if (fileUnits > 0) {
                    if (fileUnits == targetUnits) {
                        return new LeafConverter(Target.INT64, Conversion.NONE, 1, 0);
                    }
                    if (fileUnits < targetUnits) {
                        return new LeafConverter(Target.INT64, Conversion.LONG_MULTIPLY, targetUnits / fileUnits, 0);
                    }
                    return new LeafConverter(Target.INT64, Conversion.LONG_DIVIDE, fileUnits / targetUnits, 0);
                }
            }
            default -> {
            }
        }
        throw unsupported(element, requested, file);
    }

    private static long unitsPerSecond(TimeUnit unit)
    {
        if (unit.isSetMILLIS()) {
            return 1_000L;
        }
        if (unit.isSetMICROS()) {
            return 1_000_000L;
        }
        return 1_000_000_000L;
    }

    private static ParquetUnsupportedException unsupported(SchemaElement element, DataType requested, String file)
    {
        return new ParquetUnsupportedException("File " + file + " column " + element.getName() + " of Parquet type " + element.getType()
                + (element.isSetLogicalType() ? " (" + element.getLogicalType() + ")" : "") + " cannot be read as " + requested.asSqlString());
    }

    boolean isVariableWidth()
    {
        return target == Target.VARIABLE;
    }

    /**
     * Converts the dense values in place into the representation of the target vector.
     */
    void convert(ValueBuffer values)
    {
        int count = values.count;
        switch (conversion) {
            case NONE -> {
            }
            case INT_TO_LONG -> {
                long[] out = ensureLongs(values, count);
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    out[i] = in[i];
                }
            }
            case INT_TO_FLOAT -> {
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    in[i] = Float.floatToRawIntBits((float) in[i]);
                }
            }
            case INT_TO_DOUBLE -> {
                long[] out = ensureLongs(values, count);
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    out[i] = Double.doubleToRawLongBits(in[i]);
                }
            }
            case LONG_TO_DOUBLE -> {
                long[] in = values.longs;
                for (int i = 0; i < count; i++) {
                    in[i] = Double.doubleToRawLongBits((double) in[i]);
                }
            }
            case FLOAT_TO_DOUBLE -> {
                long[] out = ensureLongs(values, count);
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    out[i] = Double.doubleToRawLongBits(Float.intBitsToFloat(in[i]));
                }
            }
            case LONG_MULTIPLY -> {
                long[] in = values.longs;
                long f = factor;
                for (int i = 0; i < count; i++) {
                    long value = in[i];
                    long result = value * f;
                    if (Math.multiplyHigh(value, f) != (result >> 63)) {
                        throw new CorruptDataException("Timestamp " + value + " overflows when converted to a finer unit");
                    }
                    in[i] = result;
                }
            }
            case LONG_DIVIDE -> {
                long[] in = values.longs;
                long f = factor;
                for (int i = 0; i < count; i++) {
                    in[i] = Math.floorDiv(in[i], f);
                }
            }
            case LONG_DIVIDE_TO_INT -> {
                int[] out = ensureInts(values, count);
                long[] in = values.longs;
                long f = factor;
                for (int i = 0; i < count; i++) {
                    out[i] = (int) Math.floorDiv(in[i], f);
                }
            }
            case INT_DECIMAL -> {
                if (rescale == 0) {
                    // scatter sign-extends the ints straight into the vector
                    return;
                }
                long[] out = ensureLongs(values, count);
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    out[i] = in[i];
                }
                rescaleLongs(values, count);
            }
            case LONG_DECIMAL -> {
                if (rescale != 0) {
                    // with the file's scale, scatter sign-extends the longs straight into the vector
                    rescaleLongs(values, count);
                }
            }
            case BINARY_DECIMAL -> binaryDecimals(values, count);
            case INT_TO_STRING, LONG_TO_STRING, FLOAT_TO_STRING, DOUBLE_TO_STRING -> numbersToStrings(values, count);
        }
    }

    /**
     * Formats numbers as their Java text; {@code factor} is the VARCHAR length, or minus the
     * CHAR length (padded with spaces).
     */
    private void numbersToStrings(ValueBuffer values, int count)
    {
        int length = (int) Math.abs(factor);
        boolean pad = factor < 0;
        if (values.offsets.length < count + 1) {
            values.offsets = new int[ValueBuffer.grow(values.offsets.length, count + 1)];
        }
        int[] offsets = values.offsets;
        byte[] bytes = values.bytes;
        int position = 0;
        offsets[0] = 0;
        for (int i = 0; i < count; i++) {
            String text = switch (conversion) {
                case INT_TO_STRING -> Integer.toString(values.ints[i]);
                case LONG_TO_STRING -> Long.toString(values.longs[i]);
                case FLOAT_TO_STRING -> Float.toString(Float.intBitsToFloat(values.ints[i]));
                default -> Double.toString(Double.longBitsToDouble(values.longs[i]));
            };
            int size = Math.min(text.length(), length);
            int padded = pad ? length : size;
            if (bytes.length < position + padded) {
                bytes = java.util.Arrays.copyOf(bytes, ValueBuffer.grow(bytes.length, position + padded));
            }
            // number text is ASCII: one byte per character
            for (int k = 0; k < size; k++) {
                bytes[position + k] = (byte) text.charAt(k);
            }
            for (int k = size; k < padded; k++) {
                bytes[position + k] = ' ';
            }
            position += padded;
            offsets[i + 1] = position;
        }
        values.bytes = bytes;
    }

    private static long[] ensureLongs(ValueBuffer values, int count)
    {
        if (values.longs.length < count) {
            values.longs = new long[ValueBuffer.grow(values.longs.length, count)];
        }
        return values.longs;
    }

    private static int[] ensureInts(ValueBuffer values, int count)
    {
        if (values.ints.length < count) {
            values.ints = new int[ValueBuffer.grow(values.ints.length, count)];
        }
        return values.ints;
    }

    private long[] ensureHigh(int count)
    {
        if (high.length < count) {
            high = new long[ValueBuffer.grow(high.length, count)];
        }
        return high;
    }

    private void rescaleLongs(ValueBuffer values, int count)
    {
        long[] low = values.longs;
        long[] highs = ensureHigh(count);
        long factor = rescale <= 18 ? LONG_POWERS_OF_TEN[rescale] : 0;
        for (int i = 0; i < count; i++) {
            long value = low[i];
            long product = value * factor;
            if (factor != 0 && Math.multiplyHigh(value, factor) == (product >> 63)) {
                low[i] = product;
                highs[i] = product >> 63;
            }
            else {
                setDecimal(BigInteger.valueOf(value).multiply(BigInteger.TEN.pow(rescale)), low, highs, i);
            }
        }
    }

    private void binaryDecimals(ValueBuffer values, int count)
    {
        long[] low = ensureLongs(values, count);
        long[] highs = ensureHigh(count);
        byte[] bytes = values.bytes;
        int[] offsets = values.offsets;
        for (int i = 0; i < count; i++) {
            int start = offsets[i];
            int length = offsets[i + 1] - start;
            if (length == 0) {
                throw new CorruptDataException("Empty binary decimal value");
            }
            if (length <= 16 && rescale == 0) {
                // big-endian two's complement, sign-extended into 128 bits
                long hi = bytes[start] < 0 ? -1L : 0L;
                long lo = hi;
                for (int k = 0; k < length; k++) {
                    hi = (hi << 8) | (lo >>> 56);
                    lo = (lo << 8) | (bytes[start + k] & 0xFF);
                }
                low[i] = lo;
                highs[i] = hi;
            }
            else {
                byte[] copy = new byte[length];
                System.arraycopy(bytes, start, copy, 0, length);
                BigInteger unscaled = new BigInteger(copy);
                if (rescale > 0) {
                    unscaled = unscaled.multiply(BigInteger.TEN.pow(rescale));
                }
                setDecimal(unscaled, low, highs, i);
            }
        }
    }

    private static void setDecimal(BigInteger unscaled, long[] low, long[] highs, int index)
    {
        if (unscaled.bitLength() > 127) {
            throw new CorruptDataException("Decimal value " + new BigDecimal(unscaled) + " does not fit in 128 bits");
        }
        low[index] = unscaled.longValue();
        highs[index] = unscaled.shiftRight(64).longValue();
    }

    /**
     * Writes the converted values into slots of {@code vector}: value {@code k} goes to slot
     * {@code positions[k]}, or to slot {@code k} when {@code positions} is null. The vector has
     * capacity for the slots (its data buffer is written through its address, unchecked) and its
     * validity is already set.
     */
    void scatter(FieldVector vector, ValueBuffer values, int[] positions)
    {
        int count = values.count;
        if (target == Target.VARIABLE) {
            throw new IllegalStateException("Variable-width values are written by the leaf writer");
        }
        ArrowBuf data = ((BaseFixedWidthVector) vector).getDataBuffer();
        long address = data.memoryAddress();
        switch (target) {
            case BIT -> {
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    int slot = positions == null ? i : positions[i];
                    if (in[i] != 0) {
                        BitVectorHelper.setBit(data, slot);
                    }
                }
            }
            case INT8 -> {
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    long slot = positions == null ? i : positions[i];
                    MemoryUtil.putByte(address + slot, (byte) in[i]);
                }
            }
            case INT16 -> {
                int[] in = values.ints;
                for (int i = 0; i < count; i++) {
                    long slot = positions == null ? i : positions[i];
                    MemoryUtil.putShort(address + 2 * slot, (short) in[i]);
                }
            }
            case INT32, FLOAT32 -> {
                int[] in = values.ints;
                if (positions == null) {
                    // a bulk copy from the heap array into the vector's memory
                    data.nioBuffer(0, 4 * count).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(in, 0, count);
                }
                else {
                    for (int i = 0; i < count; i++) {
                        MemoryUtil.putInt(address + 4L * positions[i], in[i]);
                    }
                }
            }
            case INT64, FLOAT64 -> {
                long[] in = values.longs;
                if (positions == null) {
                    data.nioBuffer(0, 8 * count).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(in, 0, count);
                }
                else {
                    for (int i = 0; i < count; i++) {
                        MemoryUtil.putLong(address + 8L * positions[i], in[i]);
                    }
                }
            }
            case DECIMAL128 -> {
                if (rescale == 0 && conversion == Conversion.INT_DECIMAL) {
                    int[] in = values.ints;
                    for (int i = 0; i < count; i++) {
                        long at = address + 16L * (positions == null ? i : positions[i]);
                        long value = in[i];
                        MemoryUtil.putLong(at, value);
                        MemoryUtil.putLong(at + 8, value >> 63);
                    }
                }
                else if (rescale == 0 && conversion == Conversion.LONG_DECIMAL) {
                    long[] in = values.longs;
                    for (int i = 0; i < count; i++) {
                        long at = address + 16L * (positions == null ? i : positions[i]);
                        long value = in[i];
                        MemoryUtil.putLong(at, value);
                        MemoryUtil.putLong(at + 8, value >> 63);
                    }
                }
                else {
                    long[] in = values.longs;
                    long[] highs = high;
                    for (int i = 0; i < count; i++) {
                        long at = address + 16L * (positions == null ? i : positions[i]);
                        MemoryUtil.putLong(at, in[i]);
                        MemoryUtil.putLong(at + 8, highs[i]);
                    }
                }
            }
            default -> throw new IllegalStateException("Unexpected target " + target);
        }
    }

    /**
     * Whether the data buffer must be zeroed before scattering (bit-packed booleans are OR-ed in).
     */
    boolean needsZeroedData()
    {
        return target == Target.BIT;
    }
}
