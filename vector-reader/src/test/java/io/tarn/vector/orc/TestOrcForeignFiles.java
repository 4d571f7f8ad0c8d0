package io.tarn.vector.orc;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.TypeRoot;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ArrowRowFormatter;
import io.tarn.vector.reader.ReadOptions;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.shade.org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.UnionColumnVector;
import org.apache.paimon.shade.org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.paimon.shade.org.apache.orc.OrcFile;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ORC files Paimon's writer does not make, written with ORC's own writer: without {@code paimon.id}
 * attributes (Paimon before field ids in ORC), matched by the names of the schema the file was
 * written with; with a UNION column; and of the unstable pre-2.0 format version.
 */
public class TestOrcForeignFiles
{
    private static final AtomicType INT = new AtomicType(TypeRoot.INT, 0, 0, true);
    private static final AtomicType BIGINT = new AtomicType(TypeRoot.BIGINT, 0, 0, true);
    private static final AtomicType STRING = new AtomicType(TypeRoot.VARCHAR, Integer.MAX_VALUE, 0, true);
    private static final AtomicType DECIMAL = new AtomicType(TypeRoot.DECIMAL, 10, 2, true);

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testColumnsMatchedByNameWithoutFieldIds()
            throws IOException
    {
        byte[] file = write("struct<id:int,name:string,amount:decimal(10,2)>", OrcFile.Version.V_0_12, batch -> {
            for (int row = 0; row < 5; row++) {
                ((LongColumnVector) batch.cols[0]).vector[row] = row;
                byte[] name = ("n" + row).getBytes(StandardCharsets.UTF_8);
                ((BytesColumnVector) batch.cols[1]).setVal(row, name);
                ((DecimalColumnVector) batch.cols[2]).set(row, HiveDecimal.create(BigDecimal.valueOf(row * 125 - 300, 2)));
            }
            batch.cols[2].noNulls = false;
            batch.cols[2].isNull[4] = true;
            ((DecimalColumnVector) batch.cols[2]).vector[4].setFromLong(0);
            batch.size = 5;
        });
        // the schema the file was written with, then the table's: name renamed, id widened, a column added
        List<DataField> fileFields = List.of(new DataField(0, "id", INT), new DataField(1, "name", STRING), new DataField(2, "amount", DECIMAL));
        List<DataField> columns = List.of(new DataField(1, "label", STRING), new DataField(0, "id", BIGINT), new DataField(7, "added", INT), new DataField(2, "amount", DECIMAL));
        List<String> lines = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("foreign.orc", file), ReadOptions.of(columns), fileFields, allocator)) {
            while (reader.nextBatch()) {
                lines.addAll(ArrowRowFormatter.rows(reader.root(), columns));
            }
        }
        assertThat(lines).containsExactly(
                "n0\t0\t\\N\t-3.00",
                "n1\t1\t\\N\t-1.75",
                "n2\t2\t\\N\t-0.50",
                "n3\t3\t\\N\t0.75",
                "n4\t4\t\\N\t\\N");
    }

    /**
     * ORC's writer drops a decimal's trailing zeros (12.5000 is stored as 125 of scale 1), so the
     * reader scales values up to the column's scale, and further to a wider requested type
     * (after the column's type was widened); the expected values are the written ones.
     */
    @Test
    public void testDecimalsStoredWithFewerDigitsAreScaledUp()
            throws IOException
    {
        List<BigDecimal> written = List.of(new BigDecimal("12.5000"), new BigDecimal("0"), new BigDecimal("-0.0001"), new BigDecimal("999999.9999"),
                new BigDecimal("-999999.9999"), new BigDecimal("123456.7"), new BigDecimal("-100"), new BigDecimal("0.01"));
        byte[] file = write("struct<amount:decimal(10,4)>", OrcFile.Version.V_0_12, batch -> {
            for (int row = 0; row < written.size(); row++) {
                ((DecimalColumnVector) batch.cols[0]).set(row, HiveDecimal.create(written.get(row)));
            }
            batch.size = written.size();
        });
        List<DataField> fileFields = List.of(new DataField(0, "amount", new AtomicType(TypeRoot.DECIMAL, 10, 4, true)));
        for (AtomicType requested : List.of(new AtomicType(TypeRoot.DECIMAL, 10, 4, true), new AtomicType(TypeRoot.DECIMAL, 20, 6, true),
                new AtomicType(TypeRoot.DECIMAL, 38, 18, true))) {
            List<DataField> columns = List.of(new DataField(0, "amount", requested));
            List<String> lines = new ArrayList<>();
            try (OrcReader reader = OrcReader.open(DataFileInput.of("decimals.orc", file), ReadOptions.of(columns), fileFields, allocator)) {
                while (reader.nextBatch()) {
                    lines.addAll(ArrowRowFormatter.rows(reader.root(), columns));
                }
            }
            assertThat(lines).as(requested.asSqlString())
                    .containsExactlyElementsOf(written.stream().map(value -> value.setScale(requested.scale()).toPlainString()).toList());
        }
    }

    @Test
    public void testUnionColumnsAreUnsupported()
            throws IOException
    {
        byte[] file = write("struct<id:int,u:uniontype<int,string>>", OrcFile.Version.V_0_12, batch -> {
            ((LongColumnVector) batch.cols[0]).vector[0] = 1;
            UnionColumnVector union = (UnionColumnVector) batch.cols[1];
            union.tags[0] = 0;
            ((LongColumnVector) union.fields[0]).vector[0] = 7;
            batch.size = 1;
        });
        List<DataField> fileFields = List.of(new DataField(0, "id", INT), new DataField(1, "u", INT));
        assertThatThrownBy(() -> OrcReader.open(DataFileInput.of("union.orc", file), ReadOptions.of(fileFields), fileFields, allocator))
                .isInstanceOf(DataFileUnsupportedException.class)
                .hasMessageContaining("union.orc")
                .hasMessageContaining("UNION");
        // the file's other columns read
        List<DataField> id = List.of(fileFields.get(0));
        try (OrcReader reader = OrcReader.open(DataFileInput.of("union.orc", file), ReadOptions.of(id), fileFields, allocator)) {
            assertThat(reader.nextBatch()).isTrue();
            assertThat(ArrowRowFormatter.rows(reader.root(), id)).containsExactly("1");
        }
    }

    @Test
    public void testUnstableVersion2IsUnsupported()
            throws IOException
    {
        byte[] file = write("struct<id:int>", OrcFile.Version.UNSTABLE_PRE_2_0, batch -> {
            ((LongColumnVector) batch.cols[0]).vector[0] = 1;
            batch.size = 1;
        });
        List<DataField> fields = List.of(new DataField(0, "id", INT));
        assertThatThrownBy(() -> OrcReader.open(DataFileInput.of("v2.orc", file), ReadOptions.of(fields), fields, allocator))
                .isInstanceOf(DataFileUnsupportedException.class)
                .hasMessageContaining("v2.orc")
                .hasMessageContaining("version");
    }

    private static byte[] write(String schema, OrcFile.Version version, Consumer<VectorizedRowBatch> rows)
            throws IOException
    {
        return OrcCoreFiles.write(schema, options -> options.version(version), (writer, type) -> {
            VectorizedRowBatch batch = type.createRowBatch();
            rows.accept(batch);
            writer.addRowBatch(batch);
        });
    }
}
