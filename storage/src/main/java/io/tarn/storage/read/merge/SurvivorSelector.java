package io.tarn.storage.read.merge;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.DataFileReaders;
import io.tarn.storage.read.FetchAheadQueue;
import io.tarn.storage.read.RawSplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.schema.MergeEngine;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.reader.ReadOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Finds the surviving row of every key of a merge-on-read split of a {@code deduplicate} or
 * {@code first-row} table from the key, sequence and kind columns alone: those engines keep one
 * whole record per key (the newest, or the first), so no value needs merging. The result, a row
 * selection per data file, lets the value columns be read columnar, decoding only survivors, and
 * lets a value filter skip row groups and pages safely: a stale version of a row is not selected,
 * so no filter can bring it back. No retraction row is ever selected.
 *
 * <p>The key is read from the record's value columns, as Paimon's reader does (a record's value
 * holds its key fields; the {@code _KEY_} columns are copies, absent in thin mode). Costs are kept
 * per row where it matters:
 * <ul>
 * <li>a key of one integral column is compared as a {@code long}, without boxing;</li>
 * <li>a record whose key is below the current key of every other file is its key's only record
 *     (a file holds each key once; a repeated key in one file is still merged): it survives unless
 *     it is a retraction, without going through the merge queue;</li>
 * <li>{@code _VALUE_KIND} is read only from files that may hold a retraction
 *     ({@link RawSplitReader#mayHoldRetractions});</li>
 * <li>a file whose key range (from its metadata) overlaps no other file's and that holds no
 *     retraction is not opened at all: every row survives (Paimon's non-overlapping sections).</li>
 * </ul>
 */
final class SurvivorSelector
{
    private static final int BATCH_SIZE = 4096;

    /**
     * The selected rows of each data file of the split, by file name, the files opened for their
     * keys, by name, holding what was fetched of them (on an object store a small file whole),
     * so that the value pass reads them without fetching them again, what reading the key columns
     * cost, and how many files with rows were not opened for their keys (all their rows survive).
     */
    record Survivors(Map<String, RoaringBitmap> rowsByFile, Map<String, InputFile> keyedFiles, Counters metrics, int filesNotOpened)
    {
        Survivors
        {
            rowsByFile = Map.copyOf(rowsByFile);
            keyedFiles = Map.copyOf(keyedFiles);
            requireNonNull(metrics, "metrics is null");
        }
    }

    private final PaimonTable table;
    private final boolean firstRow;
    private final boolean ignoreDelete;
    private final MergeOrder order;
    private final List<DataField> columns;
    private final List<DataField> columnsWithKind;

    private SurvivorSelector(PaimonTable table, TableSchema readSchema)
            throws UnsupportedTableFeatureException
    {
        this.table = table;
        TableOptions options = new TableOptions(table.name(), readSchema.options());
        this.firstRow = options.mergeEngine() == MergeEngine.FIRST_ROW;
        this.ignoreDelete = options.ignoreDelete();
        boolean sequenceAscending = options.sequenceAscending();
        List<DataField> keys = new ArrayList<>();
        for (String name : readSchema.trimmedPrimaryKeys()) {
            keys.add(field(readSchema, name, "primary key"));
        }
        List<DataField> sequence = new ArrayList<>();
        for (String name : options.sequenceFields()) {
            sequence.add(field(readSchema, name, "sequence.field"));
        }
        this.order = new MergeOrder(keys, sequence, sequenceAscending);
        this.columns = KeyCursor.columns(order, false);
        this.columnsWithKind = KeyCursor.columns(order, true);
    }

    /**
     * Whether a table's merge engine keeps whole records, so that its splits can be merged by
     * selecting survivors.
     */
    static boolean supports(String table, TableSchema readSchema)
            throws UnsupportedTableFeatureException
    {
        MergeEngine engine = new TableOptions(table, readSchema.options()).mergeEngine();
        return engine == MergeEngine.DEDUPLICATE || engine == MergeEngine.FIRST_ROW;
    }

    static Survivors select(PaimonTable table, TableSchema readSchema, DataSplit split, BufferAllocator allocator)
            throws IOException
    {
        if (!supports(table.name(), readSchema)) {
            throw new IllegalArgumentException("Table " + table.name() + ": survivors are defined for the deduplicate and first-row merge engines only");
        }
        SurvivorSelector selector = new SurvivorSelector(table, readSchema);
        return selector.select(split, allocator);
    }

    private Survivors select(DataSplit split, BufferAllocator allocator)
            throws IOException
    {
        Map<String, RoaringBitmap> survivors = new HashMap<>();
        Map<String, InputFile> keyedFiles = new HashMap<>();
        List<KeyCursor> cursors = new ArrayList<>();
        int filesNotOpened = 0;
        try {
            List<PlannedFile> files = split.files();
            for (PlannedFile file : files) {
                if (file.deletionFile().isPresent()) {
                    throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + file.file().fileName()
                            + " has a deletion vector but its split needs merging; Tarn does not merge with deletion vectors");
                }
            }
            boolean[] isolated = KeyRanges.isolatedFiles(files, order);
            List<PlannedFile> keyed = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                DataFileMeta meta = files.get(i).file();
                if (isolated[i] && !RawSplitReader.mayHoldRetractions(meta)) {
                    survivors.put(meta.fileName(), RoaringBitmap.bitmapOfRange(0, meta.rowCount()));
                    filesNotOpened += meta.rowCount() > 0 ? 1 : 0;
                }
                else {
                    keyed.add(files.get(i));
                }
            }
            CursorHeap queue = new CursorHeap(order, keyed.size());
            // every other file is opened at once: on an object store their first fetches run side by side
            try (FetchAheadQueue ahead = new FetchAheadQueue(table, keyed, file -> true)) {
                ahead.start(0);
                for (int i = 0; i < keyed.size(); i++) {
                    PlannedFile file = keyed.get(i);
                    boolean readsKinds = RawSplitReader.mayHoldRetractions(file.file());
                    ReadOptions options = ReadOptions.of(readsKinds ? columnsWithKind : columns).withBatchSize(BATCH_SIZE);
                    InputFile input = ahead.take(i);
                    keyedFiles.put(file.file().fileName(), input);
                    KeyCursor cursor = new KeyCursor(table, file, order, readsKinds, DataFileReaders.open(table, file, input, options, allocator));
                    cursors.add(cursor);
                    if (cursor.next()) {
                        queue.push(cursor);
                    }
                }
            }
            KeyMerge merge = new KeyMerge(table.name(), firstRow, ignoreDelete);
            while (queue.size() > 0) {
                KeyCursor cursor = queue.top();
                KeyCursor next = queue.second();
                if (next != null && order.compareKeys(cursor, next) == 0) {
                    mergeKey(queue, merge);
                    continue;
                }
                // the keys of this file below the current key of every other file: each has no
                // record elsewhere, so it is merged within its file alone, without the queue
                while (true) {
                    if (order.integralKey()) {
                        cursor.takeSingleKeys(next);
                    }
                    merge.start();
                    merge.add(cursor);
                    boolean more = cursor.advance();
                    while (more && cursor.repeatsKey()) {
                        merge.add(cursor);
                        more = cursor.advance();
                    }
                    merge.finish();
                    if (!more) {
                        queue.pop();
                        break;
                    }
                    if (next != null && order.compareKeys(cursor, next) >= 0) {
                        queue.topChanged();
                        break;
                    }
                }
            }
            for (KeyCursor cursor : cursors) {
                survivors.put(cursor.fileName(), cursor.survivors());
            }
        }
        finally {
            for (KeyCursor cursor : cursors) {
                cursor.close();
            }
        }
        Counters metrics = Counters.empty(Counter.Stage.READING);
        for (KeyCursor cursor : cursors) {
            metrics = metrics.plus(cursor.metrics());
        }
        return new Survivors(survivors, keyedFiles, metrics, filesNotOpened);
    }

    /**
     * Merges the records of the key of the queue's first cursor, which other files hold too.
     */
    private void mergeKey(CursorHeap queue, KeyMerge merge)
            throws IOException
    {
        KeyCursor first = queue.top();
        long longKey = first.longKey();
        Object[] key = first.key();
        merge.start();
        while (queue.size() > 0 && order.hasKey(queue.top(), longKey, key)) {
            KeyCursor current = queue.top();
            merge.add(current);
            if (current.advance()) {
                queue.topChanged();
            }
            else {
                queue.pop();
            }
        }
        merge.finish();
    }

    private DataField field(TableSchema schema, String name, String role)
            throws UnsupportedTableFeatureException
    {
        return schema.fields().stream()
                .filter(field -> field.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new UnsupportedTableFeatureException("Table " + table.name() + ": " + role + " column '" + name + "' is not in schema " + schema.id()));
    }
}
