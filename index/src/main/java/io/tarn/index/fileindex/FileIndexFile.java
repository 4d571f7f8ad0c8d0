package io.tarn.index.fileindex;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.lang.Math.toIntExact;
import static java.util.Objects.requireNonNull;

/**
 * Paimon's file-index container ({@code FileIndexFormat}), stored inline in a data file's
 * {@code _EMBEDDED_FILE_INDEX} or as the {@code <data file>.index} extra file. All integers are
 * big-endian; strings are Java's modified UTF-8 with a 2-byte length ({@code writeUTF}):
 * <pre>
 * int64 magic 1493475289347502 | int32 version 1 | int32 headLength (whole head, from the magic on)
 * int32 columnCount
 *   repeat: UTF column ("c" or "map[key]") | int32 indexCount
 *     repeat: UTF indexType | int32 start (from the container start; -1: empty index) | int32 length
 * int32 redundantLength (0) | redundant bytes
 * body: the index payloads
 * </pre>
 * Trust contract: {@link #parse} and {@link #open} check the magic, version, every count against
 * the bytes left and every payload range against the container; any violation is a
 * {@link CorruptIndexException}. The payloads themselves are checked by the index that reads them.
 *
 * <p>A container in a separate {@code .index} file holds every index of the data file, often
 * hundreds of kilobytes, while a filter usually needs one of them: {@link #open} reads the head
 * and then only the payloads asked for.
 */
public final class FileIndexFile
{
    public static final long MAGIC = 1493475289347502L;
    public static final int VERSION = 1;
    static final int EMPTY_INDEX = -1;

    // enough for the head of any container of a few columns, and for small payloads with it
    static final int PREFIX_BYTES = 4096;

    private final RangeReader reader;
    private final byte[] prefix;
    private final Map<String, List<Index>> indexesByColumn;

    private FileIndexFile(RangeReader reader, byte[] prefix, Map<String, List<Index>> indexesByColumn)
    {
        this.reader = reader;
        this.prefix = prefix;
        this.indexesByColumn = indexesByColumn;
    }

    /**
     * Reads byte ranges of a stored container.
     */
    @FunctionalInterface
    public interface RangeReader
    {
        /**
         * Reads exactly {@code length} bytes at {@code position} into {@code buffer[offset..]}.
         */
        void readFully(long position, byte[] buffer, int offset, int length)
                throws IOException;
    }

    /**
     * One index of a column: its type name and payload range; an empty index
     * ({@link #empty()}) means its writer saw no value at all.
     */
    public record Index(String column, String type, int start, int length)
    {
        public Index
        {
            requireNonNull(column, "column is null");
            requireNonNull(type, "type is null");
        }

        public boolean empty()
        {
            return start == EMPTY_INDEX;
        }
    }

    /**
     * Parses the head of a container held in memory; {@code bytes} is kept, not copied, and must
     * not change.
     */
    public static FileIndexFile parse(byte[] bytes)
            throws CorruptIndexException
    {
        requireNonNull(bytes, "bytes is null");
        RangeReader reader = (position, buffer, offset, length) -> System.arraycopy(bytes, toIntExact(position), buffer, offset, length);
        return parseHead(reader, bytes, bytes.length);
    }

    /**
     * Reads the head of a stored container of {@code length} bytes; payloads are read from
     * {@code reader} when asked for.
     */
    public static FileIndexFile open(RangeReader reader, long length)
            throws IOException
    {
        requireNonNull(reader, "reader is null");
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new CorruptIndexException("File index of " + length + " bytes is larger than a container can be");
        }
        byte[] prefix = new byte[toIntExact(Math.min(length, PREFIX_BYTES))];
        reader.readFully(0, prefix, 0, prefix.length);
        if (prefix.length >= 16) {
            int headLength = ByteBuffer.wrap(prefix).getInt(12);
            if (headLength > prefix.length && headLength <= length) {
                byte[] head = Arrays.copyOf(prefix, headLength);
                reader.readFully(prefix.length, head, prefix.length, headLength - prefix.length);
                prefix = head;
            }
        }
        return parseHead(reader, prefix, length);
    }

    private static FileIndexFile parseHead(RangeReader reader, byte[] prefix, long containerLength)
            throws CorruptIndexException
    {
        ByteBuffer buffer = ByteBuffer.wrap(prefix);
        try {
            long magic = buffer.getLong();
            if (magic != MAGIC) {
                throw new CorruptIndexException("File index has magic " + magic + " instead of " + MAGIC);
            }
            int version = buffer.getInt();
            if (version != VERSION) {
                throw new CorruptIndexException("File index has version " + version + "; only version " + VERSION + " is known");
            }
            int headLength = buffer.getInt();
            if (headLength < 24 || headLength > prefix.length) {
                throw new CorruptIndexException("File index head length " + headLength + " is outside the " + containerLength + " bytes of the index");
            }
            buffer.limit(headLength);
            int columnCount = buffer.getInt();
            checkCount(columnCount, buffer, 6, "columns");
            Map<String, List<Index>> indexes = new LinkedHashMap<>();
            for (int column = 0; column < columnCount; column++) {
                String name = readUtf(buffer);
                int indexCount = buffer.getInt();
                checkCount(indexCount, buffer, 10, "indexes of column " + name);
                List<Index> columnIndexes = indexes.computeIfAbsent(name, ignored -> new ArrayList<>());
                for (int i = 0; i < indexCount; i++) {
                    String type = readUtf(buffer);
                    int start = buffer.getInt();
                    int length = buffer.getInt();
                    if (start != EMPTY_INDEX && (start < headLength || length < 0 || (long) start + length > containerLength)) {
                        throw new CorruptIndexException("File index " + type + " of column " + name + " at offset " + start + " with length " + length
                                + " is outside the body of the index, bytes " + headLength + " to " + containerLength);
                    }
                    columnIndexes.add(new Index(name, type, start, length));
                }
            }
            int redundantLength = buffer.getInt();
            if (redundantLength != buffer.remaining()) {
                throw new CorruptIndexException("File index head has " + buffer.remaining() + " bytes after its columns, but says " + redundantLength);
            }
            Map<String, List<Index>> copy = new LinkedHashMap<>();
            indexes.forEach((name, list) -> copy.put(name, List.copyOf(list)));
            return new FileIndexFile(reader, prefix, copy);
        }
        catch (BufferUnderflowException e) {
            throw new CorruptIndexException("File index of " + containerLength + " bytes ends inside its head", e);
        }
    }

    public Set<String> columns()
    {
        return indexesByColumn.keySet();
    }

    /**
     * The indexes stored for a column name as written ({@code "c"}, or {@code "m[key]"} for a
     * key of map column {@code m}), in stored order; empty when there are none.
     */
    public List<Index> indexes(String column)
    {
        return indexesByColumn.getOrDefault(column, List.of());
    }

    /**
     * The payload of an index, a read-only big-endian view; read from the container's storage
     * unless it lies in the bytes already read.
     */
    public ByteBuffer payload(Index index)
            throws IOException
    {
        if (index.empty()) {
            return ByteBuffer.allocate(0).asReadOnlyBuffer();
        }
        if ((long) index.start() + index.length() <= prefix.length) {
            return ByteBuffer.wrap(prefix, index.start(), index.length()).slice().asReadOnlyBuffer();
        }
        byte[] payload = new byte[index.length()];
        reader.readFully(index.start(), payload, 0, payload.length);
        return ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /**
     * Reads {@code length} bytes of an index's payload from {@code offset} into
     * {@code buffer[bufferOffset..]}: for a reader that needs only a few bytes of a large payload.
     */
    public void readPayload(Index index, int offset, byte[] buffer, int bufferOffset, int length)
            throws IOException
    {
        if (offset < 0 || length < 0 || offset > index.length() - length || index.empty()) {
            throw new IndexOutOfBoundsException("Read of " + length + " bytes at " + offset + " outside the " + index.length() + "-byte payload of " + index);
        }
        long start = (long) index.start() + offset;
        if (start + length <= prefix.length) {
            System.arraycopy(prefix, (int) start, buffer, bufferOffset, length);
        }
        else {
            reader.readFully(start, buffer, bufferOffset, length);
        }
    }

    /**
     * Serializes a container: for each column (in map order) its indexes by type name; a null
     * payload is stored as an empty index.
     */
    public static byte[] serialize(Map<String, Map<String, byte[]>> indexes)
    {
        try {
            ByteArrayOutputStream names = new ByteArrayOutputStream();
            DataOutputStream namesOut = new DataOutputStream(names);
            int indexCount = 0;
            for (Map.Entry<String, Map<String, byte[]>> column : indexes.entrySet()) {
                namesOut.writeUTF(column.getKey());
                for (String type : column.getValue().keySet()) {
                    namesOut.writeUTF(type);
                    indexCount++;
                }
            }
            int headLength = 8 + 4 + 4 + 4 + indexes.size() * 4 + indexCount * 8 + names.size() + 4;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            DataOutputStream data = new DataOutputStream(out);
            data.writeLong(MAGIC);
            data.writeInt(VERSION);
            data.writeInt(headLength);
            data.writeInt(indexes.size());
            int start = headLength;
            for (Map.Entry<String, Map<String, byte[]>> column : indexes.entrySet()) {
                data.writeUTF(column.getKey());
                data.writeInt(column.getValue().size());
                for (Map.Entry<String, byte[]> index : column.getValue().entrySet()) {
                    data.writeUTF(index.getKey());
                    byte[] payload = index.getValue();
                    if (payload == null) {
                        data.writeInt(EMPTY_INDEX);
                        data.writeInt(0);
                    }
                    else {
                        data.writeInt(start);
                        data.writeInt(payload.length);
                        start += payload.length;
                    }
                }
            }
            data.writeInt(0);
            for (Map<String, byte[]> column : indexes.values()) {
                for (byte[] payload : column.values()) {
                    if (payload != null) {
                        data.write(payload);
                    }
                }
            }
            data.flush();
            return out.toByteArray();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void checkCount(int count, ByteBuffer buffer, int minimumBytesEach, String what)
            throws CorruptIndexException
    {
        if (count < 0 || (long) count * minimumBytesEach > buffer.remaining()) {
            throw new CorruptIndexException("File index head has " + count + " " + what + ", more than its " + buffer.remaining() + " bytes left can hold");
        }
    }

    /**
     * A name in Java's modified UTF-8 with its 2-byte length, as {@code DataOutput.writeUTF}
     * writes it.
     */
    private static String readUtf(ByteBuffer buffer)
            throws CorruptIndexException
    {
        int length = Short.toUnsignedInt(buffer.getShort(buffer.position()));
        if (length + 2 > buffer.remaining()) {
            throw new CorruptIndexException("File index head has a name of " + length + " bytes, but only " + (buffer.remaining() - 2) + " bytes are left");
        }
        byte[] text = new byte[length + 2];
        buffer.get(text);
        try {
            return new DataInputStream(new ByteArrayInputStream(text)).readUTF();
        }
        catch (IOException e) {
            throw new CorruptIndexException("File index head has a malformed name: " + e.getMessage(), e);
        }
    }
}
