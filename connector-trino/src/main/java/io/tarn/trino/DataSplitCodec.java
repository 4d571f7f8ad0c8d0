package io.tarn.trino;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.DeletionFile;
import io.tarn.storage.scan.PlannedFile;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Compact binary forms of a {@link DataSplit} and of a {@link ManifestEntry}, which travel
 * between the coordinator and the workers (splits out, written files back), so that workers
 * read exactly the files planning chose without reading manifests. The bytes come from this
 * connector's own nodes, not from a table file; a version byte still guards against a node of
 * another build.
 */
final class DataSplitCodec
{
    private static final int VERSION = 1;

    private DataSplitCodec() {}

    static byte[] encode(DataSplit split)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            writeRow(out, split.partition());
            out.writeInt(split.bucket());
            out.writeInt(split.totalBuckets());
            out.writeBoolean(split.mergeRequired());
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

    static DataSplit decode(byte[] encoded)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("Split encoded with version " + version + ", this worker reads version " + VERSION);
            }
            BinaryRow partition = readRow(in);
            int bucket = in.readInt();
            int totalBuckets = in.readInt();
            boolean mergeRequired = in.readBoolean();
            int fileCount = in.readInt();
            List<PlannedFile> files = new ArrayList<>(fileCount);
            for (int i = 0; i < fileCount; i++) {
                BinaryRow filePartition = readRow(in);
                int fileBucket = in.readInt();
                int fileTotalBuckets = in.readInt();
                DataFileMeta meta = readFile(in);
                Optional<DeletionFile> deletion = Optional.empty();
                if (in.readBoolean()) {
                    deletion = Optional.of(new DeletionFile(in.readUTF(), in.readInt(), in.readInt(), readOptionalLong(in)));
                }
                files.add(new PlannedFile(filePartition, fileBucket, fileTotalBuckets, meta, deletion));
            }
            return new DataSplit(partition, bucket, totalBuckets, files, mergeRequired);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Malformed Tarn split", e);
        }
    }

    /**
     * A manifest entry a writer produced, on its way from a worker to the committing coordinator.
     */
    static byte[] encode(ManifestEntry entry)
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

    static ManifestEntry decodeEntry(byte[] encoded)
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("Manifest entry encoded with version " + version + ", this coordinator reads version " + VERSION);
            }
            return new ManifestEntry(FileKind.valueOf(in.readUTF()), readRow(in), in.readInt(), in.readInt(), readFile(in));
        }
        catch (IOException e) {
            throw new UncheckedIOException("Malformed Tarn manifest entry", e);
        }
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
        int size = in.readInt();
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
        return BinaryRow.fromSerialized(readBytes(in));
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
        if (length < 0) {
            return null;
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
        int size = in.readInt();
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
