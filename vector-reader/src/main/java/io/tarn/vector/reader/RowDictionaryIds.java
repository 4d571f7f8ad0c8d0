package io.tarn.vector.reader;

import io.tarn.vector.reader.decoders.ValueBuffer;

import java.util.Optional;

/**
 * The dictionary ids of a batch's rows, from the ids a {@link ColumnReader} records per value:
 * those are the rows' ids unless the batch has nulls, which take no value; the rows' ids are then
 * spread out by the definition levels into an array reused from batch to batch.
 */
final class RowDictionaryIds
{
    private int[] rowIds = new int[0];

    /**
     * The ids of the {@code rows} rows of the batch {@code reader} just read, when every value
     * of the batch came from dictionary-encoded pages.
     */
    Optional<DictionaryIds> of(ColumnReader reader, int rows)
    {
        ValueBuffer dictionary = reader.dictionary();
        if (reader.valuesLeftAsIds() && reader.valueIdCount > 0 && (dictionary == null || reader.entries != rows)) {
            // the vector holds nulls in place of these values: the ids must not go missing
            throw new IllegalStateException("Values left as dictionary ids cannot be handed over: " + reader.entries + " entries for " + rows + " rows");
        }
        boolean everyValueHasItsId = reader.valuesLeftAsIds() || reader.valueIdCount == reader.values.count;
        if (dictionary == null || !reader.valueIdsComplete || !everyValueHasItsId || reader.entries != rows) {
            return Optional.empty();
        }
        if (reader.valueIdCount == rows) {
            // a value per row: the values' ids are the rows' ids
            return Optional.of(new DictionaryIds(dictionary.bytes, dictionary.offsets, dictionary.count, reader.valueIds, rows));
        }
        if (rowIds.length < rows) {
            rowIds = new int[ValueBuffer.grow(rowIds.length, rows)];
        }
        // nulls take no value: walk the definition levels
        int value = 0;
        for (int row = 0; row < rows; row++) {
            rowIds[row] = reader.definitions[row] == reader.maxDefinition() ? reader.valueIds[value++] : -1;
        }
        return Optional.of(new DictionaryIds(dictionary.bytes, dictionary.offsets, dictionary.count, rowIds, rows));
    }
}
