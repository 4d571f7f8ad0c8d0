package io.tarn.storage.fs.s3;

import io.tarn.s3server.Fault;
import io.tarn.s3server.FaultInjectingProxy;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.commit.OrphanFiles;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.testing.ObjectStoreLake;
import io.tarn.testing.ReferenceTables;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables on an object store that fails: a proxy between Tarn and the S3-compatible server
 * (S3Proxy on 127.0.0.1) answers requests with {@code 500 InternalError} or {@code 503 SlowDown},
 * resets connections, holds answers back, loses them after the store acted or cuts their bodies
 * short. A fault that passes within
 * the retries leaves reads exactly Apache Paimon's and writes landed exactly once; one that
 * persists fails the read or the commit with an error naming the object, and a failed or killed
 * writer leaves the table at its previous snapshot, with only orphans that
 * {@link OrphanFiles} deletes.
 */
public class TestS3Faults
{
    private static final String SOURCE = ReferenceTables.APPEND_PARTITIONED.identifier();
    private static final String MERGED = ReferenceTables.PK_DEDUP.identifier();
    private static final int RETRIES = 3;
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(1);
    // an answer the client waits for, and one it gives up on: the store acted, the answer is lost
    private static final Duration SHORT_DELAY = Duration.ofMillis(200);
    private static final Duration LOST_ANSWER_DELAY = SOCKET_TIMEOUT.plusMillis(500);
    private static final String BUCKET = "fault-bucket";
    private static final String LARGE_OBJECT = "s3://" + BUCKET + "/objects/large";
    private static final Pattern TEMPORARY_FILE = Pattern.compile(".*-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private ObjectStoreLake lake;
    private FaultInjectingProxy proxy;
    private Map<String, String> properties;
    private Warehouse warehouse;
    private S3FileIO fileIO;
    // gives up on an answer after SOCKET_TIMEOUT; the other waits the SDK's 30 s, which a
    // multipart upload to a server on a busy machine may need
    private Warehouse impatient;
    private RootAllocator allocator;
    private byte[] largeContent;
    // Paimon's rows of the reference tables, read through S3 once: no test changes them
    private Map<String, String> paimonRows;

    @BeforeClass
    public void setUp()
            throws IOException
    {
        lake = ObjectStoreLake.create("tarn-s3-faults", List.of(ReferenceTables.APPEND_PARTITIONED, ReferenceTables.PK_DEDUP));
        paimonRows = Map.of(SOURCE, lake.paimon().read(SOURCE).text(), MERGED, lake.paimon().read(MERGED).text());
        proxy = FaultInjectingProxy.start(lake.server().endpoint());
        Map<String, String> settings = new HashMap<>(proxy.clientProperties(lake.clientProperties()));
        settings.put(S3Settings.MAX_ERROR_RETRIES, Integer.toString(RETRIES));
        settings.put(S3Settings.RETRY_BASE_DELAY, "5ms");
        properties = Map.copyOf(settings);
        warehouse = Warehouse.open(lake.location(), properties);
        fileIO = (S3FileIO) warehouse.fileIO();
        settings.put(S3Settings.SOCKET_TIMEOUT, SOCKET_TIMEOUT.toMillis() + "ms");
        impatient = Warehouse.open(lake.location(), settings);
        allocator = new RootAllocator();
        largeContent = new byte[200_000];
        new Random(16).nextBytes(largeContent);
        Path objects = Files.createDirectories(lake.server().bucket(BUCKET).resolve("objects"));
        Files.write(objects.resolve("large"), largeContent);
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        if (fileIO != null) {
            fileIO.close();
        }
        if (impatient != null) {
            ((S3FileIO) impatient.fileIO()).close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (lake != null) {
            lake.close();
        }
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
    }

    @AfterMethod(alwaysRun = true)
    public void disarm()
    {
        proxy.clearFaults();
        proxy.setLatency(Duration.ZERO);
    }

    @DataProvider
    public Object[][] transientFaults()
    {
        return new Object[][] {
                {Fault.internalError()},
                {Fault.slowDown()},
                {Fault.connectionReset()},
                {Fault.firstByteDelay(SHORT_DELAY)},
                {Fault.bodyCutAfter(100)},
        };
    }

    /**
     * The first requests of a read, whatever they are (listing, snapshot, manifests, data),
     * fail as often as the client retries: the rows are still exactly Paimon's, of an append
     * table and of a merge-on-read primary-key table.
     */
    @Test(dataProvider = "transientFaults")
    public void testTransientFaultsLeaveReadsExact(Fault fault)
            throws IOException
    {
        for (String table : List.of(SOURCE, MERGED)) {
            long faults = proxy.faultCount();
            proxy.inject(fault.times(RETRIES));
            String rows = tarnRows(warehouseFor(fault), table);
            assertThat(proxy.faultCount() - faults).as("faults injected into the read of %s", table).isEqualTo(RETRIES);
            assertThat(rows).as("rows of %s", table).isEqualTo(paimonRows.get(table));
            proxy.clearFaults();
        }
    }

    /**
     * Every data file answers slowly, within the timeout: reads wait and are exact.
     */
    @Test
    public void testSlowAnswersWithinTheTimeoutAreWaitedFor()
            throws IOException
    {
        proxy.inject(Fault.firstByteDelay(SHORT_DELAY).always().onMethod("GET").onTargetContaining(".parquet"));
        long requests = proxy.requestCount();
        assertThat(tarnRows(impatient, SOURCE)).isEqualTo(paimonRows.get(SOURCE));
        // one GET per data file, none sent twice
        assertThat(proxy.faultCount(Fault.Kind.FIRST_BYTE_DELAY)).isGreaterThan(0);
        assertThat(proxy.requestCount() - requests).isLessThan(50);
    }

    @DataProvider
    public Object[][] persistentFaults()
    {
        return new Object[][] {
                {Fault.internalError(), "after 4 attempts: InternalError"},
                {Fault.slowDown(), "after 4 attempts: SlowDown"},
                {Fault.connectionReset(), "after 4 attempts"},
                {Fault.firstByteDelay(LOST_ANSWER_DELAY), "timed out"},
                {Fault.bodyCutAfter(100), "broke off 4 times"},
        };
    }

    /**
     * Every GET of a data file fails: the read fails, naming the object and why.
     */
    @Test(dataProvider = "persistentFaults")
    public void testPersistentFaultsFailReadsNamingTheObject(Fault fault, String why)
    {
        proxy.inject(fault.always().onMethod("GET").onTargetContaining(".parquet"));
        assertThatThrownBy(() -> tarnRows(warehouseFor(fault), SOURCE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(lake.location() + "/ref.db/append_partitioned/")
                .hasMessageContaining(".parquet")
                .hasMessageContaining(why);
    }

    @DataProvider
    public Object[][] statusFaults()
    {
        return new Object[][] {
                {Fault.internalError()},
                {Fault.slowDown()},
                {Fault.connectionReset()},
        };
    }

    /**
     * Each kind of request, faulted as often as the client retries, succeeds: ranged GET, HEAD,
     * LIST, PUT, conditional PUT and each step of a multipart upload.
     */
    @Test(dataProvider = "statusFaults")
    public void testEveryKindOfRequestIsRetried(Fault fault)
            throws IOException
    {
        String kind = fault.kind().name().toLowerCase(Locale.ROOT);
        InputFile file = fileIO.newInputFile(LARGE_OBJECT);
        assertThat(file.length()).isEqualTo(largeContent.length);
        byte[] range = new byte[50_000];
        retried(List.of(fault.onMethod("GET")), () -> file.readFully(1000, range, 0, range.length));
        assertThat(range).isEqualTo(Arrays.copyOfRange(largeContent, 1000, 51_000));
        retried(List.of(fault.onMethod("HEAD")), () -> assertThat(fileIO.exists(LARGE_OBJECT)).isTrue());
        retried(List.of(fault.onMethod("GET").onTargetContaining("list-type=2")),
                () -> assertThat(fileIO.list("s3://" + BUCKET + "/objects")).extracting(FileStatus::name).contains("large"));

        byte[] content = "written through faults".getBytes(StandardCharsets.UTF_8);
        String put = "s3://" + BUCKET + "/" + kind + "/put";
        retried(List.of(fault.onMethod("PUT")), () -> fileIO.writeFile(put, content, true));
        String created = "s3://" + BUCKET + "/" + kind + "/created";
        retried(List.of(fault.onMethod("PUT")), () -> fileIO.writeFile(created, content, false));
        assertThat(fileIO.newInputFile(put).readAllBytes()).isEqualTo(content);
        assertThat(fileIO.newInputFile(created).readAllBytes()).isEqualTo(content);

        byte[] large = new byte[S3OutputStream.PART_SIZE + 1000];
        new Random(7).nextBytes(large);
        String multipart = "s3://" + BUCKET + "/" + kind + "/multipart";
        retried(List.of(
                        fault.onMethod("POST").onTargetContaining("?uploads"),
                        fault.onMethod("PUT").onTargetContaining("partNumber=2"),
                        fault.onMethod("POST").onTargetContaining("uploadId=")),
                () -> {
                    try (OutputStream out = fileIO.newOutputStream(multipart)) {
                        out.write(large);
                    }
                });
        assertThat(fileIO.newInputFile(multipart).readAllBytes()).isEqualTo(large);
    }

    /**
     * Each kind of request, faulted every time, fails after the retries with an error naming the
     * object and the cause.
     */
    @Test(dataProvider = "statusFaults")
    public void testEveryKindOfRequestFailsNamingTheObject(Fault fault)
    {
        String kind = fault.kind().name().toLowerCase(Locale.ROOT);
        // a HEAD's answer has no body, so no error code
        String why = "after 4 attempts: " + switch (fault.kind()) {
            case INTERNAL_ERROR -> "Internal";
            case SLOW_DOWN -> "SlowDown";
            default -> "Unable to execute HTTP request";
        };
        failing(fault.onMethod("GET"), LARGE_OBJECT, why, () -> fileIO.newInputFile(LARGE_OBJECT).readFully(1000, new byte[10], 0, 10));
        failing(fault.onMethod("HEAD"), LARGE_OBJECT, why, () -> fileIO.exists(LARGE_OBJECT));
        failing(fault.onMethod("GET"), "s3://" + BUCKET + "/objects", why, () -> fileIO.list("s3://" + BUCKET + "/objects"));
        String put = "s3://" + BUCKET + "/" + kind + "/failed-put";
        failing(fault.onMethod("PUT"), put, why, () -> fileIO.writeFile(put, new byte[10], true));
        failing(fault.onMethod("PUT"), put, why, () -> fileIO.tryCreateAtomically(put, new byte[10]));
        String multipart = "s3://" + BUCKET + "/" + kind + "/failed-multipart";
        failing(fault.onMethod("PUT").onTargetContaining("partNumber="), multipart, why, () -> {
            try (OutputStream out = fileIO.newOutputStream(multipart)) {
                out.write(new byte[S3OutputStream.PART_SIZE + 1]);
            }
        });
    }

    /**
     * The answer to a multipart upload's completion is lost after the store completed it, and
     * the SDK sends the completion again: a store that no longer knows the upload answers
     * {@code 404 NoSuchUpload} (S3Proxy completes again; the proxy answers as AWS may), and the
     * object, whole, shows that the upload was done. A store that answers so when the object is
     * not whole fails the write.
     */
    @Test
    public void testLostCompletionOfAMultipartUploadIsRecognised()
            throws IOException
    {
        byte[] large = new byte[S3OutputStream.PART_SIZE + 1000];
        new Random(8).nextBytes(large);
        String path = "s3://" + BUCKET + "/lost/multipart";
        long faults = proxy.faultCount();
        proxy.inject(Fault.answerLost().onMethod("POST").onTargetContaining("uploadId="));
        proxy.inject(Fault.error(404, "NoSuchUpload").onMethod("POST").onTargetContaining("uploadId="));
        try (OutputStream out = fileIO.newOutputStream(path)) {
            out.write(large);
        }
        assertThat(proxy.faultCount() - faults).isEqualTo(2);
        assertThat(fileIO.newInputFile(path).readAllBytes()).isEqualTo(large);

        String forgotten = "s3://" + BUCKET + "/lost/forgotten";
        proxy.inject(Fault.error(404, "NoSuchUpload").onMethod("POST").onTargetContaining("uploadId="));
        assertThatThrownBy(() -> {
            try (OutputStream out = fileIO.newOutputStream(forgotten)) {
                out.write(large);
            }
        })
                .isInstanceOf(IOException.class)
                .hasMessageContaining(forgotten)
                .hasMessageContaining("no longer knows its multipart upload");
        assertThat(fileIO.exists(forgotten)).isFalse();
    }

    @DataProvider
    public Object[][] writeFaults()
    {
        return new Object[][] {
                {Fault.internalError().times(RETRIES)},
                {Fault.slowDown().times(RETRIES)},
                {Fault.connectionReset().times(RETRIES)},
                // the store stores the object and its answer is lost: the retried create finds it
                {Fault.answerLost()},
                {Fault.firstByteDelay(LOST_ANSWER_DELAY)},
        };
    }

    /**
     * A write whose uploads of data files, manifests and the snapshot each fail as often as the
     * client retries lands exactly once: one snapshot, one copy of each file, and Paimon reads
     * the rows written.
     */
    @Test(dataProvider = "writeFaults")
    public void testTransientFaultsLeaveOneCommit(Fault fault)
            throws IOException
    {
        String name = "ref.written_" + fault.kind().name().toLowerCase(Locale.ROOT);
        createCopyOfSource(name, Map.of());
        PaimonTable table = PaimonTable.load(warehouseFor(fault).catalog(), Identifier.parse(name));
        long faults = proxy.faultCount();
        for (String target : List.of("/data-", "/manifest/", "/snapshot/snapshot-")) {
            proxy.inject(fault.onMethod("PUT").onTargetContaining(target));
        }
        Snapshot snapshot = appendSourceRows(table);
        assertThat(proxy.faultCount() - faults).isEqualTo(3L * fault.times());
        proxy.clearFaults();

        assertThat(snapshot.id()).isEqualTo(1);
        assertThat(fileIO.list(table.location() + "/snapshot")).extracting(FileStatus::name).filteredOn(entry -> entry.startsWith("snapshot-")).containsExactly("snapshot-1");
        String expected = paimonRows.get(SOURCE);
        assertThat(lake.paimon().read(name).text()).as("Paimon reads the table written").isEqualTo(expected);
        assertThat(tarnRows(name)).isEqualTo(expected);
        // no file was uploaded twice under another name, none is left unreferenced
        assertThat(OrphanFiles.remove(reload(name), Instant.now().plusSeconds(60)).deletedFiles()).isEmpty();
    }

    /**
     * The PUT of the new snapshot fails every time: the commit fails naming the snapshot, the
     * table stays at its previous snapshot, and what the commit uploaded is an orphan that
     * {@link OrphanFiles} deletes. (Every kind of fault fails a conditional PUT alike:
     * {@link #testEveryKindOfRequestFailsNamingTheObject}.)
     */
    @Test
    public void testPersistentSnapshotFaultLeavesThePreviousSnapshot()
            throws IOException
    {
        String name = "ref.failed_commit";
        Fault fault = Fault.slowDown();
        PaimonTable table = createCopyOfSource(name, Map.of());
        assertThat(appendSourceRows(table).id()).isEqualTo(1);
        String expected = lake.paimon().read(name).text();
        Set<String> before = tableObjects(name);

        proxy.inject(fault.always().onMethod("PUT").onTargetContaining("/snapshot/snapshot-2"));
        assertThatThrownBy(() -> appendSourceRows(reload(name)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(table.location() + "/snapshot/snapshot-2")
                .hasMessageContaining("after 4 attempts");
        proxy.clearFaults();

        PaimonTable failed = reload(name);
        assertThat(failed.snapshotManager().latest().orElseThrow().id()).isEqualTo(1);
        assertThat(tarnRows(name)).isEqualTo(expected);
        assertThat(lake.paimon().read(name).text()).isEqualTo(expected);

        Set<String> left = new HashSet<>(tableObjects(name));
        left.removeAll(before);
        assertThat(left).as("the failed commit's data files and manifests").isNotEmpty();
        assertThat(OrphanFiles.remove(failed, Instant.now().plusSeconds(60)).deletedFiles()).containsExactlyInAnyOrderElementsOf(left);
        assertThat(tarnRows(name)).isEqualTo(expected);
    }

    /**
     * A writer process killed (SIGKILL) while it uploads data files, slowed by the store's
     * latency, leaves the table readable at its previous snapshot; {@link OrphanFiles} then
     * deletes exactly what it uploaded and nothing the table references.
     */
    @Test
    public void testWriterKilledDuringUploadLeavesThePreviousSnapshot()
            throws Exception
    {
        String name = "ref.killed_upload";
        // every batch rolls to a new file: the writer uploads many
        PaimonTable table = createCopyOfSource(name, Map.of("target-file-size", "1b"));
        assertThat(appendSourceRows(table).id()).isEqualTo(1);
        String expected = lake.paimon().read(name).text();
        Set<String> before = tableObjects(name);

        proxy.inject(Fault.firstByteDelay(Duration.ofMillis(200)).always().onMethod("PUT"));
        Path log = Files.createTempFile("tarn-uploading-writer", ".log");
        Process writer = startWriter(name, log);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (newDataFiles(name, before).isEmpty()) {
                assertThat(writer.isAlive()).as("writer still uploading: %s", Files.readString(log)).isTrue();
                assertThat(System.nanoTime()).as("writer uploads a data file within a minute").isLessThan(deadline);
                Thread.sleep(20);
            }
        }
        finally {
            writer.destroyForcibly().waitFor();
            proxy.clearFaults();
        }
        awaitUploadsSettled(name);
        String output = Files.readString(log);
        Files.delete(log);
        assertThat(output).contains("UPLOADING").doesNotContain("COMMITTED");

        PaimonTable killed = reload(name);
        assertThat(killed.snapshotManager().latest().orElseThrow().id()).isEqualTo(1);
        assertThat(tarnRows(name)).isEqualTo(expected);
        assertThat(lake.paimon().read(name).text()).isEqualTo(expected);

        Set<String> left = new HashSet<>(tableObjects(name));
        left.removeAll(before);
        assertThat(left).as("data files the killed writer uploaded").isNotEmpty().allMatch(path -> path.contains("/data-"));
        assertThat(OrphanFiles.remove(killed, Instant.now().plusSeconds(60)).deletedFiles()).containsExactlyInAnyOrderElementsOf(left);
        ScanPlan plan = new ScanPlanner(killed).plan(killed.snapshot(new ScanVersion.Latest()));
        for (PlannedFile file : plan.files()) {
            assertThat(fileIO.exists(killed.dataFilePath(file.partition(), file.bucket(), file.file(), file.file().fileName()))).isTrue();
        }
        assertThat(tarnRows(name)).isEqualTo(expected);
    }

    private Process startWriter(String table, Path log)
            throws IOException
    {
        // a short-lived process: C1 alone starts it faster on a busy machine
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        // the flags Arrow needs on this JDK, as this JVM got them
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-opens") || argument.startsWith("--sun-misc-unsafe-memory-access") || argument.startsWith("--enable-native-access")) {
                command.add(argument);
            }
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), S3UploadingWriter.class.getName(), lake.location(), SOURCE, table, "50"));
        properties.forEach((key, value) -> command.add(key + "=" + value));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private interface IoAction
    {
        void run()
                throws IOException;
    }

    /**
     * Runs {@code action} with {@code faults} armed, each for as many requests as the client
     * retries, and checks that they all hit.
     */
    private void retried(List<Fault> faults, IoAction action)
            throws IOException
    {
        long before = proxy.faultCount();
        faults.forEach(fault -> proxy.inject(fault.times(RETRIES)));
        action.run();
        assertThat(proxy.faultCount() - before).as("faults injected").isEqualTo((long) RETRIES * faults.size());
        proxy.clearFaults();
    }

    private void failing(Fault fault, String object, String why, IoAction action)
    {
        long requests = proxy.requestCount();
        proxy.inject(fault.always());
        assertThatThrownBy(action::run)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(object)
                .hasMessageContaining(why)
                .satisfies(failure -> assertThat(failure.getCause()).as("the cause").isNotNull());
        proxy.clearFaults();
        assertThat(proxy.requestCount() - requests).as("requests sent").isGreaterThanOrEqualTo(RETRIES + 1);
    }

    private PaimonTable createCopyOfSource(String name, Map<String, String> extraOptions)
            throws IOException
    {
        FileSystemCatalog catalog = warehouse.catalog();
        TableSchema schema = PaimonTable.load(catalog, Identifier.parse(SOURCE)).schema();
        Map<String, String> options = new LinkedHashMap<>(schema.options());
        options.putAll(extraOptions);
        catalog.createTable(Identifier.parse(name), new TableSchema(schema.version(), 0, schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), options, schema.comment(), schema.timeMillis()));
        return reload(name);
    }

    /**
     * Writes the source table's rows into {@code target} with Tarn and commits them.
     */
    private Snapshot appendSourceRows(PaimonTable target)
            throws IOException
    {
        PaimonTable source = reload(SOURCE);
        ScanPlan plan = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest()));
        try (AppendTableWriter writer = new AppendTableWriter(target, allocator)) {
            TableRead.forEachBatch(source, plan, ReadRequest.of(plan.readSchema().fields()).withBatchSize(13), allocator, writer::write);
            return new TableCommit(target, "fault-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
    }

    private Warehouse warehouseFor(Fault fault)
    {
        return fault.kind() == Fault.Kind.FIRST_BYTE_DELAY ? impatient : warehouse;
    }

    private String tarnRows(String name)
            throws IOException
    {
        return tarnRows(warehouse, name);
    }

    private String tarnRows(Warehouse through, String name)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(through.catalog(), Identifier.parse(name));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), lines));
        return CanonicalRowSet.of(lines).text();
    }

    /**
     * The table, loaded afresh: a new catalog, so nothing read before is cached.
     */
    private PaimonTable reload(String name)
            throws IOException
    {
        return PaimonTable.load(warehouse.catalog(), Identifier.parse(name));
    }

    /**
     * The objects below the table's data and manifest directories, as the server keeps them on
     * its disk: their paths on the store.
     */
    private Set<String> tableObjects(String name)
            throws IOException
    {
        Identifier identifier = Identifier.parse(name);
        Path directory = lake.objects().resolve(identifier.database() + ".db").resolve(identifier.table());
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile)
                    .map(directory::relativize)
                    .filter(path -> !path.startsWith("snapshot") && !path.startsWith("schema"))
                    .map(path -> lake.location() + "/" + identifier.database() + ".db/" + identifier.table() + "/" + path.toString().replace('\\', '/'))
                    .collect(Collectors.toSet());
        }
    }

    private Set<String> newDataFiles(String name, Set<String> before)
            throws IOException
    {
        return tableObjects(name).stream()
                .filter(path -> !before.contains(path) && path.substring(path.lastIndexOf('/') + 1).startsWith("data-") && path.endsWith(".parquet"))
                .collect(Collectors.toSet());
    }

    /**
     * Waits until the server has finished with, or dropped, the uploads the killed writer left
     * in flight: it writes an object to a temporary file beside it, named after the object and a
     * UUID, and moves it in place when complete.
     */
    private void awaitUploadsSettled(String name)
            throws IOException, InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (tableObjects(name).stream().anyMatch(path -> TEMPORARY_FILE.matcher(path).matches())) {
            assertThat(System.nanoTime()).as("the server settles the uploads in flight").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
