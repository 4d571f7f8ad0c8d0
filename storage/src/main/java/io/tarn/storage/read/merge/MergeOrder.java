package io.tarn.storage.read.merge;

import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.ValueComparator;

import java.util.List;

/**
 * The order in which {@link SurvivorSelector} merges the records of a primary-key table: key,
 * then the user sequence fields (nulls first), then {@code _SEQUENCE_NUMBER}.
 */
final class MergeOrder
{
    private final List<DataField> keyFields;
    private final List<DataType> keyTypes;
    // a key of one TINYINT, SMALLINT, INT or BIGINT column: compared as a long
    private final boolean integralKey;
    private final List<DataField> sequenceFields;
    private final boolean sequenceAscending;

    MergeOrder(List<DataField> keyFields, List<DataField> sequenceFields, boolean sequenceAscending)
    {
        this.keyFields = List.copyOf(keyFields);
        this.keyTypes = this.keyFields.stream().map(DataField::type).toList();
        this.integralKey = keyFields.size() == 1 && switch (keyTypes.get(0).root()) {
            case TINYINT, SMALLINT, INT, BIGINT -> true;
            default -> false;
        };
        this.sequenceFields = List.copyOf(sequenceFields);
        this.sequenceAscending = sequenceAscending;
    }

    List<DataField> keyFields()
    {
        return keyFields;
    }

    List<DataType> keyTypes()
    {
        return keyTypes;
    }

    /**
     * Whether the key is one integral column, whose values {@link KeyCursor#longKey} holds.
     */
    boolean integralKey()
    {
        return integralKey;
    }

    List<DataField> sequenceFields()
    {
        return sequenceFields;
    }

    int compare(KeyCursor left, KeyCursor right)
    {
        int order = compareKeys(left, right);
        if (order != 0) {
            return order;
        }
        for (int i = 0; i < sequenceFields.size(); i++) {
            Object a = left.sequenceValue(i);
            Object b = right.sequenceValue(i);
            order = MergeFunctions.compareSequenceValues(sequenceFields.get(i).type(), sequenceAscending, a, b);
            if (order != 0) {
                return order;
            }
        }
        return Long.compare(left.sequenceNumber(), right.sequenceNumber());
    }

    int compareKeys(KeyCursor left, KeyCursor right)
    {
        return integralKey ? Long.compare(left.longKey(), right.longKey()) : compareKeys(left.key(), right.key());
    }

    boolean hasKey(KeyCursor cursor, long longKey, Object[] key)
    {
        return integralKey ? cursor.longKey() == longKey : compareKeys(cursor.key(), key) == 0;
    }

    int compareKeys(Object[] left, Object[] right)
    {
        for (int i = 0; i < left.length; i++) {
            int order = ValueComparator.compare(keyTypes.get(i), left[i], right[i]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }
}
