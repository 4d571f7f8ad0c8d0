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
     * Consumes the next {@code count} values and appends to {@code out} those selected by the
     * {@link SelectionMasks mask} {@code selected} (its bits from {@code count} on are clear).
     * Reads a dense row selection (all rows but the few a deletion vector removes, say) without
     * copying the values it leaves out where the encoding allows.
     */
    void readSelected(ValueBuffer out, int count, long[] selected);

    void skip(int count);
}
