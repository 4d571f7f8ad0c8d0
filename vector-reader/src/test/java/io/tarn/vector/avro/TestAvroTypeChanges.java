package io.tarn.vector.avro;

import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.TestDataGenerator;
import io.tarn.vector.rows.CanonicalRowFormatter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.casting.CastExecutor;
import org.apache.paimon.casting.CastExecutors;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A column whose type changed after the file was written reads as Apache Paimon casts its
 * values ({@link CastExecutors}, the oracle): integers widened, to floating point, decimals and
 * text; floating point to wider and to text; decimals to another scale and precision (null when
 * the digits no longer fit); timestamps to another unit.
 */
public class TestAvroTypeChanges
{
    private static final RowType FILE_TYPE = RowType.builder()
            .field("ti", DataTypes.TINYINT())
            .field("si", DataTypes.SMALLINT())
            .field("i", DataTypes.INT())
            .field("bi", DataTypes.BIGINT())
            .field("f", DataTypes.FLOAT())
            .field("d", DataTypes.DOUBLE())
            .field("dec", DataTypes.DECIMAL(10, 2))
            .field("ts3", DataTypes.TIMESTAMP(3))
            .field("ts6", DataTypes.TIMESTAMP(6))
            .field("ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
            .build();

    private final RootAllocator allocator = new RootAllocator();
    private final List<GenericRow> rows = new TestDataGenerator(31).rows(FILE_TYPE, 400);
    private final byte[] file = AvroTestFiles.write(FILE_TYPE, rows, "zstd");

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] changes()
    {
        return new Object[][] {
                {"ti", DataTypes.INT()},
                {"ti", DataTypes.BIGINT()},
                {"si", DataTypes.BIGINT()},
                {"i", DataTypes.BIGINT()},
                {"i", DataTypes.FLOAT()},
                {"i", DataTypes.DOUBLE()},
                {"bi", DataTypes.DOUBLE()},
                {"f", DataTypes.DOUBLE()},
                {"i", DataTypes.STRING()},
                {"bi", DataTypes.VARCHAR(5)},
                {"si", DataTypes.CHAR(8)},
                {"f", DataTypes.STRING()},
                {"d", DataTypes.STRING()},
                {"i", DataTypes.DECIMAL(12, 2)},
                {"i", DataTypes.DECIMAL(5, 2)},
                {"bi", DataTypes.DECIMAL(38, 4)},
                {"dec", DataTypes.DECIMAL(12, 4)},
                {"dec", DataTypes.DECIMAL(38, 10)},
                {"dec", DataTypes.DECIMAL(6, 2)},
                {"ts3", DataTypes.TIMESTAMP(6)},
                {"ts3", DataTypes.TIMESTAMP(9)},
                {"ts6", DataTypes.TIMESTAMP(9)},
                {"ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)},
        };
    }

    @Test(dataProvider = "changes")
    public void testChangedTypeReadsAsPaimonCasts(String column, DataType target)
            throws IOException
    {
        int index = FILE_TYPE.getFieldIndex(column);
        DataType source = FILE_TYPE.getTypeAt(index);
        @SuppressWarnings("unchecked")
        CastExecutor<Object, Object> cast = (CastExecutor<Object, Object>) CastExecutors.resolve(source, target);
        InternalRow.FieldGetter getter = InternalRow.createFieldGetter(source, index);
        List<String> expected = new ArrayList<>();
        for (GenericRow row : rows) {
            Object value = getter.getFieldOrNull(row);
            expected.add(CanonicalValueFormatter.formatValue(value == null ? null : cast.cast(value), target));
        }

        List<DataField> fileFields = ParquetTestFiles.tarnFields(FILE_TYPE);
        DataField written = fileFields.get(index);
        List<DataField> columns = List.of(written.withType(ParquetTestFiles.tarnType(target)));
        List<String> actual = new ArrayList<>();
        try (AvroReader reader = AvroReader.open(DataFileInput.of("test.avro", file), ReadOptions.of(columns).withBatchSize(77), fileFields, allocator)) {
            while (reader.nextBatch()) {
                CanonicalRowFormatter.appendLines(reader.root(), columns, actual);
            }
        }
        assertThat(actual).as("%s %s as %s", column, source, target).containsExactlyElementsOf(expected);
    }
}
