package io.tarn.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tarn dump} and {@code tarn files} on tables whose metadata files were edited to name
 * paths outside the table: they fail with an error naming the table and the file, and nothing
 * outside the warehouse is read, written or deleted.
 */
public class TestTarnCliContainment
{
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path root;
    private Path warehouse;
    private Path source;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        root = TemporaryDirectories.create("tarn-cli-containment");
        warehouse = Files.createDirectories(root.resolve("warehouse"));
        Files.createDirectories(root.resolve("outside"));
        Files.writeString(root.resolve("outside/victim"), "not Tarn's to touch");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
        source = warehouse.resolve("ref.db/" + ReferenceTables.APPEND_PARTITIONED.tableName());
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        TemporaryDirectories.deleteRecursively(root);
    }

    @Test
    public void testDumpRefusesSchemaOptionsOutsideTheTable()
            throws IOException
    {
        Path table = copy("tampered_schema");
        // from <table>/<directory>/<partition>/bucket-0: the table, ref.db and the warehouse
        editAll(table.resolve("schema"), json -> {
            ((ObjectNode) json.get("options")).put("data-file.path-directory", "../../../outside");
            return json;
        });
        Map<String, String> before = walkOutsideWarehouse();

        for (String command : List.of("dump", "files")) {
            Result result = run(command, "--warehouse", warehouse.toString(), "ref.tampered_schema");
            assertThat(result.exitCode()).as(result.err()).isEqualTo(1);
            assertThat(result.err())
                    .contains("Table ref.tampered_schema: schema file " + table.resolve("schema"))
                    .contains("option data-file.path-directory = '../../../outside' leaves the table directory");
            assertThat(result.out()).isEmpty();
        }
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    @Test
    public void testDumpRefusesManifestListNamesOutsideTheTable()
            throws IOException
    {
        Path table = copy("tampered_snapshot");
        editAll(table.resolve("snapshot"), json -> ((ObjectNode) json).put("baseManifestList", "../../../../outside/victim").put("deltaManifestList", "../../../../outside/victim"));
        Map<String, String> before = walkOutsideWarehouse();

        for (String command : List.of("dump", "files")) {
            Result result = run(command, "--warehouse", warehouse.toString(), "ref.tampered_snapshot");
            assertThat(result.exitCode()).as(result.err()).isEqualTo(1);
            assertThat(result.err())
                    .contains("Table ref.tampered_snapshot")
                    .contains("'../../../../outside/victim'")
                    .contains("not a plain file name");
        }
        assertThat(walkOutsideWarehouse()).isEqualTo(before);
    }

    private Path copy(String name)
            throws IOException
    {
        Path target = warehouse.resolve("ref.db/" + name);
        TemporaryDirectories.copyRecursively(source, target);
        return target;
    }

    private static void editAll(Path directory, UnaryOperator<JsonNode> change)
            throws IOException
    {
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> edited = files.filter(file -> file.getFileName().toString().matches("(schema|snapshot)-\\d+")).toList();
            assertThat(edited).isNotEmpty();
            for (Path file : edited) {
                Files.write(file, JSON.writeValueAsBytes(change.apply(JSON.readTree(file.toFile()))));
            }
        }
    }

    /**
     * Every path under the root but outside the warehouse, with size and modification time.
     */
    private Map<String, String> walkOutsideWarehouse()
    {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(path -> !path.startsWith(warehouse)).toList()) {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                entries.put(root.relativize(path).toString(), (attributes.isDirectory() ? "dir" : attributes.size()) + "@" + attributes.lastModifiedTime().toMillis());
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(entries).containsKey("outside/victim");
        return entries;
    }

    private static Result run(String... args)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = new TarnCli(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Result(int exitCode, String out, String err) {}
}
