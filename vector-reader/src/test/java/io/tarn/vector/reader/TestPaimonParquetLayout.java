package io.tarn.vector.reader;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.io.DataFileInput;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.paimon.data.GenericRow;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.MicroSeconds;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.Util;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A file read with the schema it was written with binds its columns by field id and must lay
 * each out as Paimon writes the field's type: footers of a Paimon-written file changed in one
 * schema property fail as corrupt, naming the file and column; the unchanged file, fields its
 * schema lacks (read as nulls) and widened types read.
 */
public class TestPaimonParquetLayout
{
    private static final String NAME = "layout.parquet";
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
    private static final int ROWS = 40;

    private final RootAllocator allocator = new RootAllocator();
    private final List<GenericRow> rows = new TestDataGenerator(11).rows(TestDataGenerator.ALL_TYPES, ROWS);
    private final byte[] file = ParquetTestFiles.write(TestDataGenerator.ALL_TYPES, rows, Map.of(), "zstd");

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    public void testPaimonWrittenFileMatchesItsSchema()
            throws IOException
    {
        assertThat(readAll(file, FIELDS, FIELDS)).isEqualTo(ROWS);
    }

    @Test
    public void testFieldAddedLaterReadsAsNulls()
            throws IOException
    {
        List<DataField> requested = new ArrayList<>(FIELDS);
        requested.add(new DataField(500, "added", new AtomicType(TypeRoot.VARCHAR, AtomicType.MAX_LENGTH, 0, true)));
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of(NAME, file), ReadOptions.of(requested), FIELDS, allocator)) {
            int read = 0;
            while (reader.nextBatch()) {
                FieldVector added = reader.root().getVector("added");
                assertThat(added.getNullCount()).isEqualTo(reader.root().getRowCount());
                read += reader.root().getRowCount();
            }
            assertThat(read).isEqualTo(ROWS);
        }
    }

    @Test
    public void testWidenedTypeReadsConverted()
            throws IOException
    {
        // column i (id 4) was written as INT and is read as BIGINT
        DataField widened = new DataField(4, "i", new AtomicType(TypeRoot.BIGINT, 0, 0, true));
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of(NAME, file), ReadOptions.of(List.of(widened)), FIELDS, allocator)) {
            int row = 0;
            while (reader.nextBatch()) {
                BigIntVector values = (BigIntVector) reader.root().getVector(0);
                for (int i = 0; i < reader.root().getRowCount(); i++, row++) {
                    if (rows.get(row).isNullAt(4)) {
                        assertThat(values.isNull(i)).isTrue();
                    }
                    else {
                        assertThat(values.get(i)).isEqualTo(rows.get(row).getInt(4));
                    }
                }
            }
            assertThat(row).isEqualTo(ROWS);
        }
    }

    @Test
    public void testChangedFieldId()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "i").setField_id(99));
        assertCorrupt(changed, FIELDS, "no column with field id 4", "column i has field id 99");
    }

    @Test
    public void testColumnTheSchemaLacks()
    {
        List<DataField> without = FIELDS.stream().filter(field -> field.id() != 5).toList();
        assertCorrupt(file, without, "column bi has field id 5, which the schema the file was written with lacks");
    }

    @Test
    public void testRequiredColumnMadeOptional()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "req").setRepetition_type(FieldRepetitionType.OPTIONAL));
        assertCorrupt(changed, FIELDS, "column req of type INT NOT NULL is optional");
    }

    @Test
    public void testOptionalColumnMadeRequired()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "s").setRepetition_type(FieldRepetitionType.REQUIRED));
        assertCorrupt(changed, FIELDS, "column s of type STRING is required");
    }

    @Test
    public void testDecimalScaleChanged()
    {
        byte[] changed = withFooter(metadata -> {
            SchemaElement element = element(metadata, "dec9");
            element.setScale(3);
            element.getLogicalType().getDECIMAL().setScale(3);
        });
        assertCorrupt(changed, FIELDS, "column dec9", "DECIMAL(9, 3)");
    }

    @Test
    public void testDecimalLengthChanged()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "dec38").setType_length(15));
        assertCorrupt(changed, FIELDS, "column dec38", "length of 15");
    }

    @Test
    public void testTimestampUnitChanged()
    {
        byte[] changed = withFooter(metadata -> {
            SchemaElement element = element(metadata, "ts3");
            element.setConverted_type(ConvertedType.TIMESTAMP_MICROS);
            element.getLogicalType().getTIMESTAMP().setUnit(TimeUnit.MICROS(new MicroSeconds()));
        });
        assertCorrupt(changed, FIELDS, "column ts3", "timestamp unit");
    }

    @Test
    public void testNestedFieldIdChanged()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "x").setField_id(150));
        assertCorrupt(changed, FIELDS, "column r", "no child with field id 100");
    }

    @Test
    public void testListWithoutRepeatedGroup()
    {
        // the repeated group of arr made optional: its elements would lose their repetition level
        byte[] changed = withFooter(metadata -> {
            List<SchemaElement> schema = metadata.getSchema();
            int arr = schema.indexOf(element(metadata, "arr"));
            schema.get(arr + 1).setRepetition_type(FieldRepetitionType.OPTIONAL);
        });
        assertCorrupt(changed, FIELDS, "column arr.list", "not a repeated group");
    }

    @Test
    public void testDuplicateFieldIdsWithoutFileSchema()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "bi").setField_id(4));
        assertThatThrownBy(() -> readAll(changed, FIELDS, null))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("two schema fields with field id 4");
    }

    @Test
    public void testChunkPathDisagreesWithSchema()
    {
        byte[] changed = withFooter(metadata -> metadata.getRow_groups().get(0).getColumns().get(1).getMeta_data().setPath_in_schema(List.of("x")));
        assertThatThrownBy(() -> readAll(changed, FIELDS, null))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("column chunk for x where the schema has column b");
    }

    @Test
    public void testRowCountsDisagree()
    {
        byte[] changed = withFooter(metadata -> metadata.setNum_rows(ROWS - 1));
        assertThatThrownBy(() -> readAll(changed, FIELDS, null))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("39 rows by its footer but 40 in its row groups");
    }

    @Test
    public void testOneChunkWithAnotherCodec()
    {
        byte[] changed = withFooter(metadata -> metadata.getRow_groups().get(0).getColumns().get(1).getMeta_data().setCodec(CompressionCodec.LZO));
        assertThatThrownBy(() -> readAll(changed, FIELDS, null))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("column b has the compression codec LZO where other columns have ZSTD");
    }

    @Test
    public void testFieldWithoutRepetition()
    {
        byte[] changed = withFooter(metadata -> element(metadata, "s").unsetRepetition_type());
        assertThatThrownBy(() -> readAll(changed, FIELDS, null))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("schema field s without a valid repetition");
    }

    private void assertCorrupt(byte[] bytes, List<DataField> fileFields, String... messageParts)
    {
        assertThatThrownBy(() -> readAll(bytes, FIELDS, fileFields))
                .isInstanceOf(ParquetCorruptionException.class)
                .hasMessageContaining(NAME)
                .satisfies(e -> {
                    for (String part : messageParts) {
                        assertThat(e.getMessage()).contains(part);
                    }
                });
    }

    private static SchemaElement element(FileMetaData metadata, String name)
    {
        return metadata.getSchema().stream()
                .filter(element -> element.getName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /**
     * The file with its footer changed by {@code change}; the column data stays where it is.
     */
    private byte[] withFooter(Consumer<FileMetaData> change)
    {
        try {
            int length = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getInt(file.length - 8);
            int start = file.length - 8 - length;
            FileMetaData metadata = Util.readFileMetaData(new ByteArrayInputStream(file, start, length));
            change.accept(metadata);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(file, 0, start);
            ByteArrayOutputStream footer = new ByteArrayOutputStream();
            Util.writeFileMetaData(metadata, footer);
            footer.writeTo(out);
            out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size()).array());
            out.write(Arrays.copyOfRange(file, file.length - 4, file.length));
            return out.toByteArray();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int readAll(byte[] bytes, List<DataField> columns, List<DataField> fileFields)
            throws IOException
    {
        DataFileInput input = DataFileInput.of(NAME, bytes);
        ReadOptions options = ReadOptions.of(columns).withBatchSize(16);
        int read = 0;
        try (ParquetReader reader = fileFields == null ? ParquetReader.open(input, options, allocator) : ParquetReader.open(input, options, fileFields, allocator)) {
            while (reader.nextBatch()) {
                read += reader.root().getRowCount();
            }
        }
        return read;
    }
}
