package io.tarn.storage.source;

import io.tarn.storage.read.RawSplitReader;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.RowTrackingFields;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.read.merge.MergeSplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;

/**
 * Opens the reader a split needs. It lives a layer above both kinds of reader, the raw one in
 * {@code read} and merge-on-read in {@code read.merge} (which builds on the raw one), so that
 * neither package reaches the other's caller.
 */
public final class SplitReaders
{
    private SplitReaders() {}

    /**
     * A reader of {@code split}, which opens no file before its first batch: merge-on-read when
     * the split's files must be merged by key, else the files read as they are. Its counters
     * include the object-store requests it made.
     *
     * @param readSchema the schema rows are read with: the plan's ({@code ScanPlan.readSchema()})
     */
    public static SplitReader open(PaimonTable table, TableSchema readSchema, DataSplit split, ReadRequest request, BufferAllocator allocator)
            throws IOException
    {
        if (split.mergeRequired()) {
            // Paimon tracks rows only in append tables, which never merge
            request.columns().stream().filter(column -> RowTrackingFields.byId(column.id()).isPresent()).findFirst().ifPresent(column -> {
                throw new IllegalArgumentException("Table " + table.name() + " merges rows by primary key and does not track rows: it has no column " + column.name());
            });
            return new ObjectStoreCountingReader(new MergeSplitReader(table, readSchema, split, request, allocator));
        }
        return new ObjectStoreCountingReader(RawSplitReader.open(table, readSchema, split, request, allocator));
    }
}
