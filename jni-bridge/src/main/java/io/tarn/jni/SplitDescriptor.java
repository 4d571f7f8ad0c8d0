package io.tarn.jni;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.DeletionFile;
import io.tarn.storage.scan.PlannedFile;

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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Everything a worker needs to read one split without planning again: where the table is, the
 * snapshot and schema the plan read, the projection (field ids) and filter, and the split itself.
 *
 * <p>Layout, big-endian; a string is an int byte length followed by UTF-8:
 * <pre>
 * magic "TARNSPLT"  int version (1)
 * string warehouse  string table (db.table)  string branch
 * long snapshot id (-1: the table had no snapshot)  long schema id
 * int column count, then one int field id per column
 * byte has-filter, then string filter (the where text, parsed again against the schema)
 * int bucket  int total buckets  byte merge-required
 * int partition length, then the partition (BinaryRow in manifest form)
 * int manifest length, then the split's files as an uncompressed Paimon manifest (Avro, ADD entries)
 * int file count, then per file (same order as the manifest): byte has-deletion-vector,
 *     then string index file name, int offset, int length, long cardinality (-1: unknown)
 * </pre>
 * A descriptor comes from the caller, so {@link #decode} checks every length and count against
 * the bytes present and rejects trailing bytes.
 */
record SplitDescriptor(
        String warehouse,
        String table,
        String branch,
        OptionalLong snapshotId,
        long schemaId,
        List<Integer> columnIds,
        Optional<String> where,
        DataSplit split)
{
    private static final byte[] MAGIC = "TARNSPLT".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;

    SplitDescriptor
    {
        requireNonNull(warehouse, "warehouse is null");
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
            out.writeInt(split.bucket());
            out.writeInt(split.totalBuckets());
            out.writeBoolean(split.mergeRequired());
            writeBytes(out, split.partition().toSerialized());
            List<ManifestEntry> entries = new ArrayList<>();
            for (PlannedFile file : split.files()) {
                entries.add(new ManifestEntry(FileKind.ADD, file.partition(), file.bucket(), file.totalBuckets(), file.file()));
            }
            writeBytes(out, ManifestFile.write(entries, "none"));
            out.writeInt(split.files().size());
            for (PlannedFile file : split.files()) {
                out.writeBoolean(file.deletionFile().isPresent());
                if (file.deletionFile().isPresent()) {
                    DeletionFile deletion = file.deletionFile().get();
                    writeString(out, deletion.indexFileName());
                    out.writeInt(deletion.offset());
                    out.writeInt(deletion.length());
                    out.writeLong(deletion.cardinality().orElse(-1));
                }
            }
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
        int bucket = readInt(in, "bucket");
        int totalBuckets = readInt(in, "total buckets");
        boolean mergeRequired = readBoolean(in, "merge flag");
        BinaryRow partition;
        try {
            partition = BinaryRow.fromSerialized(readBytes(in, "partition"));
        }
        catch (IllegalArgumentException e) {
            throw corrupt("its partition: " + e.getMessage());
        }
        byte[] manifest = readBytes(in, "manifest");
        List<ManifestEntry> entries;
        try {
            entries = ManifestFile.read(manifest, "split descriptor");
        }
        catch (IOException e) {
            throw new IllegalArgumentException("Split descriptor is corrupt: " + e.getMessage(), e);
        }
        int fileCount = readInt(in, "file count");
        if (fileCount != entries.size() || fileCount == 0) {
            throw corrupt("it lists " + fileCount + " deletion-vector slots for " + entries.size() + " files");
        }
        List<PlannedFile> files = new ArrayList<>(fileCount);
        for (ManifestEntry entry : entries) {
            Optional<DeletionFile> deletion = Optional.empty();
            if (readBoolean(in, "deletion-vector flag")) {
                String indexFile = readString(in, "index file name");
                int offset = readInt(in, "deletion-vector offset");
                int length = readInt(in, "deletion-vector length");
                long cardinality = readLong(in, "deletion-vector cardinality");
                if (offset < 0 || length < 0) {
                    throw corrupt("deletion vector range " + offset + "+" + length + " of " + entry.file().fileName());
                }
                deletion = Optional.of(new DeletionFile(indexFile, offset, length, cardinality < 0 ? OptionalLong.empty() : OptionalLong.of(cardinality)));
            }
            files.add(new PlannedFile(entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file(), deletion));
        }
        if (in.hasRemaining()) {
            throw corrupt(in.remaining() + " bytes follow its end");
        }
        DataSplit split = new DataSplit(partition, bucket, totalBuckets, files, mergeRequired);
        return new SplitDescriptor(warehouse, table, branch, snapshot < 0 ? OptionalLong.empty() : OptionalLong.of(snapshot), schemaId, columnIds, where, split);
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
