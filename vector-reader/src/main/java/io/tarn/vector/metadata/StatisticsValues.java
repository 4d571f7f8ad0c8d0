package io.tarn.vector.metadata;

import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.vector.reader.decoders.ByteArrays;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes Parquet min / max statistics (PLAIN encoded, without length prefix) into Paimon's
 * internal values, only where the file column's order is the order of the Paimon type: signed
 * integers, dates, times, millisecond and microsecond timestamps, decimals, strings and binary
 * (both unsigned byte order), booleans. Anything else, and any value that does not decode
 * cleanly, yields null (unknown). FLOAT and DOUBLE bounds are kept, though writers leave NaN out
 * of them: predicates compare floating-point values under SQL rules, where NaN matches no leaf
 * that bounds could prune, and the statistics evaluator never prunes the leaves that NaN makes
 * TRUE, and drops bounds that are NaN (see {@link io.tarn.index.predicate.StatsEvaluator}).
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class StatisticsValues
{
    private StatisticsValues() {}

    /**
     * Whether statistics of this file column may be offered for a predicate on {@code type}.
     */
    public static boolean compatible(SchemaElement element, DataType type)
    {
        if (!(type instanceof AtomicType atomic)) {
            return false;
        }
        Type physical = element.getType();
        LogicalType logical = element.isSetLogicalType() ? element.getLogicalType() : null;
        if (logical != null && logical.isSetINTEGER() && !logical.getINTEGER().isIsSigned()) {
            return false;
        }
        if (element.isSetConverted_type() && element.getConverted_type().name().startsWith("UINT")) {
            return false;
        }
        boolean decimal = (logical != null && logical.isSetDECIMAL()) || element.getConverted_type() == ConvertedType.DECIMAL;
        return switch (atomic.root()) {
            case BOOLEAN -> physical == Type.BOOLEAN;
            case TINYINT, SMALLINT, INT, DATE -> physical == Type.INT32 && !decimal;
            case BIGINT -> physical == Type.INT64 && !decimal;
            case FLOAT -> physical == Type.FLOAT;
            case DOUBLE -> physical == Type.DOUBLE;
            case TIME -> physical == Type.INT32 && logical != null && logical.isSetTIME() && logical.getTIME().getUnit().isSetMILLIS();
            case DECIMAL -> decimal && scale(element) == atomic.scale()
                    && (physical == Type.INT32 || physical == Type.INT64 || physical == Type.FIXED_LEN_BYTE_ARRAY || physical == Type.BYTE_ARRAY);
            case CHAR, VARCHAR, BINARY, VARBINARY -> physical == Type.BYTE_ARRAY || physical == Type.FIXED_LEN_BYTE_ARRAY;
            case TIMESTAMP, TIMESTAMP_LTZ -> physical == Type.INT64 && logical != null && logical.isSetTIMESTAMP()
                    && !logical.getTIMESTAMP().getUnit().isSetNANOS();
            default -> false;
        };
    }

    private static int scale(SchemaElement element)
    {
        if (element.isSetLogicalType() && element.getLogicalType().isSetDECIMAL()) {
            return element.getLogicalType().getDECIMAL().getScale();
        }
        return element.getScale();
    }

    /**
     * The value of {@code bytes} as {@code type} (a min or max bound, or a dictionary entry), or
     * null when it does not decode cleanly. A FLOAT / DOUBLE NaN is returned as such: the
     * statistics evaluator then distrusts both bounds, and no dictionary entry NaN equals a literal.
     */
    public static Object decode(SchemaElement element, DataType type, byte[] bytes)
    {
        if (bytes == null) {
            return null;
        }
        AtomicType atomic = (AtomicType) type;
        Type physical = element.getType();
        switch (atomic.root()) {
            case BOOLEAN -> {
                return bytes.length == 1 ? bytes[0] != 0 : null;
            }
            case TINYINT -> {
                return bytes.length == 4 ? (byte) ByteArrays.intLE(bytes, 0) : null;
            }
            case SMALLINT -> {
                return bytes.length == 4 ? (short) ByteArrays.intLE(bytes, 0) : null;
            }
            case INT, DATE, TIME -> {
                return bytes.length == 4 ? ByteArrays.intLE(bytes, 0) : null;
            }
            case BIGINT -> {
                return bytes.length == 8 ? ByteArrays.longLE(bytes, 0) : null;
            }
            case FLOAT -> {
                return bytes.length == 4 ? Float.intBitsToFloat(ByteArrays.intLE(bytes, 0)) : null;
            }
            case DOUBLE -> {
                return bytes.length == 8 ? Double.longBitsToDouble(ByteArrays.longLE(bytes, 0)) : null;
            }
            case DECIMAL -> {
                BigInteger unscaled;
                if (physical == Type.INT32) {
                    unscaled = bytes.length == 4 ? BigInteger.valueOf(ByteArrays.intLE(bytes, 0)) : null;
                }
                else if (physical == Type.INT64) {
                    unscaled = bytes.length == 8 ? BigInteger.valueOf(ByteArrays.longLE(bytes, 0)) : null;
                }
                else {
                    unscaled = bytes.length > 0 && bytes.length <= 17 ? new BigInteger(bytes) : null;
                }
                return unscaled == null ? null : new BigDecimal(unscaled, atomic.scale());
            }
            case CHAR, VARCHAR -> {
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
            case BINARY, VARBINARY -> {
                return bytes.clone();
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (bytes.length != 8) {
                    return null;
                }
                long value = ByteArrays.longLE(bytes, 0);
                if (element.getLogicalType().getTIMESTAMP().getUnit().isSetMILLIS()) {
                    return Timestamp.ofMillis(value);
                }
                return Timestamp.ofMicros(value);
            }
            default -> {
                return null;
            }
        }
    }
}
