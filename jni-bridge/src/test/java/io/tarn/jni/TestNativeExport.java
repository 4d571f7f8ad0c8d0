package io.tarn.jni;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.tarn.vector.rows.CanonicalRowFormatter;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tarn's own exporter ({@link NativeStream}, {@link BatchExporter}, libtarn.so's callbacks) read
 * back in this JVM by Arrow Java's C Data importer: every column type Tarn reads, with and
 * without NULLs, nested, compared row by row with Apache Paimon's rows and with the same stream
 * exported by Arrow Java's exporter; and the stream's memory, released in every order.
 */
public class TestNativeExport
{
    private static final List<ReferenceTable> TABLES = List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED, ReferenceTables.PK_DV,
            ReferenceTables.APPEND_EVOLVED, ReferenceTables.APPEND_BUCKETED);
    private static final String BUCKETED = ReferenceTables.APPEND_BUCKETED.identifier();

    private Path warehouse;
    private BufferAllocator allocator;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        TarnBridge.loadLibrary(NativeProgram.TARGET.resolve("libtarn.so").toString());
        assertThat(NativeStream.available()).isTrue();
        warehouse = TemporaryDirectories.create("tarn-jni-export");
        for (ReferenceTable table : TABLES) {
            ReferenceTables.create(warehouse, table);
        }
        allocator = new RootAllocator();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (allocator != null) {
            allocator.close();
        }
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    @Test
    public void testEveryTableMatchesPaimonAndArrowJavasExporter()
            throws IOException
    {
        for (ReferenceTable table : TABLES) {
            String name = table.identifier();
            List<String> tarn = read(name, null, true);
            assertThat(CanonicalRows.of(tarn)).as(name).isEqualTo(ReferenceReader.read(warehouse, name));
            assertThat(tarn).as(name + ", batch by batch as Arrow Java exports it").isEqualTo(read(name, null, false));
            assertNothingLeft();
        }
    }

    @Test
    public void testProjectionsOfSingleTypes()
            throws IOException
    {
        // one column at a time, so that a column exported with another column's buffers cannot pass
        String table = ReferenceTables.APPEND_ALL_TYPES.identifier();
        for (DataField field : fields(table)) {
            List<String> tarn = read(table, field.name(), true);
            assertThat(tarn).as(field.name()).isEqualTo(read(table, field.name(), false));
            assertThat(tarn).as(field.name()).hasSize((int) ReferenceTables.APPEND_ALL_TYPES.expectedRowCount());
        }
        assertNothingLeft();
    }

    @Test
    public void testBatchesReleasedAfterTheStreamInAnyOrder()
            throws IOException
    {
        for (long seed = 0; seed < 3; seed++) {
            List<VectorSchemaRoot> held = new ArrayList<>();
            List<String> lines = new ArrayList<>();
            List<DataField> fields = fields(BUCKETED);
            try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                assertThat(TarnBridge.openTable(warehouse.toString(), BUCKETED, null, null, null, null, stream.memoryAddress(), true)).isNull();
                assertThat(NativeStream.openStreams()).isEqualTo(1);
                try (ArrowReader reader = Data.importArrayStream(allocator, stream)) {
                    while (reader.loadNextBatch()) {
                        held.add(keep(reader.getVectorSchemaRoot()));
                    }
                }
            }
            // the stream is released, its batches are not: still readable, still accounted for
            assertThat(NativeStream.openStreams()).isZero();
            assertThat(held).as("batches").hasSizeGreaterThan(2);
            assertThat(NativeStream.openBatches()).isEqualTo(held.size());
            assertThat(NativeStream.parkedBatches()).isEqualTo(held.size());
            assertThat(TarnBridge.openAllocators()).isEqualTo(1);
            assertThat(TarnBridge.allocatedBytes()).isPositive();
            for (VectorSchemaRoot root : held) {
                CanonicalRowFormatter.appendLines(root, fields, lines);
            }
            assertThat(CanonicalRows.of(lines)).isEqualTo(ReferenceReader.read(warehouse, BUCKETED));

            Collections.shuffle(held, new Random(seed));
            for (int i = 0; i < held.size(); i++) {
                held.get(i).close();
                assertThat(NativeStream.openBatches()).isEqualTo(held.size() - i - 1);
                if (i < held.size() - 1) {
                    assertThat(TarnBridge.openAllocators()).as("allocator of a stream with batches left").isEqualTo(1);
                }
            }
            assertNothingLeft();
        }
    }

    @Test
    public void testBatchesReleasedBeforeTheStreamFromAnotherThread()
            throws Exception
    {
        List<VectorSchemaRoot> held = new ArrayList<>();
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            assertThat(TarnBridge.openTable(warehouse.toString(), BUCKETED, null, null, null, null, stream.memoryAddress(), true)).isNull();
            try (ArrowReader reader = Data.importArrayStream(allocator, stream)) {
                while (reader.loadNextBatch()) {
                    held.add(keep(reader.getVectorSchemaRoot()));
                }
                Thread releaser = new Thread(() -> {
                    for (int i = held.size() - 1; i >= 0; i--) {
                        held.get(i).close();
                    }
                });
                releaser.start();
                releaser.join();
                assertThat(NativeStream.openBatches()).isZero();
                assertThat(NativeStream.openStreams()).isEqualTo(1);
                assertThat(TarnBridge.openAllocators()).isEqualTo(1);
            }
        }
        assertNothingLeft();
    }

    @Test
    public void testStreamReleasedWhileItsBatchIsStillTheReaders()
            throws IOException
    {
        List<DataField> fields = fields(BUCKETED);
        List<String> expected = new ArrayList<>();
        VectorSchemaRoot kept;
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            assertThat(TarnBridge.openTable(warehouse.toString(), BUCKETED, null, null, null, null, stream.memoryAddress(), true)).isNull();
            try (ArrowReader reader = Data.importArrayStream(allocator, stream)) {
                assertThat(reader.loadNextBatch()).isTrue();
                CanonicalRowFormatter.appendLines(reader.getVectorSchemaRoot(), fields, expected);
                kept = keep(reader.getVectorSchemaRoot());
            }
        }
        // the stream was released, and its split reader closed, while the only batch exported was
        // still in the split reader's vectors: the batch must have been handed over, not freed
        assertThat(NativeStream.openStreams()).isZero();
        assertThat(NativeStream.openBatches()).isEqualTo(1);
        assertThat(NativeStream.parkedBatches()).isEqualTo(1);
        assertThat(TarnBridge.openAllocators()).isEqualTo(1);
        List<String> after = new ArrayList<>();
        CanonicalRowFormatter.appendLines(kept, fields, after);
        assertThat(after).isNotEmpty().isEqualTo(expected);
        kept.close();
        assertNothingLeft();
    }

    private List<String> read(String table, String columns, boolean tarnExporter)
            throws IOException
    {
        List<DataField> fields = fields(table);
        if (columns != null) {
            fields = fields.stream().filter(field -> field.name().equals(columns)).toList();
        }
        List<String> lines = new ArrayList<>();
        try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            String error = TarnBridge.openTable(warehouse.toString(), table, null, columns, null, null, stream.memoryAddress(), tarnExporter);
            assertThat(error).isNull();
            assertThat(NativeStream.openStreams()).isEqualTo(tarnExporter ? 1 : 0);
            try (ArrowReader reader = Data.importArrayStream(allocator, stream)) {
                while (reader.loadNextBatch()) {
                    CanonicalRowFormatter.appendLines(reader.getVectorSchemaRoot(), fields, lines);
                }
            }
        }
        return lines;
    }

    private List<DataField> fields(String table)
            throws IOException
    {
        return PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), Identifier.parse(table)).schema().fields();
    }

    /** A root that takes over the imported batch's buffers, so that the batch lives as long as it. */
    private VectorSchemaRoot keep(VectorSchemaRoot imported)
    {
        VectorSchemaRoot kept = VectorSchemaRoot.create(imported.getSchema(), allocator);
        for (int i = 0; i < imported.getFieldVectors().size(); i++) {
            FieldVector from = imported.getVector(i);
            from.makeTransferPair(kept.getVector(i)).transfer();
        }
        kept.setRowCount(imported.getRowCount());
        return kept;
    }

    private void assertNothingLeft()
    {
        assertThat(NativeStream.openStreams()).as("open streams").isZero();
        assertThat(NativeStream.openBatches()).as("open batches").isZero();
        assertThat(TarnBridge.openAllocators()).as("stream allocators not closed").isZero();
        assertThat(TarnBridge.allocatedBytes()).as("bytes held by the bridge").isZero();
        assertThat(allocator.getAllocatedMemory()).as("bytes held by the importing side").isZero();
    }
}
