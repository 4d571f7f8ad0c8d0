package io.tarn.index.fileindex;

import io.tarn.types.DataType;
import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's bitmap index ({@code bitmap}, versions 1 and 2): for every distinct value of the
 * column the rows holding it. Layout (big-endian, keys as in {@link BitmapKeys}):
 * <pre>
 * byte version | int32 rowCount | int32 valueCount | byte hasNull
 * [hasNull] int32 nullOffset, [v2] int32 nullBitmapLength
 * v1: repeat valueCount: key, int32 offset                          -- then the body
 * v2: int32 blockCount, repeat: firstKey, int32 blockOffset | int32 bodyOffset
 *     index blocks (from blockOffset): int32 entryCount, repeat: key, int32 offset, int32 length
 *     (keys sorted across blocks) -- the body starts bodyOffset bytes after the block table
 * body: RoaringBitmap portable serializations
 * </pre>
 * Offsets are relative to the body. A negative offset {@code o} stores the single row
 * {@code -1 - o} without a bitmap. In version 1 a bitmap's length is the distance to the next
 * non-negative offset (the last one runs to the end); in version 2 it is stored (-1 for single
 * rows).
 * <p>
 * Trust contract: counts, offsets, lengths and block positions are checked against the payload,
 * bitmaps must deserialize within their range and hold no row at or beyond {@code rowCount};
 * anything else is a {@link CorruptIndexException}. Index blocks are parsed only when looked up.
 */
public final class BitmapIndex
{
    public static final String TYPE = "bitmap";
    public static final int VERSION_1 = 1;
    public static final int VERSION_2 = 2;
    public static final int DEFAULT_VERSION = VERSION_2;
    public static final long DEFAULT_BLOCK_SIZE = 16 * 1024;

    private static final int UNKNOWN_LENGTH = -1;

    private final DataType type;
    private final ByteBuffer payload;
    private final int version;
    private final int rowCount;
    private final boolean hasNull;
    private final int nullOffset;
    private final int nullLength;
    // version 1: every entry; version 2: filled block by block as they are looked up
    private final Map<Object, Entry> entries = new HashMap<>();
    private final List<Block> blocks = new ArrayList<>();
    private final int blockStart;
    private final int bodyStart;

    private record Entry(int offset, int length) {}

    private static final class Block
    {
        final Object firstKey;
        final int offset;
        List<Object> keys;
        List<Entry> entries;

        Block(Object firstKey, int offset)
        {
            this.firstKey = firstKey;
            this.offset = offset;
        }
    }

    private BitmapIndex(DataType type, ByteBuffer payload)
            throws CorruptIndexException
    {
        this.type = type;
        this.payload = payload;
        try {
            version = payload.get();
            if (version != VERSION_1 && version != VERSION_2) {
                throw new CorruptIndexException("Bitmap index has version " + version + "; versions 1 and 2 are known");
            }
            rowCount = payload.getInt();
            int valueCount = payload.getInt();
            byte nullFlag = payload.get();
            if (rowCount < 0 || valueCount < 0 || valueCount > rowCount || nullFlag > 1 || nullFlag < 0) {
                throw new CorruptIndexException("Bitmap index header is invalid: " + rowCount + " rows, " + valueCount + " values, null flag " + nullFlag);
            }
            hasNull = nullFlag == 1;
            nullOffset = hasNull ? payload.getInt() : 0;
            nullLength = hasNull && version == VERSION_2 ? payload.getInt() : UNKNOWN_LENGTH;
            if (version == VERSION_1) {
                if ((long) valueCount * 5 > payload.remaining()) {
                    throw new CorruptIndexException("Bitmap index has " + valueCount + " values, more than its " + payload.remaining() + " bytes left can hold");
                }
                List<Object> keys = new ArrayList<>(valueCount);
                int[] offsets = new int[valueCount];
                for (int i = 0; i < valueCount; i++) {
                    keys.add(BitmapKeys.read(type, payload));
                    offsets[i] = payload.getInt();
                }
                blockStart = payload.position();
                bodyStart = payload.position();
                // a bitmap ends where the next stored bitmap starts
                int nextStart = -1;
                for (int i = valueCount - 1; i >= 0; i--) {
                    int offset = offsets[i];
                    int length = UNKNOWN_LENGTH;
                    if (offset >= 0) {
                        if (nextStart >= 0) {
                            length = nextStart - offset;
                            if (length < 0) {
                                throw new CorruptIndexException("Bitmap index offsets decrease: " + offset + " before " + nextStart);
                            }
                        }
                        nextStart = offset;
                    }
                    entries.put(keys.get(i), new Entry(offset, length));
                }
                if (entries.size() != valueCount) {
                    throw new CorruptIndexException("Bitmap index stores a value twice");
                }
            }
            else {
                int blockCount = payload.getInt();
                if (blockCount < 0 || (long) blockCount * 5 > payload.remaining()) {
                    throw new CorruptIndexException("Bitmap index has " + blockCount + " index blocks, more than its " + payload.remaining() + " bytes left can hold");
                }
                for (int i = 0; i < blockCount; i++) {
                    Object key = BitmapKeys.read(type, payload);
                    int offset = payload.getInt();
                    if (!blocks.isEmpty() && (BitmapKeys.compare(blocks.get(blocks.size() - 1).firstKey, key) >= 0 || offset <= blocks.get(blocks.size() - 1).offset)) {
                        throw new CorruptIndexException("Bitmap index blocks are not in order");
                    }
                    blocks.add(new Block(key, offset));
                }
                int bodyOffset = payload.getInt();
                blockStart = payload.position();
                if (bodyOffset < 0 || bodyOffset > payload.limit() - blockStart) {
                    throw new CorruptIndexException("Bitmap index body offset " + bodyOffset + " is outside the " + payload.limit() + " bytes of the index");
                }
                bodyStart = blockStart + bodyOffset;
                for (Block block : blocks) {
                    if (block.offset < 0 || block.offset > bodyOffset - 4) {
                        throw new CorruptIndexException("Bitmap index block at " + block.offset + " is outside the block area of " + bodyOffset + " bytes");
                    }
                }
            }
        }
        catch (BufferUnderflowException e) {
            throw new CorruptIndexException("Bitmap index of " + payload.limit() + " bytes ends inside its header", e);
        }
    }

    /**
     * Reads the header of a payload for values of {@code type}.
     */
    public static BitmapIndex read(DataType type, ByteBuffer payload)
            throws CorruptIndexException
    {
        requireNonNull(type, "type is null");
        if (!BitmapKeys.supports(type)) {
            throw new CorruptIndexException("Bitmap index over a column of type " + type.asSqlString() + ", which bitmap indexes do not support");
        }
        return new BitmapIndex(type, payload.slice());
    }

    public int version()
    {
        return version;
    }

    public int rowCount()
    {
        return rowCount;
    }

    /**
     * The rows holding a non-null value, in the internal representation of the index's type; a
     * new bitmap the caller owns.
     */
    public RoaringBitmap rows(Object value)
            throws CorruptIndexException
    {
        Object key = BitmapKeys.key(type, requireNonNull(value, "value is null"));
        Entry entry = version == VERSION_1 ? entries.get(key) : lookUp(key);
        return entry == null ? new RoaringBitmap() : bitmap(entry);
    }

    /**
     * The rows whose value is null; a new bitmap the caller owns.
     */
    public RoaringBitmap nullRows()
            throws CorruptIndexException
    {
        if (!hasNull) {
            return new RoaringBitmap();
        }
        int length = nullLength;
        if (version == VERSION_1 && nullOffset >= 0) {
            // the null bitmap lies first in the body and ends where the first value bitmap starts
            length = entries.values().stream().mapToInt(Entry::offset).filter(offset -> offset >= 0).min().orElse(UNKNOWN_LENGTH);
        }
        return bitmap(new Entry(nullOffset, length));
    }

    private Entry lookUp(Object key)
            throws CorruptIndexException
    {
        int low = 0;
        int high = blocks.size() - 1;
        Block found = null;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (BitmapKeys.compare(blocks.get(middle).firstKey, key) <= 0) {
                found = blocks.get(middle);
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        if (found == null) {
            return null;
        }
        if (found.keys == null) {
            parseBlock(found);
        }
        low = 0;
        high = found.keys.size() - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int comparison = BitmapKeys.compare(found.keys.get(middle), key);
            if (comparison == 0) {
                return found.entries.get(middle);
            }
            if (comparison < 0) {
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        return null;
    }

    private void parseBlock(Block block)
            throws CorruptIndexException
    {
        ByteBuffer buffer = payload.duplicate();
        buffer.limit(bodyStart);
        buffer.position(blockStart + block.offset);
        try {
            int count = buffer.getInt();
            if (count < 0 || (long) count * 9 > buffer.remaining()) {
                throw new CorruptIndexException("Bitmap index block has " + count + " entries, more than its " + buffer.remaining() + " bytes can hold");
            }
            List<Object> keys = new ArrayList<>(count);
            List<Entry> blockEntries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Object key = BitmapKeys.read(type, buffer);
                if (!keys.isEmpty() && BitmapKeys.compare(keys.get(keys.size() - 1), key) >= 0) {
                    throw new CorruptIndexException("Bitmap index block keys are not in order");
                }
                keys.add(key);
                blockEntries.add(new Entry(buffer.getInt(), buffer.getInt()));
            }
            block.keys = keys;
            block.entries = blockEntries;
        }
        catch (BufferUnderflowException e) {
            throw new CorruptIndexException("Bitmap index block at " + block.offset + " runs past the block area", e);
        }
    }

    private RoaringBitmap bitmap(Entry entry)
            throws CorruptIndexException
    {
        if (entry.offset() < 0) {
            int row = -1 - entry.offset();
            if (row >= rowCount) {
                throw new CorruptIndexException("Bitmap index points at row " + row + " of " + rowCount);
            }
            return RoaringBitmap.bitmapOf(row);
        }
        int start = bodyStart + entry.offset();
        if (entry.offset() > payload.limit() - bodyStart || (entry.length() != UNKNOWN_LENGTH && (entry.length() < 0 || entry.length() > payload.limit() - start))) {
            throw new CorruptIndexException("Bitmap at offset " + entry.offset() + " with length " + entry.length() + " is outside the body of the bitmap index");
        }
        ByteBuffer bytes = payload.duplicate();
        bytes.position(start);
        if (entry.length() != UNKNOWN_LENGTH) {
            bytes.limit(start + entry.length());
        }
        RoaringBitmap bitmap = new RoaringBitmap();
        try {
            bitmap.deserialize(bytes.slice());
        }
        catch (IOException | RuntimeException e) {
            throw new CorruptIndexException("Bitmap at offset " + entry.offset() + " of the bitmap index does not deserialize: " + e.getMessage(), e);
        }
        if (!bitmap.isEmpty() && Integer.toUnsignedLong(bitmap.last()) >= rowCount) {
            throw new CorruptIndexException("Bitmap at offset " + entry.offset() + " of the bitmap index holds row " + Integer.toUnsignedLong(bitmap.last()) + " of " + rowCount);
        }
        return bitmap;
    }

    /**
     * Builds a bitmap index in the given version; version 2 cuts its index blocks at
     * {@code blockSize} bytes.
     */
    public static final class Writer
            implements FileIndexWriter
    {
        private final DataType type;
        private final int version;
        private final long blockSize;
        private final Map<Object, RoaringBitmap> bitmaps = new LinkedHashMap<>();
        private final RoaringBitmap nulls = new RoaringBitmap();
        private int rows;

        public Writer(DataType type, int version, long blockSize)
        {
            this.type = requireNonNull(type, "type is null");
            if (!BitmapKeys.supports(type)) {
                throw new IllegalArgumentException("Bitmap indexes do not support type " + type.asSqlString());
            }
            if (version != VERSION_1 && version != VERSION_2) {
                throw new IllegalArgumentException("Bitmap index version must be 1 or 2: " + version);
            }
            if (blockSize <= 0) {
                throw new IllegalArgumentException("Bitmap index block size must be positive: " + blockSize);
            }
            this.version = version;
            this.blockSize = blockSize;
        }

        @Override
        public void add(Object value)
        {
            if (value == null) {
                nulls.add(rows);
            }
            else {
                bitmaps.computeIfAbsent(BitmapKeys.key(type, value), ignored -> new RoaringBitmap()).add(rows);
            }
            rows++;
        }

        @Override
        public byte[] serialize()
        {
            try {
                List<Object> keys = new ArrayList<>(bitmaps.keySet());
                if (version == VERSION_2) {
                    keys.sort(BitmapKeys::compare);
                }
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                byte[] nullBytes = serialize(nulls);
                if (nulls.getCardinality() > 1) {
                    body.write(nullBytes);
                }
                List<Entry> keyEntries = new ArrayList<>(keys.size());
                for (Object key : keys) {
                    RoaringBitmap bitmap = bitmaps.get(key);
                    if (bitmap.getCardinality() == 1) {
                        keyEntries.add(new Entry(-1 - bitmap.first(), UNKNOWN_LENGTH));
                    }
                    else {
                        byte[] bytes = serialize(bitmap);
                        keyEntries.add(new Entry(body.size(), bytes.length));
                        body.write(bytes);
                    }
                }

                ByteArrayOutputStream out = new ByteArrayOutputStream();
                DataOutputStream data = new DataOutputStream(out);
                data.writeByte(version);
                data.writeInt(rows);
                data.writeInt(keys.size());
                boolean hasNull = !nulls.isEmpty();
                data.writeBoolean(hasNull);
                if (hasNull) {
                    data.writeInt(nulls.getCardinality() == 1 ? -1 - nulls.first() : 0);
                    if (version == VERSION_2) {
                        data.writeInt(nullBytes.length);
                    }
                }
                if (version == VERSION_1) {
                    for (int i = 0; i < keys.size(); i++) {
                        BitmapKeys.write(type, keys.get(i), data);
                        data.writeInt(keyEntries.get(i).offset());
                    }
                }
                else {
                    writeBlocks(data, keys, keyEntries);
                }
                body.writeTo(data);
                data.flush();
                return out.toByteArray();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void writeBlocks(DataOutputStream data, List<Object> keys, List<Entry> keyEntries)
                throws IOException
        {
            // cut the sorted entries into blocks of at most blockSize bytes (a block holds at least one)
            List<Integer> blockStarts = new ArrayList<>();
            List<Integer> blockOffsets = new ArrayList<>();
            int blockBytes = 0;
            int offset = 0;
            for (int i = 0; i < keys.size(); i++) {
                int entryBytes = 8 + BitmapKeys.size(type, keys.get(i));
                if (blockStarts.isEmpty() || blockBytes + entryBytes > blockSize) {
                    if (!blockStarts.isEmpty()) {
                        offset += blockBytes;
                    }
                    blockStarts.add(i);
                    blockOffsets.add(offset);
                    blockBytes = 4;
                }
                blockBytes += entryBytes;
            }
            int blocksSize = blockStarts.isEmpty() ? 0 : offset + blockBytes;
            data.writeInt(blockStarts.size());
            for (int block = 0; block < blockStarts.size(); block++) {
                BitmapKeys.write(type, keys.get(blockStarts.get(block)), data);
                data.writeInt(blockOffsets.get(block));
            }
            data.writeInt(blocksSize);
            for (int block = 0; block < blockStarts.size(); block++) {
                int from = blockStarts.get(block);
                int to = block + 1 < blockStarts.size() ? blockStarts.get(block + 1) : keys.size();
                data.writeInt(to - from);
                for (int i = from; i < to; i++) {
                    BitmapKeys.write(type, keys.get(i), data);
                    data.writeInt(keyEntries.get(i).offset());
                    data.writeInt(keyEntries.get(i).length());
                }
            }
        }

        private static byte[] serialize(RoaringBitmap bitmap)
        {
            bitmap.runOptimize();
            ByteBuffer buffer = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
            bitmap.serialize(buffer);
            return buffer.array();
        }
    }
}
