package io.tarn.vector.orc;

import io.tarn.testing.CanonicalValueFormatter;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes ORC files with Apache Paimon's own ORC writer and reads them back with its own ORC
 * reader: the oracle the ORC reader is checked against.
 */
final class OrcTestFiles
{
    private OrcTestFiles() {}

    /**
     * An ORC file of {@code rows} as Paimon's ORC format writes it; {@code options} are table
     * options (ORC settings under their {@code orc.} names).
     */
    static byte[] write(RowType rowType, List<? extends InternalRow> rows, Map<String, String> options, String compression)
    {
        try {
            Path directory = Files.createTempDirectory("tarn-orc-test");
            Path file = directory.resolve("data.orc");
            FileFormat format = FileFormat.fromIdentifier("orc", new Options(options));
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
     * The canonical lines of every row of {@code file}, in file order, as Paimon's ORC reader
     * returns them.
     */
    static List<String> paimonRows(RowType rowType, byte[] file, Map<String, String> options)
    {
        try {
            Path directory = Files.createTempDirectory("tarn-orc-test");
            Path path = directory.resolve("data.orc");
            Files.write(path, file);
            FileFormat format = FileFormat.fromIdentifier("orc", new Options(options));
            List<String> lines = new ArrayList<>();
            org.apache.paimon.fs.Path paimonPath = new org.apache.paimon.fs.Path(path.toUri());
            try (RecordReader<InternalRow> reader = format.createReaderFactory(rowType, rowType, List.of())
                    .createReader(new FormatReaderContext(LocalFileIO.create(), paimonPath, file.length))) {
                reader.forEachRemaining(row -> lines.add(CanonicalValueFormatter.formatRow(row, rowType)));
            }
            Files.delete(path);
            Files.delete(directory);
            return lines;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
