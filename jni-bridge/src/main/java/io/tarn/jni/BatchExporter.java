package io.tarn.jni;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Fills Arrow C Data Interface {@code ArrowArray} structs straight from the vectors of a batch:
 * buffer pointers are the vectors' own memory addresses, and a column without NULLs gets a NULL
 * validity pointer (the C Data Interface allows it when {@code null_count} is 0). The exporter
 * takes no reference to the buffers: its caller ({@link NativeStream}) keeps them alive and
 * unchanged until the consumer releases the batch.
 *
 * <p>This replaces {@code Data.exportVectorSchemaRoot}, which per batch unloads the root into an
 * {@code ArrowRecordBatch}, loads it into a new {@code StructVector} with new child vectors,
 * allocates an all-valid validity buffer for every column without NULLs, and moves every buffer to
 * the exporting allocator.
 *
 * <p>Per batch the exporter fills one block of memory (given by the caller, which reuses the block of
 * a released batch) that holds everything the structs point to besides the data: a header, the descendants' {@code ArrowArray} structs and
 * every struct's {@code buffers} and {@code children} pointer arrays. The top-level struct is the
 * consumer's. Block layout (little-endian, 8-byte slots):
 * <pre>
 * 0   references: the structs of the batch not yet released (decremented atomically by libtarn.so)
 * 8   batch id: the key of the batch's {@link NativeStream} registry entry
 * 16  16 zero bytes: the address of an empty buffer (an offsets buffer of a batch of 0 rows is {0})
 * 32  the top-level struct's buffers (1) and children (one per column) pointers
 * ... then per descendant, depth first: its ArrowArray (80 bytes), its buffers and children pointers
 * </pre>
 * Every struct's {@code private_data} is the block's address and its {@code release} is libtarn.so's
 * {@code release_array}, which releases the children still owned by the struct, then decrements the
 * reference count; the last one calls {@link NativeStream#nativeReleaseBatch}. A child moved out by
 * the consumer (the C Data Interface allows it) thus keeps the whole block and the batch's buffers
 * alive until it is released itself.
 *
 * <p>Exported types: those of {@code io.tarn.vector.ArrowTypes} (Bool, Int, FloatingPoint,
 * Decimal128, Utf8, Binary, Date(DAY), Time(MILLISECOND, 32), Timestamp, List, Map, Struct), see
 * {@link #supports}.
 */
final class BatchExporter
{
    // the C Data Interface's ArrowArray: eight 8-byte fields, then the release callback and private_data
    static final int ARRAY_SIZE = 80;
    private static final int LENGTH = 0;
    private static final int NULL_COUNT = 8;
    private static final int OFFSET = 16;
    private static final int N_BUFFERS = 24;
    private static final int N_CHILDREN = 32;
    private static final int BUFFERS = 40;
    private static final int CHILDREN = 48;
    private static final int DICTIONARY = 56;
    private static final int RELEASE = 64;
    private static final int PRIVATE_DATA = 72;

    static final int REFERENCES = 0;
    static final int BATCH_ID = 8;
    private static final int EMPTY = 16;
    private static final int HEADER_SIZE = 32;

    private final long releaseFunction;
    private final List<Node> columns;
    private final long blockSize;
    private final int structCount;

    BatchExporter(Schema schema, long releaseFunction)
    {
        requireNonNull(schema, "schema is null");
        if (releaseFunction == 0) {
            throw new IllegalArgumentException("The release callback is NULL");
        }
        this.releaseFunction = releaseFunction;
        List<Node> nodes = new ArrayList<>();
        for (Field field : schema.getFields()) {
            nodes.add(node(field));
        }
        this.columns = List.copyOf(nodes);
        long size = HEADER_SIZE + 8L * (1 + columns.size());
        int structs = 1;
        for (Node column : columns) {
            size += column.subtreeBytes();
            structs += column.subtreeStructs();
        }
        this.blockSize = size;
        this.structCount = structs;
    }

    /**
     * Whether every field of {@code schema} is of a type this exporter writes; a stream with any
     * other type is exported with Arrow Java's exporter instead (Tarn's readers produce none today).
     */
    static boolean supports(Schema schema)
    {
        for (Field field : schema.getFields()) {
            if (!supports(field)) {
                return false;
            }
        }
        return true;
    }

    private static boolean supports(Field field)
    {
        if (field.getDictionary() != null) {
            return false;
        }
        ArrowType type = field.getType();
        boolean supported = switch (type.getTypeID()) {
            case Bool, Int, FloatingPoint, Utf8, Binary, List, Map, Struct -> true;
            case Decimal -> ((ArrowType.Decimal) type).getBitWidth() == 128;
            case Date -> ((ArrowType.Date) type).getUnit() == DateUnit.DAY;
            case Time -> ((ArrowType.Time) type).getUnit() == TimeUnit.MILLISECOND && ((ArrowType.Time) type).getBitWidth() == 32;
            case Timestamp -> true;
            default -> false;
        };
        if (!supported) {
            return false;
        }
        for (Field child : field.getChildren()) {
            if (!supports(child)) {
                return false;
            }
        }
        return true;
    }

    /** The bytes of the block that {@link #export} fills. */
    long blockSize()
    {
        return blockSize;
    }

    /**
     * Exports the current batch of {@code root} into the {@code ArrowArray} at {@code arrayAddress},
     * its descendants and pointer arrays into {@code block} (at least {@link #blockSize()} bytes,
     * which must stay allocated until the batch's release). On failure the struct at
     * {@code arrayAddress} is untouched.
     */
    void export(VectorSchemaRoot root, long arrayAddress, long batchId, ArrowBuf block)
    {
        List<FieldVector> vectors = root.getFieldVectors();
        if (vectors.size() != columns.size()) {
            throw new IllegalStateException("Batch has " + vectors.size() + " columns, the stream's schema " + columns.size());
        }
        if (block.capacity() < blockSize) {
            throw new IllegalArgumentException("Block of " + block.capacity() + " bytes for a batch that needs " + blockSize);
        }
        long base = block.memoryAddress();
        MemoryUtil.putLong(base + REFERENCES, structCount);
        MemoryUtil.putLong(base + BATCH_ID, batchId);
        MemoryUtil.putLong(base + EMPTY, 0);
        MemoryUtil.putLong(base + EMPTY + 8, 0);
        long buffers = base + HEADER_SIZE;
        long children = buffers + 8;
        MemoryUtil.putLong(buffers, 0);
        long next = children + 8L * columns.size();
        for (int column = 0; column < columns.size(); column++) {
            MemoryUtil.putLong(children + 8L * column, next);
            next = fill(next, columns.get(column), vectors.get(column), base);
        }
        if (next != base + blockSize) {
            throw new IllegalStateException("Batch block layout is inconsistent: " + (next - base) + " of " + blockSize + " bytes used");
        }
        // the consumer's struct last, so that a failure above leaves it as it was
        writeStruct(arrayAddress, root.getRowCount(), 0, 1, columns.size(), buffers, children, base);
    }

    /** Fills the struct at {@code struct} and its descendants; returns the address after them. */
    private long fill(long struct, Node node, FieldVector vector, long base)
    {
        int length = vector.getValueCount();
        int nullCount = vector.getNullCount();
        long buffers = struct + ARRAY_SIZE;
        long children = buffers + 8L * node.bufferCount();
        long next = children + 8L * node.children().size();
        writeStruct(struct, length, nullCount, node.bufferCount(), node.children().size(), buffers, children, base);
        long empty = base + EMPTY;
        switch (node.kind()) {
            case FIXED_WIDTH -> {
                BaseFixedWidthVector fixed = cast(vector, BaseFixedWidthVector.class, node);
                MemoryUtil.putLong(buffers, nullCount == 0 ? 0 : address(fixed.getValidityBuffer(), empty));
                MemoryUtil.putLong(buffers + 8, address(fixed.getDataBuffer(), empty));
            }
            case VARIABLE_WIDTH -> {
                BaseVariableWidthVector variable = cast(vector, BaseVariableWidthVector.class, node);
                MemoryUtil.putLong(buffers, nullCount == 0 ? 0 : address(variable.getValidityBuffer(), empty));
                MemoryUtil.putLong(buffers + 8, address(variable.getOffsetBuffer(), empty));
                MemoryUtil.putLong(buffers + 16, address(variable.getDataBuffer(), empty));
            }
            case LIST -> {
                // MapVector is a ListVector of its entries struct, with the same buffers
                ListVector list = cast(vector, ListVector.class, node);
                MemoryUtil.putLong(buffers, nullCount == 0 ? 0 : address(list.getValidityBuffer(), empty));
                MemoryUtil.putLong(buffers + 8, address(list.getOffsetBuffer(), empty));
                MemoryUtil.putLong(children, next);
                next = fill(next, node.children().get(0), list.getDataVector(), base);
            }
            case STRUCT -> {
                StructVector row = cast(vector, StructVector.class, node);
                MemoryUtil.putLong(buffers, nullCount == 0 ? 0 : address(row.getValidityBuffer(), empty));
                List<FieldVector> fields = row.getChildrenFromFields();
                if (fields.size() != node.children().size()) {
                    throw new IllegalStateException("Struct vector " + vector.getName() + " has " + fields.size() + " children, its field " + node.children().size());
                }
                for (int i = 0; i < fields.size(); i++) {
                    MemoryUtil.putLong(children + 8L * i, next);
                    next = fill(next, node.children().get(i), fields.get(i), base);
                }
            }
        }
        return next;
    }

    private void writeStruct(long struct, long length, long nullCount, int bufferCount, int childCount, long buffers, long children, long base)
    {
        MemoryUtil.putLong(struct + LENGTH, length);
        MemoryUtil.putLong(struct + NULL_COUNT, nullCount);
        MemoryUtil.putLong(struct + OFFSET, 0);
        MemoryUtil.putLong(struct + N_BUFFERS, bufferCount);
        MemoryUtil.putLong(struct + N_CHILDREN, childCount);
        MemoryUtil.putLong(struct + BUFFERS, buffers);
        MemoryUtil.putLong(struct + CHILDREN, childCount == 0 ? 0 : children);
        MemoryUtil.putLong(struct + DICTIONARY, 0);
        MemoryUtil.putLong(struct + PRIVATE_DATA, base);
        MemoryUtil.putLong(struct + RELEASE, releaseFunction);
    }

    /** The address of {@code buffer}, or of the block's zero bytes when the buffer is empty (never NULL). */
    private static long address(ArrowBuf buffer, long empty)
    {
        return buffer == null || buffer.capacity() == 0 ? empty : buffer.memoryAddress();
    }

    private static <T> T cast(FieldVector vector, Class<T> type, Node node)
    {
        if (!type.isInstance(vector)) {
            throw new IllegalStateException("Vector " + vector.getName() + " is a " + vector.getClass().getSimpleName() + ", not the " + type.getSimpleName() + " its " + node.kind() + " field needs");
        }
        return type.cast(vector);
    }

    private static Node node(Field field)
    {
        List<Node> children = new ArrayList<>();
        for (Field child : field.getChildren()) {
            children.add(node(child));
        }
        Kind kind = switch (field.getType().getTypeID()) {
            case Utf8, Binary -> Kind.VARIABLE_WIDTH;
            case List, Map -> Kind.LIST;
            case Struct -> Kind.STRUCT;
            default -> Kind.FIXED_WIDTH;
        };
        if ((kind == Kind.LIST) != (children.size() == 1) && kind != Kind.STRUCT) {
            throw new IllegalArgumentException("Field " + field.getName() + " of type " + field.getType() + " has " + children.size() + " children");
        }
        return new Node(kind, children);
    }

    private enum Kind
    {
        FIXED_WIDTH(2),
        VARIABLE_WIDTH(3),
        LIST(2),
        STRUCT(1);

        private final int buffers;

        Kind(int buffers)
        {
            this.buffers = buffers;
        }
    }

    private record Node(Kind kind, List<Node> children)
    {
        Node
        {
            requireNonNull(kind, "kind is null");
            children = List.copyOf(children);
        }

        int bufferCount()
        {
            return kind.buffers;
        }

        long subtreeBytes()
        {
            long bytes = ARRAY_SIZE + 8L * (bufferCount() + children.size());
            for (Node child : children) {
                bytes += child.subtreeBytes();
            }
            return bytes;
        }

        int subtreeStructs()
        {
            int structs = 1;
            for (Node child : children) {
                structs += child.subtreeStructs();
            }
            return structs;
        }
    }
}
