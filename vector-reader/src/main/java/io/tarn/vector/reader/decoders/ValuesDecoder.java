package io.tarn.vector.reader.decoders;

import io.tarn.vector.CorruptDataException;

/**
 * Decodes the non-null values of one data page, in bulk, into a {@link ValueBuffer}. Decoders
 * throw {@link CorruptDataException} when the page ends early or holds impossible values.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public interface ValuesDecoder
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

    /**
     * Consumes the next {@code count} binary values and appends to {@code out} whether each
     * equals one of {@code matcher}'s literals. This default decodes them first; encodings that
     * can compare in place override it.
     */
    default void match(ValueMatcher matcher, int count, MatchBits out)
    {
        ValueBuffer decoded = matcher.scratch();
        read(decoded, count);
        for (int i = 0; i < decoded.count; i++) {
            out.add(matcher.matches(decoded, i));
        }
    }

    /**
     * {@link #match} of the values that {@code selected} selects, as {@link #readSelected}.
     */
    default void matchSelected(ValueMatcher matcher, int count, long[] selected, MatchBits out)
    {
        ValueBuffer decoded = matcher.scratch();
        readSelected(decoded, count, selected);
        for (int i = 0; i < decoded.count; i++) {
            out.add(matcher.matches(decoded, i));
        }
    }
}
