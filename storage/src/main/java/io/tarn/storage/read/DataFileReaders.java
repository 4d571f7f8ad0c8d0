package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.table.PaimonTable;
import io.tarn.vector.CarriedColumn;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetReadOptions;
import io.tarn.vector.ParquetReader;
import io.tarn.vector.ParquetUnsupportedException;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/**
 * Opens a table's data files with the Parquet reader and turns the reader's exceptions into the
 * storage layer's, naming the table as well as the file.
 */
final class DataFileReaders
{
    private DataFileReaders() {}

    static ParquetReader open(PaimonTable table, PlannedFile file, ParquetReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        DataFileMeta meta = file.file();
        if (!meta.fileName().toLowerCase(Locale.ROOT).endsWith(".parquet")) {
            throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + meta.fileName()
                    + " is not Parquet; Tarn reads only Parquet data files so far");
        }
        String path = table.dataFilePath(file.partition(), file.bucket(), meta, meta.fileName());
        try {
            return ParquetReader.open(new FileIOParquetInput(table.fileIO().newInputFile(path)), options, allocator);
        }
        catch (ParquetCorruptionException | ParquetUnsupportedException e) {
            throw inTable(table, e);
        }
    }

    /**
     * A reader of the same file with other options, without reading its footer again.
     */
    static ParquetReader reopen(PaimonTable table, ParquetReader reader, ParquetReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return reopen(table, reader, options, allocator, Map.of());
    }

    /**
     * {@link #reopen(PaimonTable, ParquetReader, ParquetReadOptions, BufferAllocator)} with
     * columns carried over from a filter pass ({@link ParquetReader#reopen(ParquetReadOptions, BufferAllocator, Map)}).
     */
    static ParquetReader reopen(PaimonTable table, ParquetReader reader, ParquetReadOptions options, BufferAllocator allocator, Map<Integer, CarriedColumn> carried)
            throws IOException
    {
        try {
            return reader.reopen(options, allocator, carried);
        }
        catch (ParquetCorruptionException | ParquetUnsupportedException e) {
            throw inTable(table, e);
        }
    }

    static boolean nextBatch(PaimonTable table, ParquetReader reader)
            throws IOException
    {
        try {
            return reader.nextBatch();
        }
        catch (ParquetCorruptionException | ParquetUnsupportedException e) {
            throw inTable(table, e);
        }
    }

    private static IOException inTable(PaimonTable table, IOException e)
    {
        if (e instanceof ParquetUnsupportedException) {
            return new UnsupportedTableFeatureException("Table " + table.name() + ": " + e.getMessage(), e);
        }
        return new CorruptFileException("Table " + table.name() + ": " + e.getMessage(), e);
    }
}
