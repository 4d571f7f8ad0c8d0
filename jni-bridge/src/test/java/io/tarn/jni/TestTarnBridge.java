package io.tarn.jni;

import io.tarn.jni.NativeProgram.Case;
import io.tarn.jni.NativeProgram.Output;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.RowTrackingTables;
import io.tarn.testing.TemporaryDirectories;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.testng.SkipException;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.tarn.jni.NativeProgram.command;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives libtarn.so from C ({@code src/test/c/tarn_test.c}) and compares what the C side reads
 * through the Arrow C stream, formatted in C, with Apache Paimon's rows. One C process runs every
 * read, error, thread and memory case of the main warehouse, so the JVM starts once for them.
 */
public class TestTarnBridge
{
    private static final String ALL_TYPES = ReferenceTables.APPEND_ALL_TYPES.identifier();
    private static final String NESTED = ReferenceTables.APPEND_NESTED.identifier();
    private static final String DV = ReferenceTables.PK_DV.identifier();
    private static final String DEDUP = ReferenceTables.PK_DEDUP.identifier();
    private static final String PARTIAL_UPDATE = ReferenceTables.PK_PARTIAL_UPDATE.identifier();
    private static final String FILE_INDEX = ReferenceTables.APPEND_FILE_INDEX_FILES.identifier();
    private static final String ZORDER = ReferenceTables.APPEND_ZORDER.identifier();
    private static final String EVOLVED = ReferenceTables.APPEND_EVOLVED.identifier();
    private static final String BUCKETED = ReferenceTables.APPEND_BUCKETED.identifier();
    private static final String CORRUPT = ReferenceTables.DATABASE + ".corrupt_bucketed";
    private static final String TRACKED = ReferenceTables.DATABASE + ".tracked";
    private static final int CYCLES = 1000;

    private Path warehouse;
    private final List<ScanCase> scans = new ArrayList<>();
    private Output output;

    @BeforeClass
    public void createTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-jni");
        for (ReferenceTable table : List.of(ReferenceTables.APPEND_ALL_TYPES, ReferenceTables.APPEND_NESTED, ReferenceTables.PK_DV, ReferenceTables.PK_DEDUP,
                ReferenceTables.PK_PARTIAL_UPDATE, ReferenceTables.APPEND_FILE_INDEX_FILES, ReferenceTables.APPEND_ZORDER, ReferenceTables.APPEND_EVOLVED,
                ReferenceTables.APPEND_BUCKETED)) {
            ReferenceTables.create(warehouse, table);
        }
        corruptCopyOfBucketed();
        RowTrackingTables.write(warehouse, TRACKED, 3, 5);

        scan("all_types", ReferenceScan.of(ALL_TYPES), null, null, null, "splits");
        scan("all_types_table", ReferenceScan.of(ALL_TYPES), null, null, null, "table");
        scan("all_types_projected_filtered", ReferenceScan.of(ALL_TYPES), "f_string,id,f_ts9,f_decimal_38_10,f_ltz6", "id < 50", builder -> builder.lessThan(0, 50), "splits");
        scan("all_types_tag", ReferenceScan.of(ALL_TYPES).atTag("t1"), "id,f_double,f_float,f_date", null, null, "splits");
        scan("nested", ReferenceScan.of(NESTED), null, null, null, "splits");
        scan("dv", ReferenceScan.of(DV), null, null, null, "splits");
        scan("dv_projected_filtered", ReferenceScan.of(DV), "v,id", "id >= 20", builder -> builder.greaterOrEqual(0, 20), "table");
        scan("dedup", ReferenceScan.of(DEDUP), null, null, null, "splits");
        scan("dedup_partition", ReferenceScan.of(DEDUP), "name,id", "dt = '2024-01-02'", builder -> builder.equal(1, BinaryString.fromString("2024-01-02")), "splits");
        scan("partial_update", ReferenceScan.of(PARTIAL_UPDATE), null, null, null, "splits");
        scan("file_index", ReferenceScan.of(FILE_INDEX), null, "id in (3, 42, 77)", builder -> builder.in(0, List.<Object>of(3, 42, 77)), "splits");
        scan("zorder", ReferenceScan.of(ZORDER), null, "x >= 2 and y < 0", builder -> PredicateBuilder.and(builder.greaterOrEqual(0, 2), builder.lessThan(1, 0)), "splits");
        scan("evolved", ReferenceScan.of(EVOLVED), null, null, null, "splits");
        scan("evolved_snapshot_2", ReferenceScan.of(EVOLVED).atSnapshot(2), null, null, null, "table");
        // _ROW_ID and _SEQUENCE_NUMBER of a table that tracks rows, as Paimon's row-tracking view gives them
        CanonicalRows tracked = project(ReferenceReader.readWithRowTracking(warehouse, TRACKED), List.of("id", "name", "_ROW_ID", "_SEQUENCE_NUMBER"), "_ROW_ID,id,_SEQUENCE_NUMBER");
        for (String mode : List.of("splits", "table")) {
            scans.add(new ScanCase("row_tracking_" + mode, command("scan", "row_tracking_" + mode, warehouse.toString(), TRACKED, null, "_ROW_ID,id,_SEQUENCE_NUMBER", null, mode), tracked));
        }

        List<String> commands = new ArrayList<>();
        for (ScanCase scan : scans) {
            commands.add(scan.command());
        }
        commands.add(command("scan", "unknown_table", warehouse.toString(), "ref.nope", null, null, null, "splits"));
        commands.add(command("scan", "bad_filter", warehouse.toString(), DV, null, null, "id betwen 1", "splits"));
        commands.add(command("scan", "unknown_column", warehouse.toString(), DV, null, "id,nope", null, "table"));
        commands.add(command("scan", "unknown_snapshot", warehouse.toString(), DV, "snapshot:77", null, null, "table"));
        commands.add(command("scan", "corrupt_file", warehouse.toString(), CORRUPT, null, null, null, "splits"));
        commands.add(command("descriptor", "garbage_descriptor", "200"));
        commands.add(command("scan", "after_errors", warehouse.toString(), DV, null, null, null, "table"));
        commands.add(command("threads", "threads", warehouse.toString(), BUCKETED, "4"));
        commands.add(command("hold", "hold_bucketed", warehouse.toString(), BUCKETED));
        commands.add(command("hold", "hold_nested", warehouse.toString(), NESTED));
        commands.add(command("cycles", "cycles", warehouse.toString(), DV, Integer.toString(CYCLES)));
        output = NativeProgram.run(commands, NativeProgram.environment());
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        if (warehouse != null) {
            TemporaryDirectories.deleteRecursively(warehouse);
        }
    }

    @Test
    public void testProgramRanToTheEnd()
    {
        assertThat(output.init()).as(output.stderr()).isEqualTo("INIT status=0 error=");
        assertThat(output.done()).as(output.stderr()).isTrue();
        assertThat(output.exitCode()).isZero();
    }

    @Test
    public void testScansMatchPaimon()
    {
        for (ScanCase scan : scans) {
            Case result = output.get(scan.name());
            assertThat(result.status()).as(scan.name() + ": " + result.error()).isZero();
            CanonicalRows actual = CanonicalRows.of(result.lines());
            assertThat(actual.lines()).as(scan.name()).isEqualTo(scan.expected().lines());
            assertThat(actual.rowCount()).as(scan.name()).isEqualTo(result.value("rows"));
        }
        // the tables the issue names are not empty, so the comparison above compared rows
        assertThat(output.get("dv").lines()).hasSize((int) ReferenceTables.PK_DV.expectedRowCount());
        assertThat(output.get("file_index").lines()).isNotEmpty();
        assertThat(output.get("all_types_projected_filtered").lines()).hasSize(50);
        assertThat(output.get("evolved_snapshot_2").lines()).isNotEmpty();
        assertThat(output.get("row_tracking_splits").lines()).hasSize(15);
        assertThat(output.get("dedup").value("splits")).isGreaterThan(1);
    }

    @Test
    public void testErrorsAreStatusesAndTheProcessGoesOn()
    {
        Case unknownTable = output.get("unknown_table");
        assertThat(unknownTable.status()).isEqualTo(2);
        assertThat(unknownTable.error()).contains("ref.nope");

        Case badFilter = output.get("bad_filter");
        assertThat(badFilter.status()).isEqualTo(1);
        assertThat(badFilter.error()).contains("betwen", "position");

        Case unknownColumn = output.get("unknown_column");
        assertThat(unknownColumn.status()).isEqualTo(1);
        assertThat(unknownColumn.error()).contains("nope", DV);

        Case unknownSnapshot = output.get("unknown_snapshot");
        assertThat(unknownSnapshot.status()).isEqualTo(2);
        assertThat(unknownSnapshot.error()).contains("77");

        // planning reads only manifests: the broken data file fails the stream's get_next, with its name
        Case corrupt = output.get("corrupt_file");
        assertThat(corrupt.status()).isNotZero();
        assertThat(corrupt.error()).contains(CORRUPT, ".parquet");

        Case garbage = output.get("garbage_descriptor");
        assertThat(garbage.status()).isEqualTo(1);
        assertThat(garbage.error()).contains("Split descriptor is corrupt");

        Case after = output.get("after_errors");
        assertThat(after.status()).isZero();
        assertThat(after.value("rows")).isEqualTo(ReferenceTables.PK_DV.expectedRowCount());
    }

    @Test
    public void testFourThreadsReadDisjointSplits()
    {
        Case threads = output.get("threads");
        assertThat(threads.status()).as(threads.error()).isZero();
        assertThat(threads.value("splits")).isGreaterThanOrEqualTo(4);
        for (int thread = 0; thread < 4; thread++) {
            assertThat(threads.value("thread" + thread)).as("rows of thread " + thread).isPositive();
        }
        assertThat(threads.value("rows")).isEqualTo(ReferenceTables.APPEND_BUCKETED.expectedRowCount());
        assertThat(CanonicalRows.of(threads.lines())).isEqualTo(ReferenceReader.read(warehouse, BUCKETED));
    }

    @Test
    public void testEveryBatchIsAValidExport()
    {
        // tarn_test.c checks each batch it reads (check_array) and fails the case on the first violation
        for (ScanCase scan : scans) {
            assertThat(output.get(scan.name()).error()).as(scan.name()).doesNotContain("batch");
        }
    }

    @Test
    public void testBatchesOutliveTheStreamAndAreReleasedInAnyOrder()
    {
        for (String name : List.of("hold_bucketed", "hold_nested")) {
            Case hold = output.get(name);
            assertThat(hold.status()).as(name + ": " + hold.error()).isZero();
            assertThat(hold.value("moved_ok")).as(name + ": the column moved out of the first batch reads the same after the batch's release").isEqualTo(1);
            assertThat(hold.value("allocated_moved")).as(name + ": the moved column keeps its batch's memory").isGreaterThan(hold.value("allocated_released"));
            assertThat(hold.value("allocated")).as(name + ": bytes left after every release").isZero();
        }
        // rows read after the stream's release, from batches released out of order afterwards
        assertThat(output.get("hold_bucketed").value("batches")).isGreaterThan(2);
        assertThat(CanonicalRows.of(output.get("hold_bucketed").lines())).isEqualTo(ReferenceReader.read(warehouse, BUCKETED));
        assertThat(CanonicalRows.of(output.get("hold_nested").lines())).isEqualTo(ReferenceReader.read(warehouse, NESTED));
    }

    @Test
    public void testThousandCyclesLeaveNothingBehind()
    {
        Case cycles = output.get("cycles");
        assertThat(cycles.status()).as(cycles.error()).isZero();
        assertThat(cycles.value("rows")).isGreaterThan(CYCLES);
        assertThat(cycles.value("allocated")).as("bytes still held by the bridge's allocator").isZero();
        long[] residentKilobytes = Arrays.stream(cycles.end().get("rss_kb").split(",")).mapToLong(Long::parseLong).toArray();
        assertThat(residentKilobytes).hasSize(10);
        // the JVM's heap and code cache settle in the first half; after that resident memory stays flat
        long growth = residentKilobytes[9] - residentKilobytes[4];
        assertThat(growth).as("resident kB growth over the last 500 cycles: " + Arrays.toString(residentKilobytes)).isLessThan(8 * 1024);
    }

    @Test
    public void testAttachesToTheJvmTheHostRuns()
    {
        Output hosted = NativeProgram.run(List.of(command("scan", "dv", warehouse.toString(), DV, null, null, null, "splits")), NativeProgram.environment(), "--host-jvm");
        assertThat(hosted.stdout()).as(hosted.stderr()).contains("HOST JVM started");
        assertThat(hosted.init()).as(hosted.stderr()).isEqualTo("INIT status=0 error=");
        assertThat(CanonicalRows.of(hosted.get("dv").lines())).isEqualTo(ReferenceReader.read(warehouse, DV));
    }

    @Test
    public void testStartsAJdk17()
    {
        // the product modules target JDK 17 engines; this machine may not have one
        Path jdk17 = Path.of(System.getProperty("tarn.jdk17.home", "/usr/lib/jvm/java-17-openjdk-amd64"));
        if (!Files.isExecutable(jdk17.resolve("bin/java"))) {
            throw new SkipException("No JDK 17 at " + jdk17 + "; give one with -Dtarn.jdk17.home");
        }
        Map<String, String> environment = new HashMap<>(NativeProgram.environment());
        environment.put("JAVA_HOME", jdk17.toString());
        Output onJdk17 = NativeProgram.run(List.of(command("scan", "all_types", warehouse.toString(), ALL_TYPES, null, null, null, "table")), environment);
        assertThat(onJdk17.init()).as(onJdk17.stderr()).isEqualTo("INIT status=0 error=");
        assertThat(CanonicalRows.of(onJdk17.get("all_types").lines())).isEqualTo(ReferenceReader.read(warehouse, ALL_TYPES));
    }

    @Test
    public void testJvmThatCannotStart()
    {
        List<String> commands = List.of(command("scan", "dv", warehouse.toString(), DV, null, null, null, "splits"));

        Map<String, String> badClassPath = new HashMap<>(NativeProgram.environment());
        badClassPath.put("TARN_CLASSPATH", warehouse.resolve("no-such.jar").toString());
        Output missingClasses = NativeProgram.run(commands, badClassPath);
        assertThat(missingClasses.init()).startsWith("INIT status=6 ").contains("io.tarn.jni.TarnBridge", "class path");
        assertThat(missingClasses.get("dv").status()).isEqualTo(6);
        assertThat(missingClasses.get("dv").error()).contains("tarn_init");
        assertThat(missingClasses.done()).isTrue();
        assertThat(missingClasses.exitCode()).isZero();

        Map<String, String> badOption = new HashMap<>(NativeProgram.environment());
        badOption.put("TARN_JVM_OPTS", "-XX:+NoSuchTarnOption");
        Output refused = NativeProgram.run(commands, badOption);
        assertThat(refused.init()).startsWith("INIT status=6 ").contains("did not start");
        assertThat(refused.get("dv").status()).isEqualTo(6);
        assertThat(refused.done()).isTrue();

        Map<String, String> noJava = new HashMap<>(NativeProgram.environment());
        noJava.put("JAVA_HOME", warehouse.resolve("no-such-jdk").toString());
        Output missingJvm = NativeProgram.run(commands, noJava);
        assertThat(missingJvm.init()).startsWith("INIT status=6 ").contains("libjvm", "no-such-jdk");
        assertThat(missingJvm.done()).isTrue();
    }

    private void scan(String name, ReferenceScan reference, String columns, String where, Function<PredicateBuilder, Predicate> filter, String mode)
    {
        ReferenceScan filtered = filter == null ? reference : reference.withFilter(filter.apply(ReferenceReader.predicateBuilder(warehouse, reference)));
        CanonicalRows rows = ReferenceReader.read(warehouse, filtered);
        if (columns != null) {
            rows = project(rows, ReferenceReader.rowType(warehouse, reference).getFieldNames(), columns);
        }
        String version = switch (reference.version().kind()) {
            case LATEST -> null;
            case SNAPSHOT -> "snapshot:" + reference.version().snapshotId();
            case TAG -> "tag:" + reference.version().tagName();
            case TIMESTAMP -> "timestamp:" + reference.version().timestampMillis();
        };
        scans.add(new ScanCase(name, command("scan", name, warehouse.toString(), reference.table(), version, columns, where, mode), rows));
    }

    /**
     * Paimon's rows cut to the projected columns: top-level values never contain a raw TAB.
     */
    private static CanonicalRows project(CanonicalRows rows, List<String> fieldNames, String columns)
    {
        int[] positions = Arrays.stream(columns.split(",")).mapToInt(fieldNames::indexOf).toArray();
        List<String> projected = new ArrayList<>();
        for (String line : rows.lines()) {
            String[] values = line.split("\t", -1);
            List<String> kept = new ArrayList<>();
            for (int position : positions) {
                kept.add(values[position]);
            }
            projected.add(String.join("\t", kept));
        }
        return CanonicalRows.of(projected);
    }

    /**
     * A copy of the bucketed table whose data files all end in garbage where the Parquet footer's
     * magic should be.
     */
    private void corruptCopyOfBucketed()
            throws IOException
    {
        Path source = warehouse.resolve("ref.db").resolve("append_bucketed");
        Path target = warehouse.resolve("ref.db").resolve("corrupt_bucketed");
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                Path copy = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                }
                else {
                    Files.copy(file, copy);
                }
            }
        }
        try (Stream<Path> files = Files.walk(target)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".parquet")).toList()) {
                try (RandomAccessFile data = new RandomAccessFile(file.toFile(), "rw")) {
                    data.seek(data.length() - 4);
                    data.write("JUNK".getBytes(StandardCharsets.US_ASCII));
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    private record ScanCase(String name, String command, CanonicalRows expected) {}
}
