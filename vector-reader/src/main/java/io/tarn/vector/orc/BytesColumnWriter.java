package io.tarn.vector.orc;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

import java.util.Arrays;

/**
 * STRING, VARCHAR, CHAR and BINARY columns, DIRECT_V2: the bytes of the values back to back in
 * DATA, their lengths in LENGTH (unsigned integer RLE v2). As orc-core's writer does, a
 * VARCHAR(n) value is cut to its first n characters and a CHAR(n) value cut or padded with
 * spaces to n characters; the statistics see the stored bytes.
 */
final class BytesColumnWriter
        extends ColumnWriter
{
    private final OrcType.Kind kind;
    private final int maximumLength;
    private final OrcOutputBuffer data;
    private final OrcOutputBuffer lengthBuffer;
    private final IntegerRleV2Encoder lengths;
    private byte[] scratch = new byte[64];

    BytesColumnWriter(int column, OrcType.Kind kind, int maximumLength, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context);
        this.kind = kind;
        this.maximumLength = maximumLength;
        this.data = context.newBuffer();
        this.lengthBuffer = context.newBuffer();
        this.lengths = new IntegerRleV2Encoder(lengthBuffer, false);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        BaseVariableWidthVector values = (BaseVariableWidthVector) vector;
        for (int slot = from; slot < to; slot++) {
            if (values.isNull(slot)) {
                continue;
            }
            int start = values.getStartOffset(slot);
            int length = values.getValueLength(slot);
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
            }
            values.getDataBuffer().getBytes(start, scratch, 0, length);
            if (kind == OrcType.Kind.VARCHAR) {
                length = prefixLength(scratch, length, maximumLength);
            }
            else if (kind == OrcType.Kind.CHAR) {
                length = padded(length);
            }
            data.write(scratch, 0, length);
            lengths.write(length);
            if (kind == OrcType.Kind.BINARY) {
                ((BinaryStatistics) statistics).update(length);
            }
            else {
                ((StringStatistics) statistics).update(scratch, 0, length);
            }
            if (hasBloomFilter()) {
                // the UTF-8 bytes stored, after a VARCHAR(n) value is cut to n characters
                addToBloomFilter(BloomFilterHash.bytes(scratch, 0, length));
            }
        }
    }

    /**
     * STRING and VARCHAR only: a CHAR's padding and a BINARY's hashing are not what Tarn's
     * reader probes, so they are not written either.
     */
    @Override
    boolean supportsBloomFilter()
    {
        return kind == OrcType.Kind.STRING || kind == OrcType.Kind.VARCHAR;
    }

    /**
     * Cuts or pads the value in {@code scratch} to {@link #maximumLength} characters.
     */
    private int padded(int length)
    {
        int characters = characters(scratch, length);
        if (characters >= maximumLength) {
            return prefixLength(scratch, length, maximumLength);
        }
        int paddedLength = length + (maximumLength - characters);
        if (scratch.length < paddedLength) {
            scratch = Arrays.copyOf(scratch, paddedLength);
        }
        Arrays.fill(scratch, length, paddedLength, (byte) ' ');
        return paddedLength;
    }

    private static int characters(byte[] text, int length)
    {
        int characters = 0;
        for (int i = 0; i < length; i++) {
            if ((text[i] & 0xC0) != 0x80) {
                characters++;
            }
        }
        return characters;
    }

    /**
     * The length in bytes of the first {@code characters} UTF-8 characters of the value.
     */
    private static int prefixLength(byte[] text, int length, int characters)
    {
        int seen = 0;
        for (int i = 0; i < length; i++) {
            if ((text[i] & 0xC0) != 0x80) {
                if (seen == characters) {
                    return i;
                }
                seen++;
            }
        }
        return length;
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        data.recordPosition(positions);
        lengths.recordPosition(positions);
    }

    @Override
    void finishValueStreams(StripeParts parts)
    {
        lengths.flush();
        data.finish();
        lengthBuffer.finish();
        parts.addData(StripeFooter.Stream.DATA, column, data);
        parts.addData(StripeFooter.Stream.LENGTH, column, lengthBuffer);
    }

    @Override
    StripeFooter.Encoding.Kind encoding()
    {
        return StripeFooter.Encoding.Kind.DIRECT_V2;
    }

    @Override
    long valueBufferedSize()
    {
        return data.size() + lengthBuffer.size();
    }

    @Override
    void resetValueStreams()
    {
        data.reset();
        lengthBuffer.reset();
    }
}
