package io.tarn.jni;

import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * An Arrow C stream whose callbacks are libtarn.so's C functions and whose batches are exported by
 * {@link BatchExporter}; the Java half of {@code tarn.c}'s {@code stream_*} and
 * {@code release_array} functions. Needs libtarn.so loaded in this JVM: by a C host through
 * {@code tarn_init}, or by {@link TarnBridge#loadLibrary}; see {@link #available()}.
 *
 * <p>The C side knows a stream and a batch by an id, the key of {@link #STREAMS} and
 * {@link #BATCHES}. Ownership: the stream owns its reader and the reader's allocator (a child of
 * the bridge's root made for this stream). A batch is exported straight from the split reader's
 * vectors ({@link SplitStreamReader#nextSharedBatch}). When the consumer has released it by the
 * next {@code get_next}, as a consumer that reads batch after batch does, the split reader reads
 * the next batch into the same buffers, still in the CPU caches, exactly as a reader inside the JVM
 * does. When the consumer still holds it, the batch is parked first: its buffers are transferred
 * (not copied: same addresses) out of the split reader's vectors into vectors of the batch's own,
 * which its release closes; the same happens to a batch still held when the stream is released.
 * The allocator is closed when both the stream and its last batch are released, in whichever order
 * the consumer releases them, so a batch kept past its stream stays valid and leaves nothing behind
 * once released. Releases may come from any thread.
 *
 * <p>The {@code ArrowSchema} of {@code get_schema} is written by Arrow Java's
 * {@code Data.exportSchema}: it is built once per call, not per batch, so it costs nothing per value,
 * and it takes its memory from the bridge's root, so a schema may outlive its stream.
 */
final class NativeStream
{
    private static final Map<Long, NativeStream> STREAMS = new ConcurrentHashMap<>();
    private static final Map<Long, Batch> BATCHES = new ConcurrentHashMap<>();
    private static final AtomicLong IDS = new AtomicLong();
    private static volatile long releaseFunction;

    private final long id;
    private final SplitStreamReader reader;
    private final BufferAllocator allocator;
    private final BufferAllocator schemaAllocator;
    private final BatchExporter exporter;

    // guarded by this
    private int openBatches;
    private boolean released;
    // the last batch exported while its buffers are still the split reader's
    private Batch shared;
    // the block of a released batch, for the next one (all batches' blocks have the same size)
    private ArrowBuf spareBlock;

    private NativeStream(long id, SplitStreamReader reader, BufferAllocator allocator, BufferAllocator schemaAllocator, BatchExporter exporter)
    {
        this.id = id;
        this.reader = requireNonNull(reader, "reader is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.schemaAllocator = requireNonNull(schemaAllocator, "schemaAllocator is null");
        this.exporter = requireNonNull(exporter, "exporter is null");
    }

    /** Whether libtarn.so is loaded in this JVM and has registered its callbacks. */
    static boolean available()
    {
        return releaseFunction() != 0;
    }

    private static long releaseFunction()
    {
        long function = releaseFunction;
        if (function == 0) {
            try {
                function = arrayReleaseFunction();
                releaseFunction = function;
            }
            catch (UnsatisfiedLinkError e) {
                // libtarn.so is not loaded (yet): Java callers then get Arrow Java's exporter
                return 0;
            }
        }
        return function;
    }

    /**
     * Whether {@link #export} can export {@code reader}'s batches: libtarn.so is loaded and every
     * column is of a type {@link BatchExporter} writes.
     */
    static boolean canExport(SplitStreamReader reader)
            throws IOException
    {
        return available() && BatchExporter.supports(reader.getVectorSchemaRoot().getSchema());
    }

    /**
     * Fills the {@code ArrowArrayStream} at {@code streamAddress}; from then on the stream owns
     * {@code reader} and {@code allocator} (the reader's), and its release callback frees them.
     */
    static void export(SplitStreamReader reader, BufferAllocator allocator, BufferAllocator schemaAllocator, long streamAddress)
            throws IOException
    {
        BatchExporter exporter = new BatchExporter(reader.getVectorSchemaRoot().getSchema(), releaseFunction());
        long id = IDS.incrementAndGet();
        NativeStream stream = new NativeStream(id, reader, allocator, schemaAllocator, exporter);
        STREAMS.put(id, stream);
        try {
            initStream(streamAddress, id);
        }
        catch (RuntimeException | Error e) {
            STREAMS.remove(id);
            throw e;
        }
    }

    /** Streams not yet released, for tests. */
    static int openStreams()
    {
        return STREAMS.size();
    }

    /** Batches not yet released, for tests. */
    static int openBatches()
    {
        return BATCHES.size();
    }

    /** Batches not yet released whose buffers were moved out of the split reader's way, for tests. */
    static int parkedBatches()
    {
        int parked = 0;
        for (Batch batch : BATCHES.values()) {
            synchronized (batch.stream) {
                parked += batch.parked.isEmpty() ? 0 : 1;
            }
        }
        return parked;
    }

    // ---- called by libtarn.so; none lets a Throwable escape: a failure is "<status>\t<message>" in UTF-8

    static byte[] nativeSchema(long id, long schemaAddress)
    {
        try {
            NativeStream stream = stream(id);
            Data.exportSchema(stream.schemaAllocator, stream.reader.getVectorSchemaRoot().getSchema(), null, ArrowSchema.wrap(schemaAddress));
            return null;
        }
        catch (Throwable e) {
            return TarnBridge.failure(e).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Loads the next batch and exports it into the {@code ArrowArray} at {@code arrayAddress}, whose release the C side has set to NULL. */
    static byte[] nativeNext(long id, long arrayAddress)
    {
        try {
            stream(id).next(arrayAddress);
            return null;
        }
        catch (Throwable e) {
            return TarnBridge.failure(e).getBytes(StandardCharsets.UTF_8);
        }
    }

    static void nativeRelease(long id)
    {
        try {
            NativeStream stream = STREAMS.remove(id);
            if (stream != null) {
                stream.release();
            }
        }
        catch (Throwable e) {
            // inside a release callback there is no one to tell; a leak shows in TarnBridge.allocatedBytes()
        }
    }

    static void nativeReleaseBatch(long batchId)
    {
        try {
            Batch batch = BATCHES.remove(batchId);
            if (batch != null) {
                batch.release();
            }
        }
        catch (Throwable e) {
            // as in nativeRelease
        }
    }

    // ---- implemented by libtarn.so, which registers them when it binds to this class

    /** The address of {@code release_array}, the release callback of every exported ArrowArray. */
    private static native long arrayReleaseFunction();

    /** Fills the ArrowArrayStream at {@code streamAddress} with the C callbacks of stream {@code id}. */
    private static native void initStream(long streamAddress, long id);

    // ----

    private static NativeStream stream(long id)
    {
        NativeStream stream = STREAMS.get(id);
        if (stream == null) {
            throw new IllegalStateException("Arrow stream " + id + " is released");
        }
        return stream;
    }

    private void next(long arrayAddress)
            throws IOException
    {
        ArrowBuf block;
        synchronized (this) {
            parkSharedBatch();
            block = spareBlock;
            spareBlock = null;
        }
        boolean exported = false;
        try {
            VectorSchemaRoot root = reader.nextSharedBatch();
            if (root == null) {
                // end of stream: the array stays released (release == NULL), as the C side left it
                return;
            }
            if (block == null) {
                block = allocator.buffer(exporter.blockSize());
            }
            long batchId = IDS.incrementAndGet();
            Batch batch = new Batch(this, block, List.copyOf(root.getFieldVectors()));
            // writes the consumer's struct last: if it throws, the consumer has nothing to release
            exporter.export(root, arrayAddress, batchId, block);
            synchronized (this) {
                openBatches++;
                shared = batch;
            }
            BATCHES.put(batchId, batch);
            exported = true;
        }
        finally {
            if (!exported) {
                recycle(block);
            }
        }
    }

    private void release()
            throws IOException
    {
        try {
            synchronized (this) {
                parkSharedBatch();
            }
            // closes the split readers, whose buffers no unreleased batch uses any more
            reader.close();
        }
        finally {
            synchronized (this) {
                released = true;
                if (spareBlock != null) {
                    spareBlock.close();
                    spareBlock = null;
                }
                closeAllocatorIfDone();
            }
        }
    }

    /** Keeps the block of a released batch for the next batch, or frees it. */
    private void recycle(ArrowBuf block)
    {
        if (block == null) {
            return;
        }
        synchronized (this) {
            if (!released && spareBlock == null) {
                spareBlock = block;
                return;
            }
        }
        block.close();
    }

    // guarded by this
    private void parkSharedBatch()
    {
        if (shared != null) {
            shared.park(allocator);
            shared = null;
        }
    }

    // guarded by this
    private void closeAllocatorIfDone()
    {
        if (released && openBatches == 0) {
            // throws, naming what leaked, if a buffer of this stream is still allocated
            allocator.close();
        }
    }

    /**
     * One exported batch: its block of structs and, once parked, the vectors that own its buffers.
     */
    private static final class Batch
    {
        private final NativeStream stream;
        private final ArrowBuf block;
        // the split reader's vectors the batch was exported from; guarded by stream
        private List<FieldVector> source;
        // the vectors that own the batch's buffers once parked; guarded by stream
        private List<FieldVector> parked = List.of();

        Batch(NativeStream stream, ArrowBuf block, List<FieldVector> source)
        {
            this.stream = requireNonNull(stream, "stream is null");
            this.block = requireNonNull(block, "block is null");
            this.source = requireNonNull(source, "source is null");
        }

        /** Moves the buffers out of the split reader's vectors into vectors of this batch, at the same addresses. */
        void park(BufferAllocator allocator)
        {
            List<FieldVector> owners = new ArrayList<>(source.size());
            for (FieldVector vector : source) {
                TransferPair transfer = vector.getTransferPair(allocator);
                transfer.transfer();
                owners.add((FieldVector) transfer.getTo());
            }
            parked = owners;
            source = List.of();
        }

        void release()
        {
            List<FieldVector> owners;
            synchronized (stream) {
                if (stream.shared == this) {
                    // released before the next get_next: the split reader may reuse the buffers
                    stream.shared = null;
                }
                owners = parked;
                parked = List.of();
                source = List.of();
            }
            try {
                for (FieldVector owner : owners) {
                    owner.close();
                }
                stream.recycle(block);
            }
            finally {
                synchronized (stream) {
                    stream.openBatches--;
                    stream.closeAllocatorIfDone();
                }
            }
        }
    }
}
