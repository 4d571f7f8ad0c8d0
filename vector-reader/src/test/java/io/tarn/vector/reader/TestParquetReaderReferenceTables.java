package io.tarn.vector.reader;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads every data file of Paimon-written reference tables with the table's latest schema and
 * compares the union of the rows with what Paimon's own reader returns: covers files written
 * under older schemas (added, renamed and dropped columns, INT widened to BIGINT).
 */
public class TestParquetReaderReferenceTables
{
    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testAppendTables()
            throws IOException
    {
        Path warehouse = Files.createTempDirectory("tarn-reader-warehouse");
        try {
            for (ReferenceTable table : List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED, ReferenceTables.APPEND_EVOLVED)) {
                ReferenceTables.create(warehouse, table);
                ReferenceScan scan = ReferenceScan.of(table.identifier());
                List<DataField> fields = ParquetTestFiles.tarnFields(ReferenceReader.rowType(warehouse, scan));
                List<String> lines = new ArrayList<>();
                List<Path> files;
                try (Stream<Path> paths = Files.walk(warehouse)) {
                    String tableDirectory = table.identifier().replace('.', '/').replaceFirst("/", ".db/");
                    files = paths.filter(path -> path.toString().contains(tableDirectory + "/") && path.getFileName().toString().startsWith("data-"))
                            .sorted()
                            .toList();
                }
                assertThat(files).as(table.identifier()).isNotEmpty();
                for (Path file : files) {
                    try (ParquetReader reader = ParquetReader.open(DataFileInput.of(file), ReadOptions.of(fields).withBatchSize(50), allocator)) {
                        while (reader.nextBatch()) {
                            lines.addAll(ArrowRowFormatter.rows(reader.root(), fields));
                        }
                    }
                }
                assertThat(CanonicalRows.of(lines).lines()).as(table.identifier())
                        .containsExactlyElementsOf(ReferenceReader.read(warehouse, scan).lines());
            }
        }
        finally {
            try (Stream<Path> paths = Files.walk(warehouse)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}
