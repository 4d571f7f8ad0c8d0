package io.tarn.storage.read;

import io.tarn.index.fileindex.FileIndexResult;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.DeletionFile;
import io.tarn.storage.scan.FileIndexFilter;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.RowRange;
import io.tarn.storage.table.PaimonTable;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Which rows of one data file a split reads, before any filter is tested on them: the rows
 * chosen before reading (a merge's survivors), narrowed to the split's row range, less the rows
 * the file's deletion vector deletes, narrowed to what the file index gives. The file index is
 * evaluated after the deletion vector is subtracted, so a file whose indexed rows are all deleted
 * is skipped too.
 *
 * <p>The bitmaps are made for the caller, which owns them from then on (the reader of the file
 * reads by {@code rows}; {@code deleted} counts what a split handed over later passes).
 *
 * @param rows the rows to read, or empty for all of the file's rows
 * @param deleted the rows the deletion vector deletes, or empty without one
 * @param rowsDeleted how many rows of the split's part of the file are deleted
 * @param exact whether a bitmap index answered the whole filter exactly for {@code rows}, so that
 *         nothing is left to test on them
 * @param skip whether the file index proves that no live row matches: the file is not read
 * @param indexCounters what the file index selected, skipped and ignored
 */
record FileRowSelection(Optional<RoaringBitmap> rows, Optional<RoaringBitmap> deleted, long rowsDeleted, boolean exact, boolean skip, Counters indexCounters)
{
    FileRowSelection
    {
        requireNonNull(rows, "rows is null");
        requireNonNull(deleted, "deleted is null");
        requireNonNull(indexCounters, "indexCounters is null");
    }

    /**
     * The rows of {@code file} to read. {@code chosen} (may be null: no choice) is not modified;
     * {@code indexFilter} is evaluated only when present.
     */
    static FileRowSelection of(PaimonTable table, PlannedFile file, Optional<RowRange> rowRange, RoaringBitmap chosen, Optional<FileIndexFilter> indexFilter)
            throws IOException
    {
        DataFileMeta meta = file.file();
        RoaringBitmap selection = chosen == null ? null : chosen.clone();
        if (rowRange.isPresent()) {
            // the split reads a range of the file's rows; other splits read the rest
            RoaringBitmap range = RoaringBitmap.bitmapOfRange(rowRange.get().start(), rowRange.get().end());
            selection = selection == null ? range : RoaringBitmap.and(selection, range);
        }
        RoaringBitmap deleted = null;
        long rowsDeleted = 0;
        if (file.deletionFile().isPresent()) {
            deleted = readDeletionVector(table, file.deletionFile().get(), meta);
            if (selection == null) {
                selection = RoaringBitmap.bitmapOfRange(0, meta.rowCount());
            }
            rowsDeleted = rowRange.isPresent() ? RoaringBitmap.andCardinality(selection, deleted) : deleted.getLongCardinality();
            selection.andNot(deleted);
        }
        if (indexFilter.isEmpty()) {
            return new FileRowSelection(Optional.ofNullable(selection), Optional.ofNullable(deleted), rowsDeleted, false, false, Counters.empty(Counter.Stage.READING));
        }
        FileIndexFilter.Outcome outcome = indexFilter.get().evaluate(file);
        long live = selection == null ? meta.rowCount() : selection.getLongCardinality();
        FileIndexResult result = outcome.result();
        if (result instanceof FileIndexResult.Rows indexed) {
            selection = selection == null ? indexed.rows().clone() : RoaringBitmap.and(selection, indexed.rows());
            if (selection.isEmpty()) {
                result = FileIndexResult.SKIP;
            }
        }
        if (result.skip()) {
            return new FileRowSelection(Optional.ofNullable(selection), Optional.ofNullable(deleted), rowsDeleted, false, true,
                    ReadCounters.fileIndex(1, 0, live, outcome.indexesIgnored()));
        }
        boolean bitmap = result instanceof FileIndexResult.Rows;
        long selected = bitmap ? selection.getLongCardinality() : live;
        Counters counters = ReadCounters.fileIndex(0, bitmap ? selected : 0, live - selected, outcome.indexesIgnored());
        return new FileRowSelection(Optional.ofNullable(selection), Optional.ofNullable(deleted), rowsDeleted, bitmap && result.exact(), false, counters);
    }

    private static RoaringBitmap readDeletionVector(PaimonTable table, DeletionFile range, DataFileMeta meta)
            throws IOException
    {
        RoaringBitmap deleted;
        try {
            deleted = DeletionVectorReader.read(table.fileIO().newInputFile(table.indexFilePath(range.indexFileName())), range);
        }
        catch (CorruptFileException e) {
            throw new CorruptFileException("Table " + table.name() + ", deletion vector of " + meta.fileName() + ": " + e.getMessage(), e);
        }
        if (!deleted.isEmpty() && Integer.toUnsignedLong(deleted.last()) >= meta.rowCount()) {
            throw new CorruptFileException("Table " + table.name() + ": the deletion vector of " + meta.fileName() + " in index file " + range.indexFileName()
                    + " deletes row " + Integer.toUnsignedLong(deleted.last()) + ", but the file has " + meta.rowCount() + " rows");
        }
        return deleted;
    }
}
