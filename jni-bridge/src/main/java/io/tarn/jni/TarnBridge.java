package io.tarn.jni;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.RowTrackingFields;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The Java half of {@code libtarn.so}: the static methods its C functions call through JNI.
 *
 * <p>Contract with the C side: no method lets a {@link Throwable} escape. Each returns null on
 * success and otherwise {@code "<status>\t<message>"}, where status is a {@code tarn_status} code
 * (see {@link Status}) and the message names the table or file and chains the causes. Results
 * that are not a status go into the caller's memory (an {@code ArrowArrayStream} at an address) or
 * into slot 0 of a result array.
 *
 * <p>Memory: every stream gets its own child of one process-wide root allocator; releasing the
 * stream closes the reader, and the child is closed once the stream and every batch it handed out
 * are released, in any order (with Arrow Java's exporter, only if the batches go first). {@link #allocatedBytes()} reports what the root still holds, so a
 * caller can check that released streams left nothing behind.
 */
public final class TarnBridge
{
    /**
     * System property: {@code true} makes streams opened from now on use Arrow Java's exporter
     * instead of Tarn's, to compare the two (the JNI benchmark does) or to rule Tarn's out while
     * debugging a consumer.
     */
    public static final String ARROW_EXPORTER = "tarn.jni.arrow-exporter";

    // one per process on purpose: C callers share it across threads and query it for leaks
    private static final BufferAllocator ROOT = new RootAllocator();

    private TarnBridge() {}

    /**
     * Plans a scan. On success {@code result[0]} is a {@code byte[]}: an int split count, then per
     * split an int length and that many bytes of split descriptor (big-endian).
     */
    public static String plan(String warehouse, String table, String version, String columns, String where, Object[] result)
    {
        return plan(warehouse, table, version, columns, where, null, result);
    }

    /**
     * {@link #plan}, over a warehouse reached with the storage settings in {@code options}, one
     * {@code KEY=VALUE} per line.
     */
    public static String plan(String warehouse, String table, String version, String columns, String where, String options, Object[] result)
    {
        try {
            if (result == null || result.length < 1) {
                throw new IllegalArgumentException("No result slot given");
            }
            ResolvedScan scan = resolve(ScanRequest.of(warehouse, table, version, columns, where, options));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(scan.plan().splits().size());
            for (DataSplit split : scan.plan().splits()) {
                byte[] descriptor = scan.descriptor(split).encode();
                out.writeInt(descriptor.length);
                out.write(descriptor);
            }
            out.flush();
            result[0] = bytes.toByteArray();
            return null;
        }
        catch (Throwable e) {
            return failure(e);
        }
    }

    /**
     * Opens one split, given its descriptor from {@link #plan}, as an Arrow C stream written to
     * the {@code ArrowArrayStream} at {@code streamAddress}.
     */
    public static String openSplit(byte[] descriptor, long streamAddress)
    {
        return openSplit(descriptor, streamAddress, true);
    }

    static String openSplit(byte[] descriptor, long streamAddress, boolean tarnExporter)
    {
        try {
            checkAddress(streamAddress);
            SplitDescriptor split = SplitDescriptor.decode(descriptor);
            PaimonTable table = ScanRequest.loadTable(split.warehouse(), split.storage(), split.table(), split.branch());
            TableSchema schema = table.schema(split.schemaId());
            List<DataField> columns = new ArrayList<>();
            List<DataField> rowTracking = RowTrackingFields.of(split.table(), schema);
            for (int id : split.columnIds()) {
                columns.add(schema.rowType().fieldById(id)
                        .or(() -> rowTracking.stream().filter(field -> field.id() == id).findFirst())
                        .orElseThrow(() -> new IllegalArgumentException(
                        "Split descriptor of table " + split.table() + " projects field id " + id + ", which schema " + split.schemaId() + " does not have")));
            }
            Optional<Predicate> filter = split.where().map(text -> FilterParser.parse(text, schema.rowType()));
            export(table, schema, List.of(split.split()), request(columns, filter), streamAddress, tarnExporter);
            return null;
        }
        catch (Throwable e) {
            return failure(e);
        }
    }

    /**
     * Plans and opens every split of a scan as one Arrow C stream written to the
     * {@code ArrowArrayStream} at {@code streamAddress}.
     */
    public static String openTable(String warehouse, String table, String version, String columns, String where, long streamAddress)
    {
        return openTable(warehouse, table, version, columns, where, null, streamAddress, true);
    }

    /**
     * {@link #openTable}, over a warehouse reached with the storage settings in {@code options},
     * one {@code KEY=VALUE} per line.
     */
    public static String openTable(String warehouse, String table, String version, String columns, String where, String options, long streamAddress)
    {
        return openTable(warehouse, table, version, columns, where, options, streamAddress, true);
    }

    static String openTable(String warehouse, String table, String version, String columns, String where, String options, long streamAddress, boolean tarnExporter)
    {
        try {
            checkAddress(streamAddress);
            ResolvedScan scan = resolve(ScanRequest.of(warehouse, table, version, columns, where, options));
            export(scan.table(), scan.plan().readSchema(), scan.plan().splits(), request(scan.columns(), scan.filter()), streamAddress, tarnExporter);
            return null;
        }
        catch (Throwable e) {
            return failure(e);
        }
    }

    /**
     * Bytes the bridge's allocator holds now: buffers of open streams and of batches not yet
     * released. Zero when every stream and batch has been released.
     */
    public static long allocatedBytes()
    {
        return ROOT.getAllocatedMemory();
    }

    /**
     * Loads libtarn.so (its path) into this JVM, so that streams opened from Java with
     * {@link #openTable} or {@link #openSplit} for a native consumer are exported by Tarn's own
     * exporter (no per-batch copy into new vectors) rather than Arrow Java's. A C host that called
     * {@code tarn_init} has it loaded already. Loading it again is harmless.
     *
     * @throws UnsatisfiedLinkError if the library cannot be loaded or does not match these classes
     */
    public static void loadLibrary(String path)
    {
        System.load(path);
    }

    /** Streams' allocators not yet closed, for tests: each closes once its stream and every batch of it are released. */
    static int openAllocators()
    {
        return ROOT.getChildAllocators().size();
    }

    // The entry points of libtarn.so. Strings cross JNI as UTF-8 bytes, not through NewStringUTF's
    // modified UTF-8, so characters outside the BMP survive in both directions.

    static byte[] nativePlan(byte[] warehouse, byte[] table, byte[] version, byte[] columns, byte[] where, byte[] options, Object[] result)
    {
        try {
            return utf8(plan(string(warehouse), string(table), string(version), string(columns), string(where), string(options), result));
        }
        catch (Throwable e) {
            return utf8(failure(e));
        }
    }

    static byte[] nativeOpenSplit(byte[] descriptor, long streamAddress)
    {
        try {
            return utf8(openSplit(descriptor, streamAddress));
        }
        catch (Throwable e) {
            return utf8(failure(e));
        }
    }

    static byte[] nativeOpenTable(byte[] warehouse, byte[] table, byte[] version, byte[] columns, byte[] where, byte[] options, long streamAddress)
    {
        try {
            return utf8(openTable(string(warehouse), string(table), string(version), string(columns), string(where), string(options), streamAddress));
        }
        catch (Throwable e) {
            return utf8(failure(e));
        }
    }

    private static String string(byte[] utf8)
    {
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text)
    {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Exports the splits' rows as an Arrow C stream: through libtarn.so's callbacks and
     * {@link BatchExporter} when libtarn.so is loaded in this JVM (always, when C called), else
     * through Arrow Java's {@code Data.exportArrayStream}, which copies every batch into a new
     * struct vector first. {@code tarnExporter} false forces Arrow Java's exporter (tests compare
     * the two).
     */
    private static void export(PaimonTable table, TableSchema schema, List<DataSplit> splits, ReadRequest request, long streamAddress, boolean tarnExporter)
            throws IOException
    {
        BufferAllocator allocator = ROOT.newChildAllocator("tarn-stream", 0, Long.MAX_VALUE);
        SplitStreamReader reader;
        try {
            reader = new SplitStreamReader(table, schema, splits, request, allocator);
        }
        catch (RuntimeException | Error e) {
            allocator.close();
            throw e;
        }
        try {
            if (tarnExporter && !Boolean.getBoolean(ARROW_EXPORTER) && NativeStream.canExport(reader)) {
                NativeStream.export(reader, allocator, ROOT, streamAddress);
            }
            else {
                Data.exportArrayStream(ROOT, reader, ArrowArrayStream.wrap(streamAddress));
            }
        }
        catch (IOException | RuntimeException | Error e) {
            try {
                reader.close();
            }
            catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        // from here the stream owns the reader: its release callback closes it
    }

    private static ReadRequest request(List<DataField> columns, Optional<Predicate> filter)
    {
        ReadRequest request = ReadRequest.of(columns);
        return filter.isPresent() ? request.withFilter(filter.get()) : request;
    }

    private static ResolvedScan resolve(ScanRequest request)
            throws IOException
    {
        PaimonTable table = request.loadTable();
        Optional<Snapshot> snapshot = table.snapshot(request.scanVersion());
        TableSchema schema = snapshot.isPresent() ? table.schema(snapshot.get().schemaId()) : table.schema();
        List<DataField> columns = request.columns(schema);
        Optional<Predicate> filter = request.filter(schema.rowType());
        ScanPlanner planner = new ScanPlanner(table);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get());
        }
        return new ResolvedScan(request, table, columns, filter, planner.plan(snapshot));
    }

    private static void checkAddress(long address)
    {
        if (address == 0) {
            throw new IllegalArgumentException("The ArrowArrayStream to open into is NULL");
        }
    }

    static String failure(Throwable failure)
    {
        try {
            return Status.of(failure).code() + "\t" + describe(failure);
        }
        catch (Throwable e) {
            // even describing failed (out of memory): a constant needs no allocation
            return "7\tInternal error in the Tarn bridge";
        }
    }

    private static String describe(Throwable failure)
    {
        StringBuilder message = new StringBuilder(failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage());
        for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && message.indexOf(cause.getMessage()) < 0) {
                message.append(": ").append(cause.getMessage());
            }
        }
        if (Status.of(failure) == Status.INTERNAL) {
            message.insert(0, failure.getClass().getName() + ": ");
        }
        return message.toString();
    }

    private record ResolvedScan(ScanRequest request, PaimonTable table, List<DataField> columns, Optional<Predicate> filter, ScanPlan plan)
    {
        SplitDescriptor descriptor(DataSplit split)
        {
            return new SplitDescriptor(
                    request.warehouse(),
                    request.storage(),
                    table.identifier().fullName(),
                    table.branch(),
                    plan.snapshot().map(snapshot -> OptionalLong.of(snapshot.id())).orElse(OptionalLong.empty()),
                    plan.readSchema().id(),
                    columns.stream().map(DataField::id).toList(),
                    request.where(),
                    split);
        }
    }
}
