package io.tarn.vector.reader;

import static java.util.Objects.requireNonNull;

/**
 * One string or binary column of a batch as ids into the dictionary its values were decoded
 * from: row {@code i} holds value {@code ids[i]} of the dictionary, or null when {@code ids[i]}
 * is -1. Value {@code k} of the dictionary is {@code dictionaryBytes[dictionaryOffsets[k],
 * dictionaryOffsets[k + 1])}, for {@code k < dictionarySize}.
 * <p>
 * Only for batches whose every value came from dictionary-encoded pages of one row group. The
 * arrays belong to the reader and must not be changed: the dictionary arrays stay the same (and
 * unchanged) for every batch of a row group, so a consumer may key what it builds from them on
 * their identity; {@code ids} changes with the next batch.
 */
public record DictionaryIds(byte[] dictionaryBytes, int[] dictionaryOffsets, int dictionarySize, int[] ids, int rows)
{
    public DictionaryIds
    {
        requireNonNull(dictionaryBytes, "dictionaryBytes is null");
        requireNonNull(dictionaryOffsets, "dictionaryOffsets is null");
        requireNonNull(ids, "ids is null");
        if (dictionarySize < 0 || dictionaryOffsets.length <= dictionarySize || rows < 0 || ids.length < rows) {
            throw new IllegalArgumentException("Dictionary of " + dictionarySize + " values with " + dictionaryOffsets.length + " offsets, "
                    + ids.length + " ids for " + rows + " rows");
        }
    }
}
