package io.tarn.vector.orc;

/**
 * Booleans as ORC stores them (PRESENT streams, BOOLEAN columns), the counterpart of
 * {@link BooleanDecoder}: eight to a byte, the first in the most significant bit, the bytes
 * byte-run-length encoded. A position is the byte encoder's, then the bits already taken of the
 * byte being filled.
 */
final class BooleanEncoder
        implements ValueEncoder
{
    private final ByteRleEncoder bytes;
    private int current;
    private int bits;

    BooleanEncoder(OrcOutputBuffer output)
    {
        this.bytes = new ByteRleEncoder(output);
    }

    void write(boolean value)
    {
        current = current << 1 | (value ? 1 : 0);
        bits++;
        if (bits == 8) {
            bytes.write((byte) current);
            current = 0;
            bits = 0;
        }
    }

    @Override
    public void recordPosition(OrcOutputBuffer.PositionList positions)
    {
        bytes.recordPosition(positions);
        positions.add(bits);
    }

    int positionCount()
    {
        return bytes.positionCount() + 1;
    }

    /**
     * Writes the pending values out, the last byte padded with zero bits.
     */
    @Override
    public void flush()
    {
        if (bits > 0) {
            bytes.write((byte) (current << (8 - bits)));
            current = 0;
            bits = 0;
        }
        bytes.flush();
    }
}
