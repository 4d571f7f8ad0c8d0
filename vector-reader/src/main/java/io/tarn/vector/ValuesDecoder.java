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

    void skip(int count);
}
