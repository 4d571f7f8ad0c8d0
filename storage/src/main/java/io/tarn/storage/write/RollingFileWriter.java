package io.tarn.storage.write;

import io.tarn.index.fileindex.FileIndexBuilder;
import io.tarn.index.fileindex.FileIndexOptions.IndexSpec;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.scan.FileIndexFilter;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.tarn.vector.rows.ArrowValues;
import io.tarn.vector.writer.DataFileWriter;
import io.tarn.vector.writer.DataFileWriteResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The data files of one partition and bucket of an append table: rows go to the current file
 * until it reaches the target size, then a new file starts. Each finished file becomes a
 * {@link DataFileMeta} with its value statistics, a range of sequence numbers (one per row) and
 * the file indexes the table asks for: embedded in the metadata up to
 * {@code file-index.in-manifest-threshold} bytes, else written beside the data file as
 * {@code <data file>.index} and listed among its extra files.
 */
final class RollingFileWriter
{
    private final FileIO fileIO;
    private final String directory;
    private final Supplier<String> fileNames;
    private final TableSchema schema;
    private final DataFileFormat format;
    private final ValueStatsBuilder statsBuilder;
    private final long targetFileSize;
    private final BufferAllocator allocator;
    private final List<IndexSpec> indexSpecs;
    private final long indexInManifestThreshold;
    private final List<DataFileMeta> finished = new ArrayList<>();
    private final List<String> writtenPaths = new ArrayList<>();

    private long nextSequenceNumber;
    private DataFileWriter current;
    private String currentName;
    private long currentFirstSequenceNumber;
    private FileIndexBuilder currentIndex;
    private int[] indexColumns;

    RollingFileWriter(FileIO fileIO, String directory, Supplier<String> fileNames, TableSchema schema, DataFileFormat format,
            ValueStatsBuilder statsBuilder, long targetFileSize, long firstSequenceNumber, List<IndexSpec> indexSpecs, long indexInManifestThreshold,
            BufferAllocator allocator)
    {
        this.fileIO = fileIO;
        this.directory = directory;
        this.fileNames = fileNames;
        this.schema = schema;
        this.format = format;
        this.statsBuilder = statsBuilder;
        this.targetFileSize = targetFileSize;
        this.nextSequenceNumber = firstSequenceNumber;
        this.allocator = allocator;
        this.indexSpecs = List.copyOf(indexSpecs);
        this.indexInManifestThreshold = indexInManifestThreshold;
    }

    void write(VectorSchemaRoot batch)
            throws IOException
    {
        if (current == null) {
            currentName = fileNames.get();
            String path = directory + currentName;
            writtenPaths.add(path);
            current = format.open(fileIO.newOutputStream(path), currentName, schema.rowType(), allocator);
            currentFirstSequenceNumber = nextSequenceNumber;
            currentIndex = FileIndexBuilder.create(indexSpecs, schema.rowType()).orElse(null);
            if (currentIndex != null && indexColumns == null) {
                indexColumns = currentIndex.sourceColumns().stream().mapToInt(field -> schema.fields().indexOf(field)).toArray();
            }
        }
        current.write(batch);
        if (currentIndex != null) {
            addToIndex(batch);
        }
        nextSequenceNumber += batch.getRowCount();
        if (current.bytesWritten() >= targetFileSize) {
            finishCurrent();
        }
    }

    /**
     * Finishes the open file and returns every file finished since the last call.
     */
    List<DataFileMeta> finish()
            throws IOException
    {
        finishCurrent();
        List<DataFileMeta> files = List.copyOf(finished);
        finished.clear();
        writtenPaths.clear();
        return files;
    }

    private void addToIndex(VectorSchemaRoot batch)
    {
        List<DataField> sources = currentIndex.sourceColumns();
        Object[] values = new Object[sources.size()];
        List<Object> row = Arrays.asList(values);
        for (int position = 0; position < batch.getRowCount(); position++) {
            for (int i = 0; i < values.length; i++) {
                values[i] = ArrowValues.value(batch.getVector(indexColumns[i]), position, sources.get(i).type());
            }
            currentIndex.add(row);
        }
    }

    long nextSequenceNumber()
    {
        return nextSequenceNumber;
    }

    /**
     * Closes the open file and deletes every file not yet handed out by {@link #finish()}.
     */
    void abort()
            throws IOException
    {
        try {
            if (current != null) {
                current.close();
                current = null;
            }
        }
        finally {
            for (String path : writtenPaths) {
                fileIO.delete(path);
            }
            writtenPaths.clear();
            finished.clear();
        }
    }

    private void finishCurrent()
            throws IOException
    {
        if (current == null) {
            return;
        }
        DataFileWriteResult result;
        try {
            result = current.finish();
        }
        finally {
            current.close();
            current = null;
        }
        ValueStatsBuilder.ValueStats stats = statsBuilder.build(result.statistics());
        byte[] embeddedIndex = null;
        List<String> extraFiles = List.of();
        if (currentIndex != null) {
            byte[] index = currentIndex.serialize();
            currentIndex = null;
            if (index.length > indexInManifestThreshold) {
                String indexName = currentName + FileIndexFilter.INDEX_FILE_SUFFIX;
                String indexPath = directory + indexName;
                writtenPaths.add(indexPath);
                fileIO.writeFile(indexPath, index, false);
                extraFiles = List.of(indexName);
            }
            else {
                embeddedIndex = index;
            }
        }
        finished.add(new DataFileMeta(
                currentName,
                result.fileSize(),
                result.rowCount(),
                BinaryRow.EMPTY,
                BinaryRow.EMPTY,
                SimpleStats.EMPTY,
                stats.stats(),
                currentFirstSequenceNumber,
                currentFirstSequenceNumber + result.rowCount() - 1,
                schema.id(),
                0,
                extraFiles,
                // Paimon records local wall-clock time here, not UTC epoch millis
                OptionalLong.of(LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli()),
                OptionalLong.of(0),
                embeddedIndex,
                OptionalInt.of(DataFileMeta.FILE_SOURCE_APPEND),
                stats.statsColumns(),
                Optional.empty(),
                OptionalLong.empty(),
                Optional.empty()));
    }
}
