package io.tarn.trino;

import io.airlift.units.DataSize;
import io.tarn.index.predicate.Predicate;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.tarn.vector.reader.DictionaryIds;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.tarn.trino.TarnErrorCode.TARN_READER_MEMORY_EXHAUSTED;
import static java.util.Objects.requireNonNull;

/**
 * Reads one split through Tarn's split readers and turns each Arrow batch into a page
 * ({@link ArrowBlocks}). A column handle with a path reads its base ROW column and hands out the
 * dereferenced field. All Arrow memory lives in a child allocator of this page source, released
 * by {@link #close()}.
 *
 * <p>{@link #getMemoryUsage()} is what the reader holds: that allocator's memory and the heap of
 * the file reader (loaded parts of column chunks, pages, decoded values) and of the files fetched
 * ahead from an object store, so that Trino's memory limits see it. A read that cannot get Arrow
 * memory within the node's {@code tarn.reader.max-memory} fails with
 * {@link TarnErrorCode#TARN_READER_MEMORY_EXHAUSTED}.
 * <p>On an object store, {@link #isBlocked()} waits for the first file's fetch once the page
 * source may read files, so that the driver's thread runs other splits while it is answered.
 */
final class TarnPageSource
        implements ConnectorPageSource
{
    private final String tableName;
    private final List<TarnColumnHandle> columns;
    private final List<DataField> readFields;
    private final List<Type> readTypes;
    private final int[] readIndexOfColumn;
    private final DictionaryBlocks[] dictionaryBlocks;
    private final OptionalLong limit;
    private final BufferAllocator parentAllocator;
    private final BufferAllocator allocator;
    private final SplitReader reader;
    private final long fileCount;
    private final FileReadLimiter.Reservation fileReservation;
    private final Map<String, Long> dynamicFilterCounters;
    private final Optional<LateDynamicFilter> lateDynamicFilter;

    private boolean started;
    // the first file's fetch from an object store, begun once the page source may read files:
    // waited for in isBlocked(), so that the driver's thread runs other splits meanwhile
    private CompletableFuture<Void> firstFileFetch;
    private boolean finished;
    private long rowsProduced;
    private long readTimeNanos;
    private Counters finalMetrics;

    TarnPageSource(PaimonTable table, TarnTypes types, TableSchema schema, DataSplit split, List<TarnColumnHandle> columns, Optional<Predicate> filter, Optional<Predicate> pruningFilter,
            Optional<LateDynamicFilter> lateDynamicFilter, Map<String, Long> dynamicFilterCounters, OptionalLong limit, boolean useFileIndexes, BufferAllocator parentAllocator, FileReadLimiter fileReads)
    {
        this.dynamicFilterCounters = Map.copyOf(requireNonNull(dynamicFilterCounters, "dynamicFilterCounters is null"));
        this.tableName = table.name();
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.limit = requireNonNull(limit, "limit is null");
        this.fileCount = split.files().size();
        Map<Integer, Integer> readIndexByFieldId = new LinkedHashMap<>();
        List<DataField> fields = new ArrayList<>();
        this.readIndexOfColumn = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            TarnColumnHandle column = columns.get(i);
            DataField field = Stream.concat(schema.fields().stream(), TarnHiddenColumns.fields(tableName, schema).stream())
                    .filter(candidate -> candidate.id() == column.fieldId())
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("Table %s has no field id %s (column %s) in schema %s".formatted(tableName, column.fieldId(), column.name(), schema.id())));
            readIndexOfColumn[i] = readIndexByFieldId.computeIfAbsent(field.id(), _ -> {
                fields.add(field);
                return fields.size() - 1;
            });
        }
        if (fields.isEmpty()) {
            // a query that needs only the row count still reads one column to learn the positions
            fields.add(schema.fields().get(0));
        }
        this.readFields = List.copyOf(fields);
        this.readTypes = readFields.stream().map(field -> types.toTrinoType(field.type())).toList();
        this.dictionaryBlocks = new DictionaryBlocks[readFields.size()];
        for (int i = 0; i < dictionaryBlocks.length; i++) {
            dictionaryBlocks[i] = new DictionaryBlocks();
        }
        // dictionary-encoded strings reach Trino as dictionary blocks, and are not decoded
        Set<Integer> stringFields = new HashSet<>();
        for (int i = 0; i < readFields.size(); i++) {
            if (readTypes.get(i) instanceof VarcharType || readTypes.get(i) instanceof VarbinaryType) {
                stringFields.add(readFields.get(i).id());
            }
        }
        ReadRequest request = ReadRequest.of(readFields).withDictionaryIds(stringFields);
        if (!useFileIndexes) {
            request = request.withoutFileIndexes();
        }
        if (filter.isPresent()) {
            // Trino applies every predicate it did not see enforced (all but the partition
            // columns') to each row again, and a split's rows all satisfy its partition's
            request = request.withFilter(filter.get()).withFilterRecheckedByCaller();
        }
        if (pruningFilter.isPresent()) {
            request = request.withPruningFilter(pruningFilter.get());
        }
        if (lateDynamicFilter.isPresent()) {
            request = request.withLatePruningFilter(lateDynamicFilter.get()::pruningFilter).withLateRowFilter(lateDynamicFilter.get()::rowFilter);
        }
        this.lateDynamicFilter = lateDynamicFilter;
        this.parentAllocator = parentAllocator;
        this.allocator = parentAllocator.newChildAllocator("tarn-page-source", 0, Long.MAX_VALUE);
        // a merge opens every file of its split at once, a plain split one file after the other
        this.fileReservation = fileReads.reserve(split.mergeRequired() ? split.files().size() : 1);
        try {
            // the readers open no file before their first batch
            this.reader = SplitReaders.open(table, schema, split, request, allocator);
        }
        catch (OutOfMemoryException e) {
            fileReservation.close();
            allocator.close();
            throw memoryExhausted(e);
        }
        catch (IOException | RuntimeException e) {
            fileReservation.close();
            allocator.close();
            throw TarnExceptions.translate("Cannot read table " + tableName, e);
        }
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        if (!start() || !firstFileFetch.isDone()) {
            // isBlocked() hands Trino the future to wait on
            return null;
        }
        long start = System.nanoTime();
        try {
            if ((limit.isPresent() && rowsProduced >= limit.getAsLong()) || !reader.nextBatch()) {
                finish();
                return null;
            }
            VectorSchemaRoot root = reader.root();
            int positions = root.getRowCount();
            Block[] baseBlocks = new Block[readFields.size()];
            Block[] blocks = new Block[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                int readIndex = readIndexOfColumn[i];
                TarnColumnHandle column = columns.get(i);
                if (baseBlocks[readIndex] == null) {
                    baseBlocks[readIndex] = toBlock(root, readIndex, positions);
                }
                blocks[i] = dereference(baseBlocks[readIndex], column.path());
            }
            rowsProduced += positions;
            return SourcePage.create(new Page(positions, blocks));
        }
        catch (OutOfMemoryException e) {
            throw memoryExhausted(e);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot read table " + tableName, e);
        }
        finally {
            readTimeNanos += System.nanoTime() - start;
        }
    }

    private TrinoException memoryExhausted(OutOfMemoryException e)
    {
        return new TrinoException(TARN_READER_MEMORY_EXHAUSTED, "Cannot read table %s: the page sources of this node hold %s of the %s of Arrow memory that tarn.reader.max-memory gives them, and this one holds %s; run fewer scans at once or raise tarn.reader.max-memory"
                .formatted(tableName, DataSize.succinctBytes(parentAllocator.getAllocatedMemory()), DataSize.succinctBytes(parentAllocator.getLimit()),
                        DataSize.succinctBytes(allocator.getAllocatedMemory())), e);
    }

    private Block toBlock(VectorSchemaRoot root, int readIndex, int positions)
    {
        Type type = readTypes.get(readIndex);
        if (type instanceof VarcharType || type instanceof VarbinaryType) {
            // where there are ids, they are the values: the vector may hold nulls in their place
            Optional<DictionaryIds> ids = reader.dictionaryIds(readIndex);
            if (ids.isPresent()) {
                return dictionaryBlocks[readIndex].toBlock(ids.get());
            }
        }
        return ArrowBlocks.toBlock(root.getVector(readIndex), type, positions);
    }

    private Block dereference(Block block, List<Integer> path)
    {
        Block current = block;
        for (int index : path) {
            current = ((RowBlock) current.getUnderlyingValueBlock()).getFieldBlocks().get(index);
        }
        return current;
    }

    @Override
    public CompletableFuture<?> isBlocked()
    {
        if (finished) {
            return NOT_BLOCKED;
        }
        if (!start()) {
            return fileReservation.ready();
        }
        return firstFileFetch.isDone() ? NOT_BLOCKED : firstFileFetch;
    }

    /**
     * Whether the page source may read its files: once its reservation is granted, which also
     * starts the first file's fetch.
     */
    private boolean start()
    {
        if (!started) {
            if (!fileReservation.tryStart()) {
                return false;
            }
            started = true;
            firstFileFetch = reader.fetchAhead();
        }
        return true;
    }

    private void finish()
    {
        if (!finished) {
            finished = true;
            finalMetrics = reader.metrics();
            fileReservation.close();
        }
    }

    @Override
    public long getCompletedBytes()
    {
        return currentMetrics().get(Counter.BYTES_READ);
    }

    @Override
    public OptionalLong getCompletedPositions()
    {
        return OptionalLong.of(rowsProduced);
    }

    @Override
    public long getReadTimeNanos()
    {
        return readTimeNanos;
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    // TarnPageSourceProvider reports this to Trino's memory context (MemoryUsageReportingPageSource)
    @SuppressWarnings("deprecation")
    @Override
    public long getMemoryUsage()
    {
        return allocator.getAllocatedMemory() + reader.retainedHeapBytes();
    }

    private Counters currentMetrics()
    {
        return finalMetrics != null ? finalMetrics : reader.metrics();
    }

    @Override
    public Metrics getMetrics()
    {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("files_in_splits", fileCount);
        counters.put("file_reads_wait_millis", TimeUnit.NANOSECONDS.toMillis(fileReservation.waitNanos()));
        counters.put("file_reads_over_limit", fileReservation.overdrawn() ? 1L : 0L);
        counters.putAll(dynamicFilterCounters);
        // page sources opened before the join's dynamic filter completed, and those of them that then used it
        counters.put("dynamic_filter_late", lateDynamicFilter.isPresent() ? 1L : 0L);
        counters.put("dynamic_filter_late_arrived", lateDynamicFilter.isPresent() && lateDynamicFilter.get().arrived() ? 1L : 0L);
        currentMetrics().asMap().forEach((key, value) -> counters.put(key, value));
        return TarnSplitSource.counters(counters);
    }

    @Override
    public void close()
    {
        finish();
        try {
            reader.close();
        }
        finally {
            fileReservation.close();
            allocator.close();
        }
    }
}
