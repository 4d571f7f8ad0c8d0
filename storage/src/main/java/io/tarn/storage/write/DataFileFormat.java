package io.tarn.storage.write;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.RowType;
import io.tarn.vector.avro.AvroFileWriter;
import io.tarn.vector.avro.AvroWriteOptions;
import io.tarn.vector.orc.OrcFileWriter;
import io.tarn.vector.orc.OrcWriteOptions;
import io.tarn.vector.writer.DataFileWriter;
import io.tarn.vector.writer.ParquetFileWriter;
import io.tarn.vector.writer.ParquetWriteOptions;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * The format an append table's data files are written in: its {@code file.format} (Parquet by
 * default), with the options that format reads from the table. Paimon's append writers write
 * every file in {@code file.format}; {@code file.format.per.level} concerns the levels of
 * primary-key tables only.
 */
sealed interface DataFileFormat
{
    /**
     * The table's format; fails before anything is written when Tarn does not write it or its
     * options are invalid.
     */
    static DataFileFormat of(String tableName, TableSchema schema)
            throws UnsupportedTableFeatureException
    {
        TableOptions options = new TableOptions(tableName, schema.options());
        String format = options.get(TableOptions.FILE_FORMAT).orElse("parquet").toLowerCase(Locale.ROOT);
        if (!format.equals("parquet") && !format.equals("avro") && !format.equals("orc")) {
            throw new UnsupportedTableFeatureException("Table " + tableName + " writes file.format=" + format + "; Tarn writes Parquet, ORC and Avro data files, not " + format + " yet");
        }
        try {
            if (format.equals("parquet")) {
                return new Parquet(ParquetWriteOptions.fromTableOptions(schema.options()));
            }
            if (format.equals("orc")) {
                OrcWriteOptions orcOptions = OrcWriteOptions.fromTableOptions(schema.options());
                OrcFileWriter.checkWritable(schema.rowType(), orcOptions);
                return new Orc(orcOptions);
            }
            AvroFileWriter.checkWritable(schema.rowType());
            return new Avro(AvroWriteOptions.fromTableOptions(schema.options()));
        }
        catch (IllegalArgumentException e) {
            throw new UnsupportedTableFeatureException("Table " + tableName + " (file.format=" + format + "): " + e.getMessage(), e);
        }
    }

    /**
     * The extension of the data files, after the dot.
     */
    String extension();

    DataFileWriter open(OutputStream out, String fileName, RowType rowType, BufferAllocator allocator)
            throws IOException;

    record Parquet(ParquetWriteOptions options)
            implements DataFileFormat
    {
        @Override
        public String extension()
        {
            return "parquet";
        }

        @Override
        public DataFileWriter open(OutputStream out, String fileName, RowType rowType, BufferAllocator allocator)
                throws IOException
        {
            return ParquetFileWriter.create(out, fileName, rowType, options, allocator);
        }
    }

    record Orc(OrcWriteOptions options)
            implements DataFileFormat
    {
        @Override
        public String extension()
        {
            return "orc";
        }

        @Override
        public DataFileWriter open(OutputStream out, String fileName, RowType rowType, BufferAllocator allocator)
                throws IOException
        {
            return OrcFileWriter.create(out, fileName, rowType, options);
        }
    }

    record Avro(AvroWriteOptions options)
            implements DataFileFormat
    {
        @Override
        public String extension()
        {
            return "avro";
        }

        @Override
        public DataFileWriter open(OutputStream out, String fileName, RowType rowType, BufferAllocator allocator)
                throws IOException
        {
            return AvroFileWriter.create(out, fileName, rowType, options);
        }
    }
}
