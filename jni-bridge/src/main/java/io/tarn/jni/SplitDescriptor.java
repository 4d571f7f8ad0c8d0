package io.tarn.jni;

import io.tarn.storage.fs.s3.S3Settings;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.SplitCodec;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * Everything a worker needs to read one split without planning again: where the table is, the
 * snapshot and schema the plan read, the projection (field ids) and filter, and the split itself.
 *
 * <p>Layout, big-endian; a string is an int byte length followed by UTF-8:
 * <pre>
 * magic "TARNSPLT"  int version (3)
 * string warehouse  int storage setting count, then per setting string key, string value
 * string table (db.table)  string branch
 * long snapshot id (-1: the table had no snapshot)  long schema id
 * int column count, then one int field id per column
 * byte has-filter, then string filter (the where text, parsed again against the schema)
 * int split length, then the split in storage's one split form ({@link SplitCodec}, as Trino's splits)
 * </pre>
 * A descriptor comes from the caller, so {@link #decode} checks every length and count against
 * the bytes present and rejects trailing bytes; so does {@link SplitCodec#decode}. The storage
 * settings never hold credentials ({@link S3Settings#withoutCredentials}): a descriptor may be
 * shipped anywhere, and the worker that opens it reaches the store with its own.
 */
record SplitDescriptor(
        String warehouse,
        Map<String, String> storage,
        String table,
        String branch,
        OptionalLong snapshotId,
        long schemaId,
        List<Integer> columnIds,
        Optional<String> where,
        DataSplit split)
{
    private static final byte[] MAGIC = "TARNSPLT".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 3;

    SplitDescriptor
    {
        requireNonNull(warehouse, "warehouse is null");
        storage = S3Settings.withoutCredentials(requireNonNull(storage, "storage is null"));
        requireNonNull(table, "table is null");
        requireNonNull(branch, "branch is null");
        requireNonNull(snapshotId, "snapshotId is null");
        columnIds = List.copyOf(requireNonNull(columnIds, "columnIds is null"));
        requireNonNull(where, "where is null");
        requireNonNull(split, "split is null");
    }

    byte[] encode()
    {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(MAGIC);
            out.writeInt(VERSION);
            writeString(out, warehouse);
            out.writeInt(storage.size());
            for (Map.Entry<String, String> setting : new TreeMap<>(storage).entrySet()) {
                writeString(out, setting.getKey());
                writeString(out, setting.getValue());
            }
            writeString(out, table);
            writeString(out, branch);
            out.writeLong(snapshotId.orElse(-1));
            out.writeLong(schemaId);
            out.writeInt(columnIds.size());
            for (int id : columnIds) {
                out.writeInt(id);
            }
            out.writeBoolean(where.isPresent());
            if (where.isPresent()) {
                writeString(out, where.get());
            }
            writeBytes(out, SplitCodec.encode(split));
            out.flush();
            return bytes.toByteArray();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @throws IllegalArgumentException if the bytes are not a descriptor of this version
     */
    static SplitDescriptor decode(byte[] descriptor)
    {
        requireNonNull(descriptor, "descriptor is null");
        ByteBuffer in = ByteBuffer.wrap(descriptor);
        byte[] magic = new byte[MAGIC.length];
        need(in, magic.length, "magic");
        in.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw corrupt("it does not start with TARNSPLT");
        }
        int version = readInt(in, "version");
        if (version != VERSION) {
            throw corrupt("version " + version + ", this bridge reads version " + VERSION);
        }
        String warehouse = readString(in, "warehouse");
        int settingCount = readCount(in, 8, "storage setting count");
        Map<String, String> storage = new HashMap<>();
        for (int i = 0; i < settingCount; i++) {
            String key = readString(in, "storage setting key");
            if (storage.put(key, readString(in, "storage setting value")) != null) {
                throw corrupt("storage setting " + key + " appears twice");
            }
        }
        String table = readString(in, "table");
        String branch = readString(in, "branch");
        long snapshot = readLong(in, "snapshot id");
        long schemaId = readLong(in, "schema id");
        int columnCount = readCount(in, 4, "column count");
        List<Integer> columnIds = new ArrayList<>(columnCount);
        for (int i = 0; i < columnCount; i++) {
            columnIds.add(readInt(in, "field id"));
        }
        Optional<String> where = readBoolean(in, "filter flag") ? Optional.of(readString(in, "filter")) : Optional.empty();
        DataSplit split;
        try {
            split = SplitCodec.decode(readBytes(in, "split"));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Split descriptor is corrupt: " + e.getMessage(), e);
        }
        if (split.files().isEmpty()) {
            throw corrupt("its split has no file");
        }
        if (in.hasRemaining()) {
            throw corrupt(in.remaining() + " bytes follow its end");
        }
        return new SplitDescriptor(warehouse, storage, table, branch, snapshot < 0 ? OptionalLong.empty() : OptionalLong.of(snapshot), schemaId, columnIds, where, split);
    }

    private static void writeString(DataOutputStream out, String value)
            throws IOException
    {
        writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream out, byte[] value)
            throws IOException
    {
        out.writeInt(value.length);
        out.write(value);
    }

    private static String readString(ByteBuffer in, String what)
    {
        byte[] bytes = readBytes(in, what);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        }
        catch (CharacterCodingException e) {
            throw corrupt("its " + what + " is not UTF-8");
        }
    }

    private static byte[] readBytes(ByteBuffer in, String what)
    {
        int length = readCount(in, 1, what + " length");
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /**
     * A count of items of {@code itemSize} bytes each that must all be present.
     */
    private static int readCount(ByteBuffer in, int itemSize, String what)
    {
        int count = readInt(in, what);
        if (count < 0 || (long) count * itemSize > in.remaining()) {
            throw corrupt(what + " " + count + " exceeds the " + in.remaining() + " bytes left");
        }
        return count;
    }

    private static int readInt(ByteBuffer in, String what)
    {
        need(in, 4, what);
        return in.getInt();
    }

    private static long readLong(ByteBuffer in, String what)
    {
        need(in, 8, what);
        return in.getLong();
    }

    private static boolean readBoolean(ByteBuffer in, String what)
    {
        need(in, 1, what);
        byte value = in.get();
        if (value != 0 && value != 1) {
            throw corrupt("its " + what + " is " + value + ", not 0 or 1");
        }
        return value == 1;
    }

    private static void need(ByteBuffer in, int bytes, String what)
    {
        if (in.remaining() < bytes) {
            throw corrupt("it ends before its " + what);
        }
    }

    private static IllegalArgumentException corrupt(String problem)
    {
        return new IllegalArgumentException("Split descriptor is corrupt: " + problem);
    }
}
