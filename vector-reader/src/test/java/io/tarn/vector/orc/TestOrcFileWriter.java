package io.tarn.vector.orc;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ArrowRowFormatter;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.TestDataGenerator;
import io.tarn.vector.writer.DataFileWriteResult;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.data.GenericRow;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Files of {@link OrcFileWriter} read by Paimon's ORC reader (through orc-core) and by Tarn's:
 * random rows of every type Paimon writes to ORC, copied from a file of Paimon's writer into
 * several stripes and row groups, come back row for row as Paimon reads its own file; an empty
 * file is a valid ORC file; a batch of another schema is refused.
 */
public class TestOrcFileWriter
{
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testEveryTypeRoundTrips()
            throws IOException
    {
        long seed = new Random().nextLong();
        System.out.println("TestOrcFileWriter seed: " + seed);
        List<GenericRow> rows = new TestDataGenerator(seed).rows(TestDataGenerator.ALL_TYPES, 3000);
        Map<String, String> options = Map.of("orc.row.index.stride", "1000", "orc.stripe.size", "50000", "orc.rows.between.memory.checks", "100");
        byte[] paimonFile = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, rows, options, "zstd");
        List<String> expected = OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, paimonFile, options);

        OrcWriteOptions writeOptions = OrcWriteOptions.fromTableOptions(options).withCompressionBlockSize(8192);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataFileWriteResult result;
        try (OrcFileWriter writer = OrcFileWriter.create(out, "copy.orc", new RowType(FIELDS, false), writeOptions);
                OrcReader reader = OrcReader.open(DataFileInput.of("paimon.orc", paimonFile), ReadOptions.of(FIELDS).withBatchSize(777), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                writer.write(reader.root());
            }
            result = writer.finish();
        }
        byte[] tarnFile = out.toByteArray();
        assertThat(result.fileSize()).isEqualTo(tarnFile.length);
        assertThat(result.rowCount()).isEqualTo(rows.size());

        assertThat(OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, tarnFile, options)).as("seed %s", seed).containsExactlyElementsOf(expected);
        assertThat(tarnRows(tarnFile)).as("seed %s", seed).containsExactlyElementsOf(tarnRows(paimonFile));

        OrcTail tail = OrcTail.read(DataFileInput.of("copy.orc", tarnFile));
        assertThat(tail.footer().stripes().size()).as("stripes").isGreaterThan(1);
        assertThat(tail.footer().rowIndexStride()).isEqualTo(1000);
    }

    @Test
    public void testEmptyFile()
            throws IOException
    {
        List<DataField> fields = List.of(new DataField(7, "id", new AtomicType(TypeRoot.INT, 0, 0, true)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OrcFileWriter writer = OrcFileWriter.create(out, "empty.orc", new RowType(fields, false), OrcWriteOptions.defaults())) {
            DataFileWriteResult result = writer.finish();
            assertThat(result.rowCount()).isZero();
            assertThat(result.statistics()).containsExactly(new io.tarn.vector.writer.ColumnStatistics(7, null, null, 0));
        }
        byte[] file = out.toByteArray();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("empty.orc", file), ReadOptions.of(fields), fields, allocator)) {
            assertThat(reader.nextBatch()).isFalse();
            assertThat(reader.fileRowCount()).isZero();
        }
        org.apache.paimon.types.RowType paimonType = org.apache.paimon.types.RowType.of(
                new org.apache.paimon.types.DataField(7, "id", org.apache.paimon.types.DataTypes.INT()));
        assertThat(OrcTestFiles.paimonRows(paimonType, file, Map.of())).isEmpty();
    }

    @Test
    public void testBatchOfAnotherSchemaIsRefused()
            throws IOException
    {
        List<DataField> fields = List.of(new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true)));
        List<DataField> other = List.of(new DataField(0, "other", new AtomicType(TypeRoot.INT, 0, 0, true)));
        try (OrcFileWriter writer = OrcFileWriter.create(new ByteArrayOutputStream(), "file.orc", new RowType(fields, false), OrcWriteOptions.defaults());
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(other), allocator)) {
            ((IntVector) batch.getVector(0)).setSafe(0, 1);
            batch.setRowCount(1);
            assertThatThrownBy(() -> writer.write(batch))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not match the schema of file.orc");
            writer.finish();
            assertThatThrownBy(() -> writer.write(batch))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("ORC file file.orc is already finished");
        }
    }

    private List<String> tarnRows(byte[] file)
            throws IOException
    {
        List<String> lines = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("file.orc", file), ReadOptions.of(FIELDS), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                lines.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
            }
        }
        return lines;
    }
}
