package io.tarn.storage.read.merge;

import java.io.IOException;

/**
 * Folds all records of one key, in merge order (sequence ascending), into one result. The reader
 * calls it only for keys with two or more records; a lone record is the result as it is, as in
 * Paimon's reducer. A result whose kind is -U or -D means the key has no row.
 *
 * <p>{@code add} throws {@link io.tarn.storage.UnsupportedTableFeatureException} for records the
 * engine cannot merge (Paimon's reader fails on them too) and
 * {@link io.tarn.storage.CorruptFileException} for records that break the schema. Public for the
 * merge-on-read split reader only: not API.
 */
interface MergeFunction
{
    void reset();

    void add(KeyValue record)
            throws IOException;

    KeyValue result();
}
