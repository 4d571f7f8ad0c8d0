package io.tarn.index.fileindex;

/**
 * Builds one index over the values of one column of one data file, given in row order.
 */
public interface FileIndexWriter
{
    /**
     * Adds the value of the next row, in the internal representation of the column's type, or
     * null.
     */
    void add(Object value);

    /**
     * The index payload for the rows added so far.
     */
    byte[] serialize();
}
