package io.tarn.vector.orc;

/**
 * ORC's byte run-length encoding, the counterpart of {@link ByteRleDecoder}: groups of a control
 * byte then data. A control byte {@code c} in 0..127 is a run of {@code c + 3} copies of the
 * byte that follows; {@code c} in -128..-1 is followed by {@code -c} literal bytes. Values wait
 * in a pending group until it is complete; three equal values in a row end the literals before
 * them and start a run.
 */
final class ByteRleEncoder
        implements ValueEncoder
{
    private static final int MIN_RUN = 3;
    private static final int MAX_RUN = 127 + MIN_RUN;
    private static final int MAX_LITERALS = 128;

    private final OrcOutputBuffer output;
    private final byte[] literals = new byte[MAX_LITERALS];
    private int literalCount;
    private int runLength;
    private byte runValue;

    ByteRleEncoder(OrcOutputBuffer output)
    {
        this.output = output;
    }

    void write(byte value)
    {
        if (runLength > 0) {
            if (value == runValue && runLength < MAX_RUN) {
                runLength++;
                return;
            }
            writeRun();
        }
        literals[literalCount++] = value;
        if (literalCount >= MIN_RUN && literals[literalCount - 2] == value && literals[literalCount - 3] == value) {
            literalCount -= MIN_RUN;
            writeLiterals();
            runValue = value;
            runLength = MIN_RUN;
        }
        else if (literalCount == MAX_LITERALS) {
            writeLiterals();
        }
    }

    /**
     * Adds the stream's position and the number of values pending in the group that will start
     * there.
     */
    @Override
    public void recordPosition(OrcOutputBuffer.PositionList positions)
    {
        output.recordPosition(positions);
        positions.add(runLength > 0 ? runLength : literalCount);
    }

    int positionCount()
    {
        return output.positionCount() + 1;
    }

    /**
     * Writes the pending values out.
     */
    @Override
    public void flush()
    {
        if (runLength > 0) {
            writeRun();
        }
        writeLiterals();
    }

    private void writeRun()
    {
        output.write(runLength - MIN_RUN);
        output.write(runValue);
        runLength = 0;
    }

    private void writeLiterals()
    {
        if (literalCount == 0) {
            return;
        }
        output.write(-literalCount);
        output.write(literals, 0, literalCount);
        literalCount = 0;
    }
}
