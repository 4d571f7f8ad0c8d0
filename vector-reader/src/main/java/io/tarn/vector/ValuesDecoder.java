package io.tarn.vector;

/**
 * Decodes the non-null values of one data page, in bulk, into a {@link ValueBuffer}. Decoders
 * throw {@link CorruptDataException} when the page ends early or holds impossible values.
 */
interface ValuesDecoder
{
    /**
     * Appends the next {@code count} values to {@code out} and advances {@code out.count}.
     */
    void read(ValueBuffer out, int count);

    /**
     * Consumes the next {@code count} values but appends to {@code out} only those at the
     * strictly ascending indices {@code selected[0, selectedCount)}, each below {@code count}:
     * the values of a dense row selection, without copying the values of the rows it leaves out
     * where the encoding allows.
     */
    void readSelected(ValueBuffer out, int count, int[] selected, int selectedCount);

    void skip(int count);
}
