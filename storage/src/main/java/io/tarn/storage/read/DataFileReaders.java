package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.avro.AvroReader;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.orc.OrcReader;
import io.tarn.vector.reader.CarriedColumn;
import io.tarn.vector.reader.DataFileReader;
import io.tarn.vector.reader.ParquetReader;
import io.tarn.vector.reader.ReadOptions;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Opens a table's data files with the reader of their format, which Paimon tells by the file
 * name's extension (a table's files may mix formats after {@code file.format} changed, or under
 * {@code file.format.per.level}), and turns the readers' exceptions into the storage layer's,
 * naming the table as well as the file.
 */
public final class DataFileReaders
{
    private DataFileReaders() {}

    public static DataFileReader open(PaimonTable table, PlannedFile file, ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return open(table, file, inputFile(table, file), options, allocator);
    }

    /**
     * The data file of {@code file}, of the length its manifest entry records: an object store
     * needs no request to learn it.
     */
    static InputFile inputFile(PaimonTable table, PlannedFile file)
            throws IOException
    {
        DataFileMeta meta = file.file();
        return table.fileIO().newInputFile(table.dataFilePath(file.partition(), file.bucket(), meta, meta.fileName()), meta.fileSize());
    }

    /**
     * Opens {@code file} read through {@code inputFile} ({@link #inputFile}, perhaps fetched ahead).
     */
    public static DataFileReader open(PaimonTable table, PlannedFile file, InputFile inputFile, ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        DataFileMeta meta = file.file();
        String path = inputFile.path();
        // the file must hold the fields of the schema it was written with, laid out as their types
        // say; only fields that schema lacks (added later) read as nulls
        List<DataField> fileFields = table.schema(meta.schemaId()).fields();
        DataFileInput input = inputFile.remote() ? new RemoteDataInput(inputFile) : new FileIODataInput(inputFile);
        DataFileReader reader;
        try {
            reader = switch (extension(meta.fileName())) {
                case "parquet" -> ParquetReader.open(input, options, fileFields, allocator);
                case "orc" -> OrcReader.open(input, options, fileFields, new TableOptions(table.name(), table.schema().options()).orcTimestampLtzLegacyType(), allocator);
                case "avro" -> AvroReader.open(input, options, fileFields, allocator);
                default -> throw new UnsupportedTableFeatureException("Table " + table.name() + ": data file " + path
                        + " has a format Tarn does not read (by its extension); Tarn reads Parquet, ORC and Avro data files");
            };
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException e) {
            throw inTable(table, e);
        }
        if (reader.fileRowCount() != meta.rowCount()) {
            reader.close();
            throw new CorruptFileException("Table " + table.name() + ": data file " + path + " has " + reader.fileRowCount() + " rows by its footer but " + meta.rowCount() + " by its manifest entry");
        }
        return reader;
    }

    /**
     * A reader of the same file with other options and columns carried over from a filter pass
     * ({@link DataFileReader#reopen(ReadOptions, BufferAllocator, Map)}), without reading its
     * metadata again.
     */
    static DataFileReader reopen(PaimonTable table, DataFileReader reader, ReadOptions options, BufferAllocator allocator, Map<Integer, CarriedColumn> carried)
            throws IOException
    {
        try {
            return reader.reopen(options, allocator, carried);
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException e) {
            throw inTable(table, e);
        }
    }

    public static boolean nextBatch(PaimonTable table, DataFileReader reader)
            throws IOException
    {
        try {
            return reader.nextBatch();
        }
        catch (DataFileCorruptionException | DataFileUnsupportedException e) {
            throw inTable(table, e);
        }
    }

    private static String extension(String fileName)
    {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static IOException inTable(PaimonTable table, IOException e)
    {
        if (e instanceof DataFileUnsupportedException) {
            return new UnsupportedTableFeatureException("Table " + table.name() + ": " + e.getMessage(), e);
        }
        return new CorruptFileException("Table " + table.name() + ": " + e.getMessage(), e);
    }
}
