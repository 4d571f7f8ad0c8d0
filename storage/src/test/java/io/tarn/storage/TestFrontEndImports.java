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
            "snapshot.SnapshotStatistics",
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
            "read.SplitReader",
            "source.SplitReaders",
            "source.TableRead",
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

    /**
     * The public classes of {@code storage} that are not its API: each is shared by several of
     * its packages (Java has nothing between package-private and public), with who shares it.
     * {@link #testPublicClassesAreTheApiOrShared} keeps this list and the code in step, so a new
     * public class is either API (and in README's list) or a shared internal written down here.
     */
    private static final Map<String, String> SHARED_INTERNALS = Map.ofEntries(
            Map.entry("binary.BinaryRowWriter", "rows are encoded by commit (partitions), scan (bucket keys), write and read.merge"),
            Map.entry("binary.BucketFunction", "scan prunes buckets with the hash write assigns them by"),
            Map.entry("binary.MurmurHash", "Paimon's hash, used by the bucket function and by read.merge's key hashing"),
            Map.entry("fs.ContainedFileIO", "catalog and table both confine file operations to a directory"),
            Map.entry("fs.DaemonThreads", "the thread factory of read's and table's request pools"),
            Map.entry("fs.FileIO", "every package that touches files (catalog, schema, snapshot, table, write) and fs.s3 implements it"),
            Map.entry("fs.FileStatus", "listings, read by catalog, commit, schema, snapshot, table and made by fs.s3"),
            Map.entry("fs.InputFile", "read and scan read files that fs.s3 implements"),
            Map.entry("fs.ObjectStoreTally", "request and byte counts that fs.s3 keeps and read reports"),
            Map.entry("fs.RandomAccessInput", "scan reads index files through it; fs.s3 implements it"),
            Map.entry("fs.SideRequest", "snapshot and table send independent metadata requests side by side"),
            Map.entry("fs.TablePaths", "the one rule for table paths and file names, shared by catalog, commit, schema and table"),
            Map.entry("manifest.DeletionVectorMeta", "scan turns index-manifest entries into deletion files"),
            Map.entry("manifest.FileIdentifier", "commit matches deleted files to added ones by it"),
            Map.entry("manifest.FileKind", "ADD or DELETE, read by catalog, commit, scan, sort and write"),
            Map.entry("manifest.IndexManifestEntry", "commit, scan and table read and write index manifests"),
            Map.entry("manifest.IndexManifestFile", "table decodes index manifests"),
            Map.entry("manifest.ManifestCache", "catalog owns it, table reads through it"),
            Map.entry("manifest.ManifestEntryFilter", "scan's filter that table applies while decoding"),
            Map.entry("manifest.ManifestFile", "catalog, commit and table read and write manifests"),
            Map.entry("manifest.ManifestListFile", "catalog, commit and table read and write manifest lists"),
            Map.entry("read.DataFileReaders", "the one way to open a data file, for read's raw reader and read.merge's key and value passes"),
            Map.entry("read.FetchAheadQueue", "files fetched ahead from an object store, by read's raw reader and read.merge's key pass"),
            Map.entry("read.RawSplitReader", "read.merge reads the survivors of its key pass with it; source opens it for splits read as they are"),
            Map.entry("read.ReadCounters", "the counters of a file read, kept alike by read and read.merge"),
            Map.entry("read.SystemFields", "the sequence-number and row-kind columns that read skips and read.merge merges by"),
            Map.entry("read.merge.MergeSplitReader", "source opens it for splits merged by key"),
            Map.entry("scan.FileIndexFilter", "file indexes are evaluated by scan, read (late) and write (statistics of new files)"),
            Map.entry("scan.FileStatistics", "min/max pruning that scan plans with and read applies to row groups"),
            Map.entry("scan.RowRange", "row ranges of a split (row tracking) that read applies"),
            Map.entry("schema.MergeEngine", "read and scan choose by the table's merge engine"),
            Map.entry("schema.SchemaManager", "catalog and table read and commit schema files"),
            Map.entry("snapshot.MetadataJson", "JSON helpers shared by the snapshot and schema files"),
            Map.entry("snapshot.SnapshotManager", "catalog, commit and table read and commit snapshots"));

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

    @Test
    public void testPublicClassesAreTheApiOrShared()
            throws IOException
    {
        Set<String> expected = new TreeSet<>(API);
        assertThat(expected).doesNotContainAnyElementsOf(SHARED_INTERNALS.keySet());
        expected.addAll(SHARED_INTERNALS.keySet());
        assertThat(publicClasses()).isEqualTo(expected);
    }

    /**
     * A shared internal that no other package of {@code storage} names any more must become
     * package-private, and leave the list.
     */
    @Test
    public void testSharedInternalsAreUsedByAnotherPackage()
            throws IOException
    {
        Map<String, Set<String>> users = packagesUsingStorageClasses();
        for (String internal : SHARED_INTERNALS.keySet()) {
            String ownPackage = internal.contains(".") ? internal.substring(0, internal.lastIndexOf('.')) : "";
            Set<String> others = new TreeSet<>(users.getOrDefault(internal, Set.of()));
            others.remove(ownPackage);
            assertThat(others).as("storage packages besides its own that use %s (%s)", internal, SHARED_INTERNALS.get(internal)).isNotEmpty();
        }
    }

    // each storage class named in storage's main sources outside its own file, with the packages (below io.tarn.storage) that name it
    private static Map<String, Set<String>> packagesUsingStorageClasses()
            throws IOException
    {
        Path root = Path.of("src/main/java/io/tarn/storage");
        Map<String, Set<String>> users = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                Path directory = root.relativize(file.getParent());
                String filePackage = directory.toString().replace(java.io.File.separatorChar, '.');
                Matcher reference = REFERENCE.matcher(Files.readString(file));
                while (reference.find()) {
                    users.computeIfAbsent(reference.group(1), ignored -> new TreeSet<>()).add(filePackage);
                }
            }
        }
        return users;
    }

    // top-level public types of storage's main sources, by their name below io.tarn.storage
    private static Set<String> publicClasses()
            throws IOException
    {
        Path root = Path.of("src/main/java/io/tarn/storage");
        Pattern publicType = Pattern.compile("(?m)^public (?:(?:final|abstract|sealed|non-sealed) )*(?:class|interface|record|enum|@interface) ");
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                if (publicType.matcher(Files.readString(file)).find()) {
                    String relative = root.relativize(file).toString();
                    found.add(relative.substring(0, relative.length() - ".java".length()).replace(java.io.File.separatorChar, '.'));
                }
            }
        }
        return found;
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
