package io.tarn.vector.reader;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.TypeRoot;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.format.parquet.writer.ParquetRowDataBuilder;
import org.apache.paimon.format.parquet.writer.StreamOutputFile;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimeType;
import org.apache.paimon.types.TimestampType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes Parquet files with Apache Paimon's own Parquet writer (the oracle) and converts Paimon
 * types to Tarn's (public for the tests of the other formats' readers).
 */
public final class ParquetTestFiles
{
    private ParquetTestFiles() {}

    static byte[] write(RowType rowType, List<? extends InternalRow> rows, Map<String, String> options, String compression)
    {
        try {
            Path directory = Files.createTempDirectory("tarn-parquet-test");
            Path file = directory.resolve("data.parquet");
            FileFormat format = FileFormat.fromIdentifier("parquet", new Options(options));
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

    /**
     * Writes through Paimon's Parquet builder directly, to reach writer settings Paimon's table
     * options do not expose: BYTE_STREAM_SPLIT for floating point and without dictionary.
     */
    static byte[] writeByteStreamSplit(RowType rowType, List<? extends InternalRow> rows)
    {
        try {
            Path directory = Files.createTempDirectory("tarn-parquet-test");
            Path file = directory.resolve("data.parquet");
            try (PositionOutputStream out = LocalFileIO.create().newOutputStream(new org.apache.paimon.fs.Path(file.toUri()), false)) {
                var writer = new ParquetRowDataBuilder(new StreamOutputFile(out), rowType, null)
                        .withDictionaryEncoding(false)
                        .withByteStreamSplitEncoding(true)
                        .withPageRowCountLimit(50)
                        .build();
                for (InternalRow row : rows) {
                    writer.write(row);
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

    public static List<DataField> tarnFields(RowType rowType)
    {
        List<DataField> fields = new ArrayList<>();
        for (org.apache.paimon.types.DataField field : rowType.getFields()) {
            fields.add(new DataField(field.id(), field.name(), tarnType(field.type())));
        }
        return fields;
    }

    public static DataType tarnType(org.apache.paimon.types.DataType type)
    {
        boolean nullable = type.isNullable();
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> atomic(TypeRoot.BOOLEAN, 0, 0, nullable);
            case TINYINT -> atomic(TypeRoot.TINYINT, 0, 0, nullable);
            case SMALLINT -> atomic(TypeRoot.SMALLINT, 0, 0, nullable);
            case INTEGER -> atomic(TypeRoot.INT, 0, 0, nullable);
            case BIGINT -> atomic(TypeRoot.BIGINT, 0, 0, nullable);
            case FLOAT -> atomic(TypeRoot.FLOAT, 0, 0, nullable);
            case DOUBLE -> atomic(TypeRoot.DOUBLE, 0, 0, nullable);
            case DECIMAL -> atomic(TypeRoot.DECIMAL, ((DecimalType) type).getPrecision(), ((DecimalType) type).getScale(), nullable);
            case CHAR -> atomic(TypeRoot.CHAR, ((org.apache.paimon.types.CharType) type).getLength(), 0, nullable);
            case VARCHAR -> atomic(TypeRoot.VARCHAR, ((org.apache.paimon.types.VarCharType) type).getLength(), 0, nullable);
            case BINARY -> atomic(TypeRoot.BINARY, ((org.apache.paimon.types.BinaryType) type).getLength(), 0, nullable);
            case VARBINARY -> atomic(TypeRoot.VARBINARY, ((org.apache.paimon.types.VarBinaryType) type).getLength(), 0, nullable);
            case DATE -> atomic(TypeRoot.DATE, 0, 0, nullable);
            case TIME_WITHOUT_TIME_ZONE -> atomic(TypeRoot.TIME, ((TimeType) type).getPrecision(), 0, nullable);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> atomic(TypeRoot.TIMESTAMP, ((TimestampType) type).getPrecision(), 0, nullable);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> atomic(TypeRoot.TIMESTAMP_LTZ, ((LocalZonedTimestampType) type).getPrecision(), 0, nullable);
            case ARRAY -> new io.tarn.types.ArrayType(tarnType(((ArrayType) type).getElementType()), nullable);
            case MAP -> new io.tarn.types.MapType(tarnType(((MapType) type).getKeyType()), tarnType(((MapType) type).getValueType()), nullable);
            case MULTISET -> new io.tarn.types.MultisetType(tarnType(((MultisetType) type).getElementType()), nullable);
            case ROW -> new io.tarn.types.RowType(tarnFields((RowType) type), nullable);
            default -> throw new IllegalArgumentException("Unsupported type " + type);
        };
    }

    private static AtomicType atomic(TypeRoot root, int precision, int scale, boolean nullable)
    {
        return new AtomicType(root, precision, scale, nullable);
    }
}
