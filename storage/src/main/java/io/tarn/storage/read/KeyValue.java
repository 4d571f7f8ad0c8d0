package io.tarn.storage.read;

import static java.util.Objects.requireNonNull;

/**
 * One record of a primary-key data file: its sequence number, row kind ({@code _VALUE_KIND}: 0
 * +I, 1 -U, 2 +U, 3 -D) and the values of the columns being merged, in internal representation.
 */
final class KeyValue
{
    static final byte INSERT = 0;
    static final byte UPDATE_BEFORE = 1;
    static final byte UPDATE_AFTER = 2;
    static final byte DELETE = 3;

    private final long sequenceNumber;
    private final byte kind;
    private final Object[] values;

    KeyValue(long sequenceNumber, byte kind, Object[] values)
    {
        this.sequenceNumber = sequenceNumber;
        this.kind = kind;
        this.values = requireNonNull(values, "values is null");
    }

    long sequenceNumber()
    {
        return sequenceNumber;
    }

    byte kind()
    {
        return kind;
    }

    /**
     * The values array itself, not a copy: merge functions build new arrays instead of changing it.
     */
    Object[] values()
    {
        return values;
    }

    boolean isRetract()
    {
        return kind == UPDATE_BEFORE || kind == DELETE;
    }
}
