package io.tarn.cli;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import io.tarn.vector.ArrowTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.testng.annotations.Test;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tarn dump} of a table whose canonical text is several times the heap of the JVM that
 * dumps it: it streams the sorted lines (spilling sorted runs to disk) and prints the row count and
 * the SHA-256 of the lines the test wrote, in their sorted order.
 */
public class TestTarnCliLargeDump
{
    private static final int ROWS = 850_000;
    // a step coprime to ROWS: the rows are written in an order far from the sorted one
    private static final int STRIDE = 7919;
    private static final int BATCH = 8192;
    private static final String HEAP = "-Xmx64m";

    @Test
    public void testDumpOfATableLargerThanTheHeapStreams()
            throws Exception
    {
        Path warehouse = TemporaryDirectories.create("tarn-cli-large-dump");
        Path spill = warehouse.resolve("spill");
        try {
            long writeStart = System.nanoTime();
            writeTable(warehouse);
            System.out.println("wrote " + ROWS + " rows in " + (System.nanoTime() - writeStart) / 1_000_000 + " ms");
            // the lines sorted by their bytes are those of keys 0, 1, 2, ...: keys are of one width
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            long textBytes = 0;
            for (int key = 0; key < ROWS; key++) {
                byte[] line = (expectedLine(key) + "\n").getBytes(StandardCharsets.UTF_8);
                digest.update(line);
                textBytes += line.length;
            }
            String expectedSummary = "rows=" + ROWS + " sha256=" + HexFormat.of().formatHex(digest.digest());
            assertThat(textBytes).isGreaterThan(3L * 64 * 1024 * 1024);

            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add(HEAP);
            // the flags Arrow needs on this JDK, as this JVM got them
            for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (argument.startsWith("--add-opens") || argument.startsWith("--sun-misc-unsafe-memory-access") || argument.startsWith("--enable-native-access")) {
                    command.add(argument);
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), TarnCli.class.getName(),
                    "dump", "--warehouse", warehouse.toString(), "--spill-directory", spill.toString(), "ref.big"));
            long dumpStart = System.nanoTime();
            Process process = new ProcessBuilder(command).start();
            process.getOutputStream().close();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread errReader = new Thread(() -> {
                try (InputStream in = process.getErrorStream()) {
                    in.transferTo(err);
                }
                catch (IOException ignored) {
                    // the process ended
                }
            });
            errReader.start();
            // the printed lines, digested as they arrive, in the order printed
            MessageDigest printed = MessageDigest.getInstance("SHA-256");
            long printedLines = 0;
            String last = null;
            String firstLine = null;
            try (InputStream in = new BufferedInputStream(process.getInputStream(), 1 << 16)) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                int next;
                while ((next = in.read()) >= 0) {
                    if (next != '\n') {
                        line.write(next);
                        continue;
                    }
                    if (last != null) {
                        byte[] previous = (last + "\n").getBytes(StandardCharsets.UTF_8);
                        printed.update(previous);
                        printedLines++;
                    }
                    last = line.toString(StandardCharsets.UTF_8);
                    if (firstLine == null) {
                        firstLine = last;
                    }
                    line.reset();
                }
            }
            assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
            System.out.println("dumped " + textBytes + " bytes of canonical text with " + HEAP + " in " + (System.nanoTime() - dumpStart) / 1_000_000 + " ms");
            errReader.join();
            String stderr = err.toString(StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(stderr).isZero();
            assertThat(firstLine).isEqualTo(expectedLine(0));
            assertThat(last).isEqualTo(expectedSummary);
            assertThat(printedLines).isEqualTo(ROWS);
            assertThat("rows=" + printedLines + " sha256=" + HexFormat.of().formatHex(printed.digest())).isEqualTo(expectedSummary);
            // the spill files are gone
            try (Stream<Path> left = Files.list(spill)) {
                assertThat(left.toList()).isEmpty();
            }
        }
        finally {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    private static String key(int key)
    {
        return "k%08d".formatted(key);
    }

    private static long value(int key)
    {
        return key * 31L - 5_000_000L;
    }

    // about 240 characters, with a TAB and a backslash that the canonical form escapes
    private static String text(int key)
    {
        StringBuilder text = new StringBuilder();
        long state = key * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < 14; i++) {
            state = state * 6364136223846793005L + 1442695040888963407L;
            text.append(Long.toHexString(state));
        }
        return text.insert(20, '\t').insert(40, '\\').toString();
    }

    private static String expectedLine(int key)
    {
        return key(key) + "\t" + value(key) + "\t" + text(key).replace("\\", "\\\\").replace("\t", "\\t");
    }

    private static void writeTable(Path warehouse)
            throws IOException
    {
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        catalog.createDatabase("ref");
        List<DataField> fields = List.of(
                new DataField(0, "k", DataTypes.string()),
                new DataField(1, "v", DataTypes.bigint()),
                new DataField(2, "s", DataTypes.string()));
        Identifier identifier = new Identifier("ref", "big");
        catalog.createTable(identifier, new TableSchema(TableSchema.CURRENT_VERSION, 0, fields, 2, List.of(), List.of(), Map.of(), Optional.empty(), System.currentTimeMillis()));
        PaimonTable table = PaimonTable.load(catalog, identifier);
        try (BufferAllocator allocator = new RootAllocator();
                AppendTableWriter writer = new AppendTableWriter(table, allocator);
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(fields), allocator)) {
            VarCharVector keys = (VarCharVector) batch.getVector(0);
            BigIntVector values = (BigIntVector) batch.getVector(1);
            VarCharVector texts = (VarCharVector) batch.getVector(2);
            List<Integer> order = new ArrayList<>();
            for (int row = 0; row < ROWS; row++) {
                order.add((int) ((long) row * STRIDE % ROWS));
            }
            for (int start = 0; start < ROWS; start += BATCH) {
                int count = Math.min(BATCH, ROWS - start);
                batch.allocateNew();
                for (int i = 0; i < count; i++) {
                    int key = order.get(start + i);
                    keys.setSafe(i, key(key).getBytes(StandardCharsets.UTF_8));
                    values.setSafe(i, value(key));
                    texts.setSafe(i, text(key).getBytes(StandardCharsets.UTF_8));
                }
                batch.setRowCount(count);
                writer.write(batch);
            }
            new TableCommit(table, "large-dump-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
    }
}
