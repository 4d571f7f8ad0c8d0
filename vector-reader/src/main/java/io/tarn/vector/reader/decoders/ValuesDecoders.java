package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.Type;

/**
 * Picks the decoder of a data page's values by its encoding and the column's physical type, so
 * that the column reader needs no decoder class but this one. Internal to the vector-reader
 * module: public only for its reader package.
 */
public final class ValuesDecoders
{
    private ValuesDecoders() {}

    /**
     * The decoder of PLAIN-encoded values in {@code data[position, end)}: data pages and
     * dictionary pages.
     */
    public static ValuesDecoder plain(Type type, int typeLength, byte[] data, int position, int end)
    {
        return PlainDecoders.create(type, typeLength, data, position, end);
    }

    /**
     * The decoder of the {@code valueCount} values encoded in {@code data[position, end)}.
     * {@code dictionary} and {@code dictionaryWords} are the column chunk's dictionary page
     * (null before it or without one); {@code dictionaryWords} is null for fixed-width types.
     *
     * @throws CorruptDataException when the encoding cannot hold values of this type, or a
     * dictionary-encoded page comes without a dictionary
     * @throws UnsupportedEncodingException when this reader lacks the encoding
     */
    public static ValuesDecoder create(Encoding encoding, Type type, int typeLength, byte[] data, int position, int end, int valueCount,
            ValueBuffer dictionary, DictionaryDecoder.Words dictionaryWords)
    {
        if (encoding == null) {
            throw new CorruptDataException("Data page without an encoding");
        }
        return switch (encoding) {
            case PLAIN -> PlainDecoders.create(type, typeLength, data, position, end);
            case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
                if (dictionary == null) {
                    throw new CorruptDataException("Dictionary-encoded page without a dictionary page");
                }
                yield new DictionaryDecoder(dictionary, dictionaryWords, type, data, position, end);
            }
            case RLE -> {
                if (type != Type.BOOLEAN) {
                    throw new UnsupportedEncodingException("RLE encoding of " + type + " values");
                }
                yield new RleBooleanDecoder(data, position, end);
            }
            case DELTA_BINARY_PACKED -> {
                if (type != Type.INT32 && type != Type.INT64) {
                    throw new CorruptDataException("DELTA_BINARY_PACKED encoding of " + type + " values");
                }
                yield new DeltaBinaryPackedDecoder(data, position, end, type == Type.INT32);
            }
            case DELTA_LENGTH_BYTE_ARRAY -> {
                if (type != Type.BYTE_ARRAY) {
                    throw new CorruptDataException("DELTA_LENGTH_BYTE_ARRAY encoding of " + type + " values");
                }
                yield new DeltaLengthByteArrayDecoder(data, position, end, valueCount);
            }
            case DELTA_BYTE_ARRAY -> {
                if (type != Type.BYTE_ARRAY && type != Type.FIXED_LEN_BYTE_ARRAY) {
                    throw new CorruptDataException("DELTA_BYTE_ARRAY encoding of " + type + " values");
                }
                yield new DeltaByteArrayDecoder(data, position, end, valueCount);
            }
            case BYTE_STREAM_SPLIT -> new ByteStreamSplitDecoder(type, typeLength, data, position, end);
            default -> throw new UnsupportedEncodingException("Value encoding " + encoding);
        };
    }
}
