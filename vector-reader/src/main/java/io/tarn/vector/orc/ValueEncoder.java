package io.tarn.vector.orc;

/**
 * A run-length encoder of one stream (bytes, booleans, integers): what a column writer needs of
 * it besides writing values, to index row groups and to finish a stripe.
 */
interface ValueEncoder
{
    /**
     * Adds the stream's position at the start of the next row group.
     */
    void recordPosition(OrcOutputBuffer.PositionList positions);

    /**
     * Writes the values still held in the encoder to its stream.
     */
    void flush();
}
