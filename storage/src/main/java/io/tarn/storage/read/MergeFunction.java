package io.tarn.storage.read;

import io.tarn.storage.UnsupportedTableFeatureException;

/**
 * Folds all records of one key, in merge order (sequence ascending), into one result. The reader
 * calls it only for keys with two or more records; a lone record is the result as it is, as in
 * Paimon's reducer. A result whose kind is -U or -D means the key has no row.
 */
interface MergeFunction
{
    void reset();

    void add(KeyValue record)
            throws UnsupportedTableFeatureException;

    KeyValue result();
}
