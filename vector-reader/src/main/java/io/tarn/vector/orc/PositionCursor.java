package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

/**
 * The positions of one row index entry, consumed in the order of the column's streams (fixed per
 * column kind and encoding, see the ORC specification): for each stream its place in the stored
 * bytes (the chunk start and the offset into the decompressed chunk when compressed, the byte
 * offset when not), then for run-length encoded streams the values to skip in the run there.
 */
final class PositionCursor
{
    private final long[] positions;
    private int next;

    PositionCursor(long[] positions)
    {
        this.positions = positions;
    }

    long next()
    {
        if (next >= positions.length) {
            throw new CorruptDataException("Row index entry has " + positions.length + " positions, fewer than its column's streams need");
        }
        return positions[next++];
    }

    /**
     * Moves {@code stream} to the place the next numbers give.
     */
    void seek(DecompressedStream stream)
    {
        if (stream.isCompressed()) {
            long chunk = next();
            stream.seek(chunk, next());
        }
        else {
            stream.seek(0, next());
        }
    }
}
