package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

/**
 * A run-length decoder of 64-bit integers (ORC's RLE v1 or v2), signed (zigzag) or unsigned. A
 * run is decoded whole into a buffer, from which values are handed out.
 */
abstract class IntegerDecoder
{
    final DecompressedStream input;
    final boolean signed;
    final long[] literals;
    int size;
    int used;

    IntegerDecoder(DecompressedStream input, boolean signed, int maxRun)
    {
        this.input = input;
        this.signed = signed;
        this.literals = new long[maxRun];
    }

    static IntegerDecoder create(DecompressedStream input, boolean signed, boolean v2)
    {
        return v2 ? new IntegerRleV2Decoder(input, signed) : new IntegerRleV1Decoder(input, signed);
    }

    /**
     * Decodes the next run into {@code literals[0, size)}.
     */
    final void readRun()
    {
        readRun(literals, 0);
    }

    /**
     * Decodes the next run into {@code target[at, at + size)}, which has room for the longest
     * run.
     */
    abstract void readRun(long[] target, int at);

    /**
     * Passes over whole runs, without decoding their values, while the next run has at most
     * {@code count} values, and returns how many values it passed over; called between runs. By
     * default it passes over none, and runs are decoded to be skipped.
     */
    long skipRuns(long count)
    {
        return 0;
    }

    final long next()
    {
        if (used == size) {
            readRun();
            used = 0;
        }
        return literals[used++];
    }

    final void next(long[] values, int offset, int count)
    {
        while (count > 0) {
            if (used == size) {
                if (count >= literals.length) {
                    // room for a whole run: decode it in place, without the copy from literals
                    readRun(values, offset);
                    int n = size;
                    size = 0;
                    used = 0;
                    offset += n;
                    count -= n;
                    continue;
                }
                readRun();
                used = 0;
            }
            int n = Math.min(count, size - used);
            System.arraycopy(literals, used, values, offset, n);
            used += n;
            offset += n;
            count -= n;
        }
    }

    final void skip(long count)
    {
        while (count > 0) {
            if (used == size) {
                count -= skipRuns(count);
                if (count == 0) {
                    break;
                }
                readRun();
                used = 0;
            }
            int n = (int) Math.min(count, size - used);
            used += n;
            count -= n;
        }
    }

    /**
     * Moves to a row index position: the stream's, then the values to skip in the run there.
     */
    final void seek(PositionCursor positions)
    {
        positions.seek(input);
        size = 0;
        used = 0;
        long consumed = positions.next();
        if (consumed < 0) {
            throw new CorruptDataException("Row index position " + consumed + " in stream " + input.name());
        }
        // the writer may have emitted the values pending at the position as several runs
        while (consumed > 0) {
            readRun();
            if (consumed <= size) {
                used = (int) consumed;
                break;
            }
            consumed -= size;
        }
    }

    final long readVarint()
    {
        return input.readVarint();
    }

    final long readSignedVarint()
    {
        return ProtobufReader.zigzag(readVarint());
    }

    final long decode(long value)
    {
        return signed ? ProtobufReader.zigzag(value) : value;
    }
}
