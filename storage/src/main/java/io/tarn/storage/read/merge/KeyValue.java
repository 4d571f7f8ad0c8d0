package io.tarn.storage.read.merge;

import static java.util.Objects.requireNonNull;

/**
 * One record of a primary-key data file: its sequence number, row kind ({@code _VALUE_KIND}: 0
 * +I, 1 -U, 2 +U, 3 -D) and the values of the columns being merged, in internal representation. Public for the merge-on-read split reader only: not API.
 */
final class KeyValue
{
    public static final byte INSERT = 0;
    public static final byte UPDATE_BEFORE = 1;
    public static final byte UPDATE_AFTER = 2;
    public static final byte DELETE = 3;

    private final long sequenceNumber;
    private final byte kind;
    private final Object[] values;

    public KeyValue(long sequenceNumber, byte kind, Object[] values)
    {
        this.sequenceNumber = sequenceNumber;
        this.kind = kind;
        this.values = requireNonNull(values, "values is null");
    }

    public long sequenceNumber()
    {
        return sequenceNumber;
    }

    public byte kind()
    {
        return kind;
    }

    /**
     * The values array itself, not a copy: merge functions build new arrays instead of changing it.
     */
    public Object[] values()
    {
        return values;
    }

    public boolean isRetract()
    {
        return kind == UPDATE_BEFORE || kind == DELETE;
    }
}
