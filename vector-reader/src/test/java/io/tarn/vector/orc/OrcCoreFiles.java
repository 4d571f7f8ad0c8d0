package io.tarn.vector.orc;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.paimon.shade.org.apache.orc.OrcFile;
import org.apache.paimon.shade.org.apache.orc.TypeDescription;
import org.apache.paimon.shade.org.apache.orc.Writer;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * ORC files written by Apache ORC's own writer (orc-core, shaded in the oracle's
 * {@code paimon-bundle}), for the files neither Tarn's nor Paimon's writer makes: other format
 * versions, union types, chosen stripe and chunk sizes, stripes cut where a test wants them.
 */
final class OrcCoreFiles
{
    private OrcCoreFiles() {}

    interface Rows
    {
        void write(Writer writer, TypeDescription type)
                throws IOException;
    }

    /**
     * The bytes of a file of type {@code schema}, written with the writer options
     * {@code options} makes of the defaults, holding what {@code rows} writes.
     */
    static byte[] write(String schema, UnaryOperator<OrcFile.WriterOptions> options, Rows rows)
            throws IOException
    {
        java.nio.file.Path directory = Files.createTempDirectory("tarn-orc-core");
        try {
            java.nio.file.Path path = directory.resolve("file.orc");
            TypeDescription type = TypeDescription.fromString(schema);
            Configuration configuration = new Configuration(false);
            // Hadoop's cached file systems ask for the current user, which JDK 24+ no longer gives
            RawLocalFileSystem fileSystem = new RawLocalFileSystem();
            fileSystem.initialize(URI.create("file:///"), configuration);
            try {
                Writer writer = OrcFile.createWriter(new Path(path.toUri()), options.apply(OrcFile.writerOptions(configuration).fileSystem(fileSystem).setSchema(type)));
                rows.write(writer, type);
                writer.close();
            }
            finally {
                fileSystem.close();
            }
            return Files.readAllBytes(path);
        }
        finally {
            try (Stream<java.nio.file.Path> files = Files.list(directory)) {
                for (java.nio.file.Path leftover : files.toList()) {
                    Files.delete(leftover);
                }
            }
            Files.delete(directory);
        }
    }
}
