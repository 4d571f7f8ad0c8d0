package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.reader.CarriedColumn;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.reader.ParquetReadOptions;
import io.tarn.vector.reader.ParquetReader;
import io.tarn.vector.ParquetUnsupportedException;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.List;
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
        // the file must hold the fields of the schema it was written with, laid out as their types
        // say; only fields that schema lacks (added later) read as nulls
        List<DataField> fileFields = table.schema(meta.schemaId()).fields();
        ParquetReader reader;
        try {
            reader = ParquetReader.open(new FileIOParquetInput(table.fileIO().newInputFile(path)), options, fileFields, allocator);
        }
        catch (ParquetCorruptionException | ParquetUnsupportedException e) {
            throw inTable(table, e);
        }
        if (reader.fileRowCount() != meta.rowCount()) {
            reader.close();
            throw new CorruptFileException("Table " + table.name() + ": data file " + path + " has " + reader.fileRowCount() + " rows by its footer but " + meta.rowCount() + " by its manifest entry");
        }
        return reader;
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
