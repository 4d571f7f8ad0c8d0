package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.DeletionFile;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Deletion vectors read by Tarn equal those Apache Paimon reads, position by position, in the
 * 32-bit and the 64-bit format; damaged vectors are rejected naming the index file.
 */
public class TestDeletionVectorReader
{
    private Path warehouse;
    private PaimonTables bitmap64Tables;
    private final RootAllocator allocator = new RootAllocator();

    @BeforeClass
    public void createTables()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-deletion-vectors");
        ReferenceTables.create(warehouse, ReferenceTables.PK_DV);
        bitmap64Tables = new PaimonTables();
        FileStoreTable table = bitmap64Tables.create("dv64", Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .option("deletion-vectors.bitmap64", "true")
                .build());
        List<InternalRow> rows = new ArrayList<>();
        for (int id = 0; id < 100; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString("a" + id)));
        }
        bitmap64Tables.write(table, rows.toArray(InternalRow[]::new));
        bitmap64Tables.compact(table);
        rows.clear();
        for (int id = 0; id < 100; id += 3) {
            rows.add(GenericRow.ofKind(RowKind.UPDATE_AFTER, id, BinaryString.fromString("b" + id)));
        }
        bitmap64Tables.write(table, rows.toArray(InternalRow[]::new));
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
            throws Exception
    {
        assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
        allocator.close();
        if (bitmap64Tables != null) {
            bitmap64Tables.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testVectorsEqualPaimons()
            throws IOException
    {
        assertThat(compareAll(warehouse.toString(), "ref.pk_dv")).as("files with 32-bit deletion vectors").isPositive();
        assertThat(compareAll(bitmap64Tables.warehouse(), "db.dv64")).as("files with 64-bit deletion vectors").isPositive();
    }

    @Test
    public void testDamagedVectorsAreRejected()
            throws IOException
    {
        PaimonTable table = table(warehouse.toString(), "ref.pk_dv");
        PlannedFile file = filesWithVectors(table).get(0);
        DeletionFile range = file.deletionFile().orElseThrow();
        Path indexFile = Path.of(table.indexFilePath(range.indexFileName()));
        Path copy = warehouse.resolve("damaged-index");
        byte[] bytes = Files.readAllBytes(indexFile);
        bytes[range.offset() + 12] ^= 0x01;
        Files.write(copy, bytes);
        LocalFileIO fileIO = new LocalFileIO();

        assertThatThrownBy(() -> DeletionVectorReader.read(fileIO.newInputFile(copy.toString()), range))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("damaged-index")
                .hasMessageContaining("CRC");
        DeletionFile pastTheEnd = new DeletionFile(range.indexFileName(), bytes.length - 2, range.length(), OptionalLong.empty());
        assertThatThrownBy(() -> DeletionVectorReader.read(fileIO.newInputFile(indexFile.toString()), pastTheEnd))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(indexFile.getFileName().toString());
        DeletionFile wrongLength = new DeletionFile(range.indexFileName(), range.offset(), range.length() + 1, OptionalLong.empty());
        assertThatThrownBy(() -> DeletionVectorReader.read(fileIO.newInputFile(indexFile.toString()), wrongLength))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("range length");
    }

    @Test
    public void testWrongMagicIsRejected()
            throws IOException
    {
        PaimonTable table = table(warehouse.toString(), "ref.pk_dv");
        DeletionFile range = filesWithVectors(table).get(0).deletionFile().orElseThrow();
        byte[] bytes = Files.readAllBytes(Path.of(table.indexFilePath(range.indexFileName())));
        bytes[range.offset() + 4] ^= 0x10;
        Path copy = warehouse.resolve("wrong-magic-index");
        Files.write(copy, bytes);

        assertThatThrownBy(() -> DeletionVectorReader.read(new LocalFileIO().newInputFile(copy.toString()), range))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("wrong-magic-index")
                .hasMessageContaining("magic");
    }

    /**
     * A vector that deletes a row past the end of its data file cannot belong to it: the read
     * fails naming the data file, instead of silently deleting nothing.
     */
    @Test
    public void testVectorDeletingPastTheEndOfItsFileIsRejected()
            throws IOException
    {
        Path source = warehouse.resolve("ref.db/pk_dv");
        Path target = warehouse.resolve("ref.db/pk_dv_bad_vector");
        TemporaryDirectories.copyRecursively(source, target);
        PaimonTable table = table(warehouse.toString(), "ref.pk_dv_bad_vector");
        PlannedFile file = filesWithVectors(table).get(0);
        DeletionFile range = file.deletionFile().orElseThrow();
        Path indexFile = Path.of(table.indexFilePath(range.indexFileName()));
        RoaringBitmap original = DeletionVectorReader.read(table.fileIO().newInputFile(indexFile.toString()), range);
        // same container and cardinality, so the serialized bitmap keeps its length and the range stays valid
        RoaringBitmap damaged = original.clone();
        damaged.remove(damaged.last());
        damaged.add((int) file.file().rowCount() + 5);
        int size = range.length();
        if (damaged.serializedSizeInBytes() != size - 4) {
            damaged.runOptimize();
        }
        ByteBuffer serialized = ByteBuffer.allocate(damaged.serializedSizeInBytes());
        damaged.serialize(serialized);
        byte[] bitmap = serialized.array();
        byte[] bytes = Files.readAllBytes(indexFile);
        assertThat(bitmap.length).as("the damaged vector must keep the original's length").isEqualTo(size - 4);
        System.arraycopy(bitmap, 0, bytes, range.offset() + 8, bitmap.length);
        CRC32 crc = new CRC32();
        crc.update(bytes, range.offset() + 4, size);
        ByteBuffer.wrap(bytes).putInt(range.offset() + 4 + size, (int) crc.getValue());
        Files.write(indexFile, bytes);

        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        assertThatThrownBy(() -> TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()), allocator, batch -> {}))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(file.file().fileName())
                .hasMessageContaining("rows");
    }

    private static int compareAll(String warehouse, String tableName)
            throws IOException
    {
        PaimonTable table = table(warehouse, tableName);
        org.apache.paimon.fs.FileIO paimonFileIO = org.apache.paimon.fs.local.LocalFileIO.create();
        int compared = 0;
        for (PlannedFile file : filesWithVectors(table)) {
            DeletionFile range = file.deletionFile().orElseThrow();
            String path = table.indexFilePath(range.indexFileName());
            RoaringBitmap tarn = DeletionVectorReader.read(table.fileIO().newInputFile(path), range);
            DeletionVector paimon = DeletionVector.read(paimonFileIO, new org.apache.paimon.table.source.DeletionFile(path, range.offset(), range.length(),
                    range.cardinality().isPresent() ? range.cardinality().getAsLong() : null));
            for (int position = 0; position < file.file().rowCount(); position++) {
                assertThat(tarn.contains(position)).as("%s row %s", file.file().fileName(), position).isEqualTo(paimon.isDeleted(position));
            }
            assertThat(tarn.getLongCardinality()).isEqualTo(paimon.getCardinality()).isPositive();
            range.cardinality().ifPresent(cardinality -> assertThat(tarn.getLongCardinality()).isEqualTo(cardinality));
            compared++;
        }
        return compared;
    }

    private static List<PlannedFile> filesWithVectors(PaimonTable table)
            throws IOException
    {
        return new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest())).files().stream()
                .filter(file -> file.deletionFile().isPresent())
                .toList();
    }

    private static PaimonTable table(String warehouse, String name)
            throws IOException
    {
        return PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse), Identifier.parse(name));
    }
}
