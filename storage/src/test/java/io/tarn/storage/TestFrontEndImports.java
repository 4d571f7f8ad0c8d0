package io.tarn.storage;

import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The front ends ({@code connector-trino}, {@code jni-bridge}, {@code cli}, and the demo that
 * writes the sample warehouse) use {@code storage} only through its API: the entry points and the
 * value types they take and return, listed here and in README.md's design notes. Everything else
 * in {@code storage} is free to change without touching a front end. Java has no visibility
 * between "package-private" and "public", so classes that several {@code storage} packages share
 * stay public; this test is what keeps them out of the front ends. The benchmarks measure
 * {@code storage}'s parts one by one and are not a front end.
 */
public class TestFrontEndImports
{
    private static final List<Path> FRONT_ENDS = Stream.of("connector-trino", "jni-bridge", "cli", "demo")
            .map(module -> Path.of("..", module, "src", "main", "java"))
            .toList();
    private static final Pattern REFERENCE = Pattern.compile("\\bio\\.tarn\\.storage\\.((?:[a-z]\\w*\\.)*[A-Z]\\w*)");

    private static final Set<String> API = Set.of(
            // failures, each naming the table and file
            "ColumnAlreadyExistsException",
            "ColumnNotFoundException",
            "CommitConflictException",
            "CorruptFileException",
            "DatabaseNotEmptyException",
            "InvalidNameException",
            "MissingFileException",
            "SnapshotNotFoundException",
            "TableNotEmptyException",
            "TableNotFoundException",
            "UnsupportedTableFeatureException",
            // warehouses, their file IO and catalog; schema changes as values
            "catalog.Warehouse",
            "catalog.FileSystemCatalog",
            "catalog.Identifier",
            "catalog.SchemaChange",
            "catalog.ColumnPosition",
            "fs.LocalFileIO",
            "fs.s3.S3FileIO",
            "fs.s3.S3Settings",
            // a table, its schemas (and their JSON form), options, snapshots, tags and branch and tag names
            "table.PaimonTable",
            "schema.TableSchema",
            "schema.SchemaJson",
            "schema.TableOptions",
            "snapshot.Snapshot",
            "snapshot.CommitKind",
            "snapshot.ScanVersion",
            "snapshot.Tag",
            "snapshot.BranchManager",
            "snapshot.TagManager",
            // the version and filter grammar every front end shares
            "grammar.TableVersion",
            "grammar.VersionParser",
            "grammar.VersionSyntaxException",
            "grammar.FilterParser",
            "grammar.FilterSyntaxException",
            // planning, and the values a plan is made of (files with their statistics, manifests for system tables)
            "scan.ScanPlanner",
            "scan.ScanPlan",
            "scan.DataSplit",
            "scan.PlannedFile",
            "scan.DeletionFile",
            "scan.SplitCodec",
            "manifest.DataFileMeta",
            "manifest.ManifestEntry",
            "manifest.ManifestFileMeta",
            "binary.BinaryRow",
            "binary.SimpleStats",
            "binary.PartitionPath",
            // reading
            "read.ReadRequest",
            "read.TableRead",
            "read.SplitReader",
            "read.RowTrackingFields",
            "metrics.Counter",
            "metrics.Counters",
            // writing, committing, compacting and cleaning up
            "write.AppendTableWriter",
            "write.WrittenFiles",
            "commit.TableCommit",
            "commit.SnapshotExpiration",
            "commit.OrphanFiles",
            "sort.SortCompaction",
            "sort.SortCompactRequest",
            "sort.SortCompactResult",
            "sort.SortStrategy",
            "sort.SpillDirectory");

    @Test
    public void testFrontEndsUseOnlyTheApi()
            throws IOException
    {
        Map<String, Set<String>> used = storageClassesUsed();
        assertThat(used).as("storage classes used by the front ends under %s", FRONT_ENDS).hasSizeGreaterThan(30);
        Map<String, Set<String>> outsideApi = new TreeMap<>(used);
        outsideApi.keySet().removeAll(API);
        assertThat(outsideApi).as("storage classes outside its API, with the front-end files that use them").isEmpty();
    }

    @Test
    public void testEveryApiClassExists()
    {
        for (String name : API) {
            Path source = Path.of("src/main/java/io/tarn/storage", name.replace('.', '/') + ".java");
            assertThat(source).as("API class %s", name).isRegularFile();
        }
    }

    /**
     * Each storage class a front end names (imports, fully qualified names, javadoc links), with
     * the files that name it; nested classes count as their outer class.
     */
    private static Map<String, Set<String>> storageClassesUsed()
            throws IOException
    {
        Map<String, Set<String>> used = new TreeMap<>();
        for (Path root : FRONT_ENDS) {
            assertThat(root).as("front-end sources").isDirectory();
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                    Matcher reference = REFERENCE.matcher(Files.readString(file));
                    while (reference.find()) {
                        used.computeIfAbsent(reference.group(1), ignored -> new TreeSet<>()).add(file.toString());
                    }
                }
            }
        }
        return used;
    }
}
