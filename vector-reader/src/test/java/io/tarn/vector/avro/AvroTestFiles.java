package io.tarn.vector.avro;

import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.vector.reader.TestDataGenerator;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes Avro data files with Apache Paimon's own Avro writer (the oracle).
 */
final class AvroTestFiles
{
    /**
     * Every type of {@link TestDataGenerator#ALL_TYPES} that Paimon writes to Avro: it refuses
     * timestamps above precision 6.
     */
    static final RowType ALL_TYPES = new RowType(TestDataGenerator.ALL_TYPES.getFields().stream()
            .filter(field -> !(field.type() instanceof TimestampType timestamp && timestamp.getPrecision() > 6))
            .filter(field -> !(field.type() instanceof LocalZonedTimestampType timestamp && timestamp.getPrecision() > 6))
            .toList());

    private AvroTestFiles() {}

    /**
     * An Avro file of {@code rows} as Paimon writes it with {@code compression}: its
     * {@code file.compression} ({@code zstd}) or an Avro codec name ({@code null},
     * {@code deflate}, {@code snappy}, {@code zstandard}).
     */
    static byte[] write(RowType rowType, List<? extends InternalRow> rows, String compression)
    {
        try {
            Path directory = Files.createTempDirectory("tarn-avro-test");
            Path file = directory.resolve("data.avro");
            FileFormat format = FileFormat.fromIdentifier("avro", new Options(Map.of()));
            try (PositionOutputStream out = LocalFileIO.create().newOutputStream(new org.apache.paimon.fs.Path(file.toUri()), false)) {
                FormatWriter writer = format.createWriterFactory(rowType).create(out, compression);
                for (InternalRow row : rows) {
                    writer.addElement(row);
                }
                writer.close();
            }
            byte[] bytes = Files.readAllBytes(file);
            Files.delete(file);
            Files.delete(directory);
            return bytes;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> expected(List<GenericRow> rows, RowType rowType)
    {
        List<String> expected = new ArrayList<>();
        for (GenericRow row : rows) {
            expected.add(CanonicalValueFormatter.formatRow(row, rowType));
        }
        return expected;
    }

    static RowType project(RowType rowType, String... names)
    {
        List<DataField> fields = new ArrayList<>();
        for (String name : names) {
            fields.add(rowType.getField(name));
        }
        return new RowType(fields);
    }

    /**
     * The canonical lines of the columns {@code projected} of {@code rows}, rows of {@code rowType}.
     */
    static List<String> expected(List<GenericRow> rows, RowType rowType, RowType projected)
    {
        List<GenericRow> projectedRows = new ArrayList<>();
        for (GenericRow row : rows) {
            GenericRow copy = new GenericRow(projected.getFieldCount());
            for (int i = 0; i < projected.getFieldCount(); i++) {
                copy.setField(i, row.getField(rowType.getFieldIndex(projected.getFields().get(i).name())));
            }
            projectedRows.add(copy);
        }
        return expected(projectedRows, projected);
    }
}
