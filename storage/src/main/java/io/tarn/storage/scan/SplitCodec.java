package io.tarn.storage.scan;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The one binary form of a {@link DataSplit}, and of a {@link ManifestEntry}, that every front end
 * ships between the node that plans and the nodes that read (Trino's splits and written files,
 * the C ABI's split descriptors), so that readers read exactly the files planning chose without
 * reading manifests. A version byte guards against a node of another build. The bytes may come
 * from a caller of the C ABI, so decoding checks every length and count against the bytes that
 * remain and refuses trailing bytes; it fails with {@link IllegalArgumentException}.
 */
public final class SplitCodec
{
    // 2: a split may read a row range of its file
    private static final int VERSION = 2;

    private SplitCodec() {}

    public static byte[] encode(DataSplit split)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            writeRow(out, split.partition());
            out.writeInt(split.bucket());
            out.writeInt(split.totalBuckets());
            out.writeBoolean(split.mergeRequired());
            out.writeBoolean(split.rowRange().isPresent());
            if (split.rowRange().isPresent()) {
                out.writeLong(split.rowRange().get().start());
                out.writeLong(split.rowRange().get().end());
            }
            out.writeInt(split.files().size());
            for (PlannedFile file : split.files()) {
                writeRow(out, file.partition());
                out.writeInt(file.bucket());
                out.writeInt(file.totalBuckets());
                writeFile(out, file.file());
                out.writeBoolean(file.deletionFile().isPresent());
                if (file.deletionFile().isPresent()) {
                    DeletionFile deletion = file.deletionFile().get();
                    out.writeUTF(deletion.indexFileName());
                    out.writeInt(deletion.offset());
                    out.writeInt(deletion.length());
                    writeOptionalLong(out, deletion.cardinality());
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static DataSplit decode(byte[] encoded)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            checkVersion(in, "Split");
            BinaryRow partition = readRow(in);
            int bucket = in.readInt();
            int totalBuckets = in.readInt();
            boolean mergeRequired = in.readBoolean();
            Optional<RowRange> rowRange = Optional.empty();
            if (in.readBoolean()) {
                long start = in.readLong();
                long end = in.readLong();
                if (start < 0 || end <= start) {
                    throw new IllegalArgumentException("Split is corrupt: row range [%s, %s)".formatted(start, end));
                }
                rowRange = Optional.of(new RowRange(start, end));
            }
            // a file takes far more than 16 bytes: a larger count cannot be true
            int fileCount = readCount(in, 16);
            List<PlannedFile> files = new ArrayList<>(fileCount);
            for (int i = 0; i < fileCount; i++) {
                BinaryRow filePartition = readRow(in);
                int fileBucket = in.readInt();
                int fileTotalBuckets = in.readInt();
                DataFileMeta meta = readFile(in);
                Optional<DeletionFile> deletion = Optional.empty();
                if (in.readBoolean()) {
                    String indexFile = in.readUTF();
                    int offset = in.readInt();
                    int length = in.readInt();
                    if (offset < 0 || length < 0) {
                        throw new IllegalArgumentException("Split is corrupt: deletion vector range %s+%s of %s".formatted(offset, length, meta.fileName()));
                    }
                    deletion = Optional.of(new DeletionFile(indexFile, offset, length, readOptionalLong(in)));
                }
                files.add(new PlannedFile(filePartition, fileBucket, fileTotalBuckets, meta, deletion));
            }
            checkEnd(in, "Split");
            return new DataSplit(partition, bucket, totalBuckets, files, mergeRequired, rowRange);
        }
        catch (IOException e) {
            throw corrupt("Split", e);
        }
    }

    /**
     * A manifest entry a writer produced, on its way from a worker to the committing coordinator.
     */
    public static byte[] encode(ManifestEntry entry)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(entry.kind().name());
            writeRow(out, entry.partition());
            out.writeInt(entry.bucket());
            out.writeInt(entry.totalBuckets());
            writeFile(out, entry.file());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static ManifestEntry decodeEntry(byte[] encoded)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            checkVersion(in, "Manifest entry");
            ManifestEntry entry = new ManifestEntry(FileKind.valueOf(in.readUTF()), readRow(in), in.readInt(), in.readInt(), readFile(in));
            checkEnd(in, "Manifest entry");
            return entry;
        }
        catch (IOException e) {
            throw corrupt("Manifest entry", e);
        }
    }

    private static IllegalArgumentException corrupt(String what, IOException e)
    {
        String problem = e instanceof EOFException ? "it ends early" : e.toString();
        return new IllegalArgumentException("%s is corrupt: %s".formatted(what, problem), e);
    }

    private static void checkVersion(DataInputStream in, String what)
            throws IOException
    {
        int version = in.readByte();
        if (version != VERSION) {
            throw new IllegalArgumentException("%s encoded with version %s; this build reads version %s".formatted(what, version, VERSION));
        }
    }

    private static void checkEnd(DataInputStream in, String what)
            throws IOException
    {
        if (in.available() > 0) {
            throw new IllegalArgumentException("%s is corrupt: %s bytes follow its end".formatted(what, in.available()));
        }
    }

    /**
     * A count of items that each take at least {@code itemBytes}: checked against the bytes left,
     * so that a corrupt count cannot make the decoder allocate for items that are not there.
     */
    private static int readCount(DataInputStream in, int itemBytes)
            throws IOException
    {
        int count = in.readInt();
        if (count < 0 || (long) count * itemBytes > in.available()) {
            throw new IllegalArgumentException("Split is corrupt: a count of %s exceeds the %s bytes left".formatted(count, in.available()));
        }
        return count;
    }

    private static void writeFile(DataOutputStream out, DataFileMeta file)
            throws IOException
    {
        out.writeUTF(file.fileName());
        out.writeLong(file.fileSize());
        out.writeLong(file.rowCount());
        writeRow(out, file.minKey());
        writeRow(out, file.maxKey());
        writeStats(out, file.keyStats());
        writeStats(out, file.valueStats());
        out.writeLong(file.minSequenceNumber());
        out.writeLong(file.maxSequenceNumber());
        out.writeLong(file.schemaId());
        out.writeInt(file.level());
        writeStrings(out, file.extraFiles());
        writeOptionalLong(out, file.creationTime());
        writeOptionalLong(out, file.deleteRowCount());
        writeBytes(out, file.embeddedIndex());
        out.writeBoolean(file.fileSource().isPresent());
        if (file.fileSource().isPresent()) {
            out.writeInt(file.fileSource().getAsInt());
        }
        writeOptionalStrings(out, file.valueStatsCols());
        out.writeBoolean(file.externalPath().isPresent());
        if (file.externalPath().isPresent()) {
            out.writeUTF(file.externalPath().get());
        }
        writeOptionalLong(out, file.firstRowId());
        writeOptionalStrings(out, file.writeCols());
    }

    private static DataFileMeta readFile(DataInputStream in)
            throws IOException
    {
        String fileName = in.readUTF();
        long fileSize = in.readLong();
        long rowCount = in.readLong();
        BinaryRow minKey = readRow(in);
        BinaryRow maxKey = readRow(in);
        SimpleStats keyStats = readStats(in);
        SimpleStats valueStats = readStats(in);
        long minSequenceNumber = in.readLong();
        long maxSequenceNumber = in.readLong();
        long schemaId = in.readLong();
        int level = in.readInt();
        List<String> extraFiles = readStrings(in);
        OptionalLong creationTime = readOptionalLong(in);
        OptionalLong deleteRowCount = readOptionalLong(in);
        byte[] embeddedIndex = readBytes(in);
        OptionalInt fileSource = in.readBoolean() ? OptionalInt.of(in.readInt()) : OptionalInt.empty();
        Optional<List<String>> valueStatsCols = readOptionalStrings(in);
        Optional<String> externalPath = in.readBoolean() ? Optional.of(in.readUTF()) : Optional.empty();
        OptionalLong firstRowId = readOptionalLong(in);
        Optional<List<String>> writeCols = readOptionalStrings(in);
        return new DataFileMeta(fileName, fileSize, rowCount, minKey, maxKey, keyStats, valueStats, minSequenceNumber, maxSequenceNumber,
                schemaId, level, extraFiles, creationTime, deleteRowCount, embeddedIndex, fileSource, valueStatsCols, externalPath, firstRowId, writeCols);
    }

    private static void writeStats(DataOutputStream out, SimpleStats stats)
            throws IOException
    {
        writeRow(out, stats.minValues());
        writeRow(out, stats.maxValues());
        out.writeInt(stats.nullCounts().size());
        for (Long count : stats.nullCounts()) {
            out.writeLong(count == null ? -1 : count);
        }
    }

    private static SimpleStats readStats(DataInputStream in)
            throws IOException
    {
        BinaryRow min = readRow(in);
        BinaryRow max = readRow(in);
        int size = readCount(in, 8);
        List<Long> nullCounts = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            long count = in.readLong();
            nullCounts.add(count < 0 ? null : count);
        }
        return new SimpleStats(min, max, nullCounts);
    }

    private static void writeRow(DataOutputStream out, BinaryRow row)
            throws IOException
    {
        writeBytes(out, row.toSerialized());
    }

    private static BinaryRow readRow(DataInputStream in)
            throws IOException
    {
        byte[] bytes = readBytes(in);
        if (bytes == null) {
            throw new IllegalArgumentException("Split is corrupt: a row is missing");
        }
        return BinaryRow.fromSerialized(bytes);
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes)
            throws IOException
    {
        if (bytes == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputStream in)
            throws IOException
    {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.available()) {
            throw new IllegalArgumentException("Split is corrupt: a length of %s exceeds the %s bytes left".formatted(length, in.available()));
        }
        return in.readNBytes(length);
    }

    private static void writeOptionalLong(DataOutputStream out, OptionalLong value)
            throws IOException
    {
        out.writeBoolean(value.isPresent());
        if (value.isPresent()) {
            out.writeLong(value.getAsLong());
        }
    }

    private static OptionalLong readOptionalLong(DataInputStream in)
            throws IOException
    {
        return in.readBoolean() ? OptionalLong.of(in.readLong()) : OptionalLong.empty();
    }

    private static void writeStrings(DataOutputStream out, List<String> values)
            throws IOException
    {
        out.writeInt(values.size());
        for (String value : values) {
            out.writeUTF(value);
        }
    }

    private static List<String> readStrings(DataInputStream in)
            throws IOException
    {
        // a string takes at least its two length bytes
        int size = readCount(in, 2);
        List<String> values = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            values.add(in.readUTF());
        }
        return values;
    }

    private static void writeOptionalStrings(DataOutputStream out, Optional<List<String>> values)
            throws IOException
    {
        out.writeBoolean(values.isPresent());
        if (values.isPresent()) {
            writeStrings(out, values.get());
        }
    }

    private static Optional<List<String>> readOptionalStrings(DataInputStream in)
            throws IOException
    {
        return in.readBoolean() ? Optional.of(readStrings(in)) : Optional.empty();
    }
}
