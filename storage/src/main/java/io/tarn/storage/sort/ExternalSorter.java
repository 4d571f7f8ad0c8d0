package io.tarn.storage.sort;

import io.tarn.storage.source.TableRead;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

import static java.util.Objects.requireNonNull;

/**
 * Sorts Arrow batches by {@link RowKeys} within a memory budget. Batches are copied into memory
 * with their keys; when the copies and keys outgrow the budget they are sorted and spilled as one
 * run, an Arrow IPC stream in a temporary file. {@link #finish} sorts what is left and, if runs
 * were spilled, merges all runs {@value #MERGE_FAN_IN} at a time (earlier runs first among equal
 * keys, so the sort is stable). Runs are written in batches small enough that a merge, which holds
 * one batch of every run it reads, stays near the budget too.
 *
 * <p>Spill files belong to this sorter and are deleted by {@link #close()}; they are trusted:
 * nothing but this class reads them.
 */
final class ExternalSorter
        implements AutoCloseable
{
    static final int MERGE_FAN_IN = 64;
    private static final int MIN_SPILL_BATCH_ROWS = 16;

    private final Schema schema;
    private final RowKeys keys;
    private final Comparator<Object> keyOrder;
    private final long memoryBudget;
    private final int batchSize;
    private final SpillDirectory spillParent;
    private final BufferAllocator allocator;
    private final List<VectorSchemaRoot> buffered = new ArrayList<>();
    private final List<BufferedRow> rows = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();
    private Path spillDirectory;
    private long keyBytes;
    private int spillRows;
    private int runsSpilled;

    ExternalSorter(Schema schema, RowKeys keys, long memoryBudget, int batchSize, SpillDirectory spillParent, BufferAllocator allocator)
    {
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = requireNonNull(keys, "keys is null");
        this.keyOrder = keys.comparator();
        this.memoryBudget = memoryBudget;
        this.batchSize = batchSize;
        this.spillRows = batchSize;
        this.spillParent = requireNonNull(spillParent, "spillParent is null");
        this.allocator = requireNonNull(allocator, "allocator is null").newChildAllocator("external-sorter", 0, Long.MAX_VALUE);
    }

    /**
     * Adds the rows of {@code batch}, which must have this sorter's schema; the batch is copied and
     * stays the caller's.
     */
    void add(VectorSchemaRoot batch)
            throws IOException
    {
        int rowCount = batch.getRowCount();
        if (rowCount == 0) {
            return;
        }
        VectorSchemaRoot copy = copyOf(batch);
        int batchIndex = buffered.size();
        buffered.add(copy);
        for (int row = 0; row < rowCount; row++) {
            Object key = keys.key(copy, row);
            keyBytes += RowKeys.estimatedSize(key) + 32;
            rows.add(new BufferedRow(key, RowKeys.prefix(key), batchIndex, row));
        }
        if (allocator.getAllocatedMemory() + keyBytes > memoryBudget) {
            spill();
        }
    }

    /**
     * Hands every added row to {@code consumer} in key order, in batches of at most the batch size;
     * a batch is valid only during the call.
     */
    void finish(TableRead.BatchConsumer consumer)
            throws IOException
    {
        if (runs.isEmpty()) {
            try (VectorSchemaRoot output = VectorSchemaRoot.create(schema, allocator)) {
                emitSorted(output, batchSize, consumer);
            }
            return;
        }
        if (!rows.isEmpty()) {
            spill();
        }
        while (runs.size() > MERGE_FAN_IN) {
            List<Path> inputs = new ArrayList<>(runs.subList(0, MERGE_FAN_IN));
            Path merged = newRunFile();
            try (OutputStream output = new BufferedOutputStream(Files.newOutputStream(merged));
                    VectorSchemaRoot staging = VectorSchemaRoot.create(schema, allocator);
                    ArrowStreamWriter writer = new ArrowStreamWriter(staging, null, output)) {
                writer.start();
                merge(inputs, staging, spillRows, ignored -> writer.writeBatch());
                writer.end();
            }
            for (Path input : inputs) {
                Files.delete(input);
            }
            // the merged run holds the oldest rows: it goes first, which keeps equal keys in input order
            runs.subList(0, MERGE_FAN_IN).clear();
            runs.add(0, merged);
        }
        try (VectorSchemaRoot output = VectorSchemaRoot.create(schema, allocator)) {
            merge(runs, output, batchSize, consumer);
        }
    }

    /**
     * Runs spilled to disk so far, counting runs written by intermediate merges.
     */
    int spilledRuns()
    {
        return runsSpilled;
    }

    @Override
    public void close()
            throws IOException
    {
        try {
            releaseBuffered();
            if (spillDirectory != null) {
                SpillDirectory.deleteTree(spillDirectory);
            }
        }
        finally {
            allocator.close();
        }
    }

    private VectorSchemaRoot copyOf(VectorSchemaRoot batch)
    {
        VectorSchemaRoot copy = VectorSchemaRoot.create(schema, allocator);
        try {
            copy.allocateNew();
            int rowCount = batch.getRowCount();
            for (int column = 0; column < schema.getFields().size(); column++) {
                RowCopier.copyAll(batch.getVector(column), copy.getVector(column), rowCount);
            }
            copy.setRowCount(rowCount);
            return copy;
        }
        catch (RuntimeException e) {
            copy.close();
            throw e;
        }
    }

    private void sortBuffered()
    {
        // stable, so rows with equal keys keep their input order
        rows.sort((left, right) -> {
            // most comparisons of byte keys end in their first 8 bytes
            int result = Long.compareUnsigned(left.prefix(), right.prefix());
            return result != 0 ? result : keyOrder.compare(left.key(), right.key());
        });
    }

    /**
     * Sorts the buffered rows, hands them to {@code consumer} batch by batch through
     * {@code output}, and releases them.
     */
    private void emitSorted(VectorSchemaRoot output, int rowsPerBatch, TableRead.BatchConsumer consumer)
            throws IOException
    {
        sortBuffered();
        int columns = schema.getFields().size();
        FieldVector[][] sources = new FieldVector[columns][buffered.size()];
        for (int column = 0; column < columns; column++) {
            for (int batch = 0; batch < buffered.size(); batch++) {
                sources[column][batch] = buffered.get(batch).getVector(column);
            }
        }
        for (int start = 0; start < rows.size(); start += rowsPerBatch) {
            int end = Math.min(rows.size(), start + rowsPerBatch);
            output.allocateNew();
            // column by column: one vector type per loop, and each source column stays in cache longer
            for (int column = 0; column < columns; column++) {
                FieldVector target = output.getVector(column);
                FieldVector[] from = sources[column];
                RowCopier.ensureCapacity(target, end - start);
                for (int i = start; i < end; i++) {
                    BufferedRow row = rows.get(i);
                    RowCopier.copy(from[row.batch()], row.row(), target, i - start);
                }
            }
            output.setRowCount(end - start);
            consumer.accept(output);
            output.clear();
        }
        releaseBuffered();
    }

    private void spill()
            throws IOException
    {
        Path run = newRunFile();
        try (OutputStream output = new BufferedOutputStream(Files.newOutputStream(run));
                VectorSchemaRoot staging = VectorSchemaRoot.create(schema, allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(staging, null, output)) {
            writer.start();
            spillRows = spillBatchRows();
            emitSorted(staging, spillRows, ignored -> writer.writeBatch());
            writer.end();
        }
        runs.add(run);
    }

    /**
     * Rows per batch of a spilled run: small enough that a merge holding one batch of each of
     * {@value #MERGE_FAN_IN} runs stays within the budget, at the average row size seen.
     */
    private int spillBatchRows()
    {
        long rowBytes = Math.max(1, (allocator.getAllocatedMemory() + keyBytes) / Math.max(1, rows.size()));
        long rowsPerRun = memoryBudget / MERGE_FAN_IN / rowBytes;
        return (int) Math.max(MIN_SPILL_BATCH_ROWS, Math.min(batchSize, rowsPerRun));
    }

    private Path newRunFile()
            throws IOException
    {
        if (spillDirectory == null) {
            spillDirectory = spillParent.createOwned();
        }
        runsSpilled++;
        return spillDirectory.resolve("run-" + runsSpilled + ".arrow");
    }

    private void merge(List<Path> inputs, VectorSchemaRoot output, int rowsPerBatch, TableRead.BatchConsumer consumer)
            throws IOException
    {
        List<RunCursor> cursors = new ArrayList<>();
        try {
            PriorityQueue<RunCursor> queue = new PriorityQueue<>((left, right) -> {
                int result = keyOrder.compare(left.key, right.key);
                return result != 0 ? result : Integer.compare(left.index, right.index);
            });
            for (int i = 0; i < inputs.size(); i++) {
                RunCursor cursor = new RunCursor(i, inputs.get(i));
                cursors.add(cursor);
                if (cursor.advance()) {
                    queue.add(cursor);
                }
            }
            FieldVector[] targets = output.getFieldVectors().toArray(new FieldVector[0]);
            int outputRows = 0;
            allocate(targets, rowsPerBatch);
            while (!queue.isEmpty()) {
                RunCursor cursor = queue.poll();
                copyRow(cursor.vectors, cursor.row, targets, outputRows++);
                if (outputRows == rowsPerBatch) {
                    output.setRowCount(outputRows);
                    consumer.accept(output);
                    output.clear();
                    allocate(targets, rowsPerBatch);
                    outputRows = 0;
                }
                if (cursor.advance()) {
                    queue.add(cursor);
                }
            }
            if (outputRows > 0) {
                output.setRowCount(outputRows);
                consumer.accept(output);
            }
            output.clear();
        }
        finally {
            for (RunCursor cursor : cursors) {
                cursor.close();
            }
        }
    }

    private void releaseBuffered()
    {
        buffered.forEach(VectorSchemaRoot::close);
        buffered.clear();
        rows.clear();
        keyBytes = 0;
    }

    private static void allocate(FieldVector[] targets, int rows)
    {
        for (FieldVector target : targets) {
            target.allocateNew();
            RowCopier.ensureCapacity(target, rows);
        }
    }

    private static void copyRow(FieldVector[] sources, int sourceRow, FieldVector[] targets, int targetRow)
    {
        for (int column = 0; column < targets.length; column++) {
            RowCopier.copy(sources[column], sourceRow, targets[column], targetRow);
        }
    }

    private record BufferedRow(Object key, long prefix, int batch, int row) {}

    /**
     * The next row of one spilled run and its key.
     */
    private final class RunCursor
            implements AutoCloseable
    {
        private final int index;
        private final InputStream input;
        private final ArrowStreamReader reader;
        private int row = -1;
        private Object key;
        private FieldVector[] vectors;

        RunCursor(int index, Path file)
                throws IOException
        {
            this.index = index;
            this.input = new BufferedInputStream(Files.newInputStream(file));
            this.reader = new ArrowStreamReader(input, allocator);
        }

        boolean advance()
                throws IOException
        {
            row++;
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (row >= root.getRowCount()) {
                if (!reader.loadNextBatch()) {
                    return false;
                }
                vectors = root.getFieldVectors().toArray(new FieldVector[0]);
                row = 0;
            }
            key = keys.key(root, row);
            return true;
        }

        @Override
        public void close()
                throws IOException
        {
            try {
                reader.close();
            }
            finally {
                input.close();
            }
        }
    }
}
