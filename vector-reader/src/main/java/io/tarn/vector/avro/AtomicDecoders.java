package io.tarn.vector.avro;

import io.tarn.types.AtomicType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileUnsupportedException;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

import java.math.BigInteger;

import static java.util.Objects.requireNonNull;

/**
 * Decoders of atomic values: what Paimon's Avro writer stores for each type (see
 * {@link AvroLayout}), turned into the Arrow layout of the requested type. The file's value is
 * first read as the file's type (an Avro int of a TINYINT column is a byte), then widened to the
 * requested type the way Paimon casts after a column's type changed: integers to wider integers,
 * to FLOAT, DOUBLE and DECIMAL; FLOAT to DOUBLE; numbers to their Java text for CHAR and VARCHAR
 * (cut to the length, CHAR padded with spaces); DECIMAL to a larger scale; timestamps to another
 * unit (a coarser one rounds down). A decimal whose digits exceed the requested precision reads as
 * null, as Paimon's reader and casts make it.
 */
final class AtomicDecoders
{
    private enum Kind
    {
        BOOLEAN, INT, LONG, FLOAT, DOUBLE, BYTES, DECIMAL, TIMESTAMP
    }

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long power = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = power;
            power *= 10;
        }
    }

    private AtomicDecoders() {}

    /**
     * A decoder of {@code avro} (not a union), written for {@code fileType}, into
     * {@code builder}, a builder for {@code requested}.
     */
    static ValueDecoder create(Schema avro, AtomicType fileType, AtomicType requested, ColumnBuilder builder, String file, String column)
            throws DataFileUnsupportedException
    {
        Kind kind = kind(avro, fileType);
        if (kind == null) {
            throw unsupported(avro, requested, file, column);
        }
        // an Avro int of a TINYINT or SMALLINT column holds a byte or a short
        int narrowBits = kind == Kind.INT ? switch (fileType.root()) {
            case TINYINT -> 8;
            case SMALLINT -> 16;
            default -> 32;
        } : 64;
        int fixedSize = avro.getType() == Schema.Type.FIXED ? avro.getFixedSize() : -1;
        TypeRoot target = requested.root();
        switch (target) {
            case BOOLEAN -> {
                if (kind == Kind.BOOLEAN) {
                    return new BooleanValue((BooleanBuilder) builder);
                }
            }
            case TINYINT, SMALLINT, INT, DATE, TIME, BIGINT -> {
                boolean integerTarget = target == TypeRoot.TINYINT || target == TypeRoot.SMALLINT || target == TypeRoot.INT || target == TypeRoot.BIGINT;
                FixedWidthBuilder fixed = (FixedWidthBuilder) builder;
                if (kind == Kind.INT && narrowBits == 32 && fixed.width() == 4) {
                    return new IntValue(fixed);
                }
                if (kind == Kind.INT && (integerTarget || target == fileType.root())) {
                    return new IntegerValue(false, narrowBits, fixed);
                }
                if (kind == Kind.LONG && target == TypeRoot.BIGINT) {
                    return new LongValue(fixed);
                }
            }
            case FLOAT -> {
                if (kind == Kind.FLOAT) {
                    return new FloatValue((FixedWidthBuilder) builder);
                }
                if (kind == Kind.INT || kind == Kind.LONG) {
                    return new WidenedValue(kind, narrowBits, false, (FixedWidthBuilder) builder);
                }
            }
            case DOUBLE -> {
                if (kind == Kind.DOUBLE) {
                    return new DoubleValue((FixedWidthBuilder) builder);
                }
                if (kind == Kind.INT || kind == Kind.LONG || kind == Kind.FLOAT) {
                    return new WidenedValue(kind, narrowBits, true, (FixedWidthBuilder) builder);
                }
            }
            case DECIMAL -> {
                if (kind == Kind.DECIMAL) {
                    int rescale = requested.scale() - ((LogicalTypes.Decimal) avro.getLogicalType()).getScale();
                    if (rescale >= 0) {
                        return new DecimalValue(fixedSize, rescale, requested.precision(), (FixedWidthBuilder) builder);
                    }
                }
                if (kind == Kind.INT || kind == Kind.LONG) {
                    return new IntegerDecimalValue(kind == Kind.LONG, narrowBits, requested.scale(), requested.precision(), (FixedWidthBuilder) builder);
                }
            }
            case CHAR, VARCHAR, BINARY, VARBINARY -> {
                if (kind == Kind.BYTES) {
                    return new BytesValue(fixedSize, (BinaryBuilder) builder);
                }
                boolean text = target == TypeRoot.CHAR || target == TypeRoot.VARCHAR;
                if (text && (kind == Kind.INT || kind == Kind.LONG || kind == Kind.FLOAT || kind == Kind.DOUBLE)) {
                    return new NumberText(kind, narrowBits, requested.precision(), target == TypeRoot.CHAR, (BinaryBuilder) builder);
                }
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (kind == Kind.TIMESTAMP) {
                    long fileUnits = unitsPerSecond(avro.getLogicalType());
                    long targetUnits = switch (ArrowTypes.timeUnit(requested.precision())) {
                        case MILLISECOND -> 1_000L;
                        case MICROSECOND -> 1_000_000L;
                        default -> 1_000_000_000L;
                    };
                    return new TimestampValue(fileUnits, targetUnits, (FixedWidthBuilder) builder);
                }
            }
            default -> {
            }
        }
        throw unsupported(avro, requested, file, column);
    }

    /**
     * How the file stores values of {@code fileType} as {@code avro}, or null when it cannot.
     */
    private static Kind kind(Schema avro, AtomicType fileType)
    {
        LogicalType logical = avro.getLogicalType();
        return switch (avro.getType()) {
            case BOOLEAN -> Kind.BOOLEAN;
            case INT -> Kind.INT;
            case LONG -> {
                if (logical != null && unitsPerSecond(logical) > 0) {
                    yield Kind.TIMESTAMP;
                }
                yield fileType.root() == TypeRoot.TIMESTAMP || fileType.root() == TypeRoot.TIMESTAMP_LTZ ? null : Kind.LONG;
            }
            case FLOAT -> Kind.FLOAT;
            case DOUBLE -> Kind.DOUBLE;
            case BYTES, FIXED, STRING -> {
                if (logical instanceof LogicalTypes.Decimal && avro.getType() != Schema.Type.STRING) {
                    yield Kind.DECIMAL;
                }
                yield fileType.root() == TypeRoot.DECIMAL ? null : Kind.BYTES;
            }
            default -> null;
        };
    }

    /**
     * The units per second of an Avro timestamp logical type, or -1 for any other.
     */
    static long unitsPerSecond(LogicalType logical)
    {
        if (logical == null) {
            return -1;
        }
        return switch (logical.getName()) {
            case "timestamp-millis", "local-timestamp-millis" -> 1_000L;
            case "timestamp-micros", "local-timestamp-micros" -> 1_000_000L;
            case "timestamp-nanos", "local-timestamp-nanos" -> 1_000_000_000L;
            default -> -1;
        };
    }

    private static DataFileUnsupportedException unsupported(Schema avro, AtomicType requested, String file, String column)
    {
        return new DataFileUnsupportedException("File " + file + " column " + column + " of Avro type " + AvroLayout.describe(avro) + " cannot be read as " + requested.asSqlString());
    }

    private static long narrow(long value, int bits)
    {
        return switch (bits) {
            case 8 -> (byte) value;
            case 16 -> (short) value;
            case 32 -> (int) value;
            default -> value;
        };
    }

    private static final class BooleanValue
            extends ValueDecoder
    {
        private final BooleanBuilder builder;

        BooleanValue(BooleanBuilder builder)
        {
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            builder.appendBoolean(in.readBoolean());
        }
    }

    /**
     * INT, DATE and TIME as they are stored: the common case, without conversion.
     */
    private static final class IntValue
            extends ValueDecoder
    {
        private final FixedWidthBuilder builder;

        IntValue(FixedWidthBuilder builder)
        {
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            builder.appendInt(in.readInt());
        }
    }

    private static final class LongValue
            extends ValueDecoder
    {
        private final FixedWidthBuilder builder;

        LongValue(FixedWidthBuilder builder)
        {
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            builder.appendLong(in.readLong());
        }
    }

    /**
     * Integers, DATE (days) and TIME (milliseconds of the day), of any width into any width.
     */
    private static final class IntegerValue
            extends ValueDecoder
    {
        private final boolean longs;
        private final int narrowBits;
        private final FixedWidthBuilder builder;

        IntegerValue(boolean longs, int narrowBits, FixedWidthBuilder builder)
        {
            this.longs = longs;
            this.narrowBits = narrowBits;
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            long value = longs ? in.readLong() : in.readInt();
            builder.appendInteger(narrow(value, narrowBits));
        }
    }

    private static final class FloatValue
            extends ValueDecoder
    {
        private final FixedWidthBuilder builder;

        FloatValue(FixedWidthBuilder builder)
        {
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            builder.appendInt(in.readFloatBits());
        }
    }

    private static final class DoubleValue
            extends ValueDecoder
    {
        private final FixedWidthBuilder builder;

        DoubleValue(FixedWidthBuilder builder)
        {
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            builder.appendLong(in.readDoubleBits());
        }
    }

    /**
     * Integers into FLOAT or DOUBLE, FLOAT into DOUBLE.
     */
    private static final class WidenedValue
            extends ValueDecoder
    {
        private final Kind kind;
        private final int narrowBits;
        private final boolean toDouble;
        private final FixedWidthBuilder builder;

        WidenedValue(Kind kind, int narrowBits, boolean toDouble, FixedWidthBuilder builder)
        {
            this.kind = requireNonNull(kind, "kind is null");
            this.narrowBits = narrowBits;
            this.toDouble = toDouble;
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            if (kind == Kind.FLOAT) {
                builder.appendLong(Double.doubleToRawLongBits(in.readFloat()));
                return;
            }
            long value = narrow(kind == Kind.LONG ? in.readLong() : in.readInt(), narrowBits);
            if (toDouble) {
                builder.appendLong(Double.doubleToRawLongBits((double) value));
            }
            else {
                builder.appendInt(Float.floatToRawIntBits((float) value));
            }
        }
    }

    /**
     * CHAR, VARCHAR, BINARY and VARBINARY: Avro string, bytes or fixed, copied.
     */
    private static final class BytesValue
            extends ValueDecoder
    {
        private final int fixedSize;
        private final BinaryBuilder builder;

        BytesValue(int fixedSize, BinaryBuilder builder)
        {
            this.fixedSize = fixedSize;
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            int length;
            if (fixedSize >= 0) {
                length = fixedSize;
                in.require(length, "a fixed value");
            }
            else {
                length = in.readLength();
            }
            builder.appendBytes(in.buffer(), in.position(), length);
            in.skip(length);
        }
    }

    /**
     * A number's Java text ({@link Integer#toString}, {@link Float#toString}, ...), at most
     * {@code length} characters, CHAR padded to {@code length} with spaces.
     */
    private static final class NumberText
            extends ValueDecoder
    {
        private final Kind kind;
        private final int narrowBits;
        private final int length;
        private final boolean pad;
        private final BinaryBuilder builder;

        NumberText(Kind kind, int narrowBits, int length, boolean pad, BinaryBuilder builder)
        {
            this.kind = requireNonNull(kind, "kind is null");
            this.narrowBits = narrowBits;
            this.length = length;
            this.pad = pad;
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            String text = switch (kind) {
                case INT -> Long.toString(narrow(in.readInt(), narrowBits));
                case LONG -> Long.toString(in.readLong());
                case FLOAT -> Float.toString(in.readFloat());
                default -> Double.toString(in.readDouble());
            };
            int size = Math.min(text.length(), length);
            int padded = pad ? length : size;
            builder.reserve(padded);
            byte[] data = builder.data();
            int at = builder.end();
            // number text is ASCII: a byte per character
            for (int i = 0; i < size; i++) {
                data[at + i] = (byte) text.charAt(i);
            }
            for (int i = size; i < padded; i++) {
                data[at + i] = ' ';
            }
            builder.commit(padded);
        }
    }

    /**
     * Unix time in milliseconds, microseconds or nanoseconds, into the requested unit.
     */
    private static final class TimestampValue
            extends ValueDecoder
    {
        private final long multiplier;
        private final long divisor;
        private final FixedWidthBuilder builder;

        TimestampValue(long fileUnits, long targetUnits, FixedWidthBuilder builder)
        {
            this.multiplier = fileUnits < targetUnits ? targetUnits / fileUnits : 1;
            this.divisor = fileUnits > targetUnits ? fileUnits / targetUnits : 1;
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            long value = in.readLong();
            if (multiplier != 1) {
                long result = value * multiplier;
                if (Math.multiplyHigh(value, multiplier) != (result >> 63)) {
                    throw new CorruptDataException("Timestamp " + value + " overflows when converted to a finer unit");
                }
                value = result;
            }
            else if (divisor != 1) {
                value = Math.floorDiv(value, divisor);
            }
            builder.appendLong(value);
        }
    }

    /**
     * A decimal's unscaled value as big-endian two's complement bytes (Avro bytes or fixed),
     * scaled up by {@code 10^rescale}.
     */
    private static final class DecimalValue
            extends ValueDecoder
    {
        private final int fixedSize;
        private final int rescale;
        private final int precision;
        private final FixedWidthBuilder builder;
        private final BigInteger bound;

        DecimalValue(int fixedSize, int rescale, int precision, FixedWidthBuilder builder)
        {
            this.fixedSize = fixedSize;
            this.rescale = rescale;
            this.precision = precision;
            this.builder = requireNonNull(builder, "builder is null");
            this.bound = BigInteger.TEN.pow(precision);
        }

        @Override
        void decode(AvroInput in)
        {
            int length;
            if (fixedSize >= 0) {
                length = fixedSize;
                in.require(length, "a fixed decimal");
            }
            else {
                length = in.readLength();
            }
            if (length == 0) {
                throw new CorruptDataException("Empty Avro decimal");
            }
            byte[] bytes = in.buffer();
            int start = in.position();
            in.skip(length);
            if (length <= 8) {
                long value = bytes[start];
                for (int i = 1; i < length; i++) {
                    value = (value << 8) | (bytes[start + i] & 0xFF);
                }
                appendLong(builder, value, rescale, precision, bound);
                return;
            }
            appendBig(builder, new BigInteger(bytes, start, length), rescale, bound);
        }
    }

    /**
     * An integer column changed to DECIMAL: the integer at scale 0, scaled up to the decimal's.
     */
    private static final class IntegerDecimalValue
            extends ValueDecoder
    {
        private final boolean longs;
        private final int narrowBits;
        private final int rescale;
        private final int precision;
        private final FixedWidthBuilder builder;
        private final BigInteger bound;

        IntegerDecimalValue(boolean longs, int narrowBits, int rescale, int precision, FixedWidthBuilder builder)
        {
            this.longs = longs;
            this.narrowBits = narrowBits;
            this.rescale = rescale;
            this.precision = precision;
            this.builder = requireNonNull(builder, "builder is null");
            this.bound = BigInteger.TEN.pow(precision);
        }

        @Override
        void decode(AvroInput in)
        {
            long value = narrow(longs ? in.readLong() : in.readInt(), narrowBits);
            appendLong(builder, value, rescale, precision, bound);
        }
    }

    private static void appendLong(FixedWidthBuilder builder, long value, int rescale, int precision, BigInteger bound)
    {
        if (rescale <= 18) {
            long factor = POWERS_OF_TEN[rescale];
            long scaled = value * factor;
            if (Math.multiplyHigh(value, factor) == (scaled >> 63)) {
                // |scaled| < 10^precision; every long fits 19 digits
                if (precision >= 19 || (scaled > -POWERS_OF_TEN[precision] && scaled < POWERS_OF_TEN[precision])) {
                    builder.appendDecimal(scaled, scaled >> 63);
                }
                else {
                    builder.appendNull();
                }
                return;
            }
        }
        appendBig(builder, BigInteger.valueOf(value), rescale, bound);
    }

    private static void appendBig(FixedWidthBuilder builder, BigInteger unscaled, int rescale, BigInteger bound)
    {
        if (rescale > 0) {
            unscaled = unscaled.multiply(BigInteger.TEN.pow(rescale));
        }
        if (unscaled.abs().compareTo(bound) >= 0) {
            // more digits than the precision: Paimon's Decimal.fromBigDecimal gives null
            builder.appendNull();
            return;
        }
        builder.appendDecimal(unscaled.longValue(), unscaled.shiftRight(64).longValue());
    }
}
