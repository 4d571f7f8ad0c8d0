package io.tarn.cli;

import io.tarn.testing.ParquetFooterEdits;
import io.tarn.testing.PlannedFile;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferencePlan;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.predicate.PredicateBuilder;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Comparator.comparingLong;
import static org.assertj.core.api.Assertions.assertThat;

public class TestTarnCli
{
    private static final String TABLE = ReferenceTables.APPEND_PARTITIONED.identifier();

    private Path warehouse;

    @BeforeClass
    public void createTable()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-cli");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testFilesListsWhatPaimonPlans()
    {
        for (ReferenceSnapshot snapshot : ReferenceTables.snapshots(warehouse, TABLE)) {
            Result result = run("files", "--warehouse", warehouse.toString(), "--snapshot", Long.toString(snapshot.id()), TABLE);
            assertThat(result.exitCode()).as(result.err()).isZero();
            List<String> expected = ReferencePlan.plan(warehouse, ReferenceScan.of(TABLE).atSnapshot(snapshot.id())).stream()
                    .map(PlannedFile::fileName).sorted().toList();
            assertThat(column(result.out(), 6)).isEqualTo(expected);
            assertThat(result.err()).startsWith("# scan snapshot=" + snapshot.id() + " ").contains("files_planned=" + expected.size());
        }
    }

    @Test
    public void testFilesByTagShowsPartitionPaths()
    {
        Result result = run("files", "--warehouse", warehouse.toString(), "--tag", "after_2", TABLE);
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(column(result.out(), 0)).contains("dt=2024-01-01/region=1/", "dt=a%2Fb%3Ac%3Dd/region=3/", "dt=2024-01-03/region=__DEFAULT_PARTITION__/");
    }

    @Test
    public void testSnapshotsListsEverySnapshotAndTag()
    {
        Result result = run("snapshots", "--warehouse", warehouse.toString(), TABLE);
        assertThat(result.exitCode()).as(result.err()).isZero();
        List<String> ids = ReferenceTables.snapshots(warehouse, TABLE).stream().map(snapshot -> Long.toString(snapshot.id())).toList();
        String[] sections = result.out().split("\n\n");
        assertThat(column(sections[0], 0)).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(column(sections[1], 0)).containsExactlyInAnyOrder("t1", "after_2", "after_overwrite");
        assertThat(sections[0]).contains("\tOVERWRITE\t");
    }

    @Test
    public void testDumpPrintsTheOraclesRows()
    {
        Result all = run("dump", "--warehouse", warehouse.toString(), TABLE);
        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).isEqualTo(ReferenceReader.read(warehouse, TABLE).text());
        assertThat(all.err()).startsWith("# scan ").contains("files_planned=9", "files_read=9", "rows_returned=42", "rows_deleted=0");

        ReferenceScan unfiltered = ReferenceScan.of(TABLE);
        PredicateBuilder builder = ReferenceReader.predicateBuilder(warehouse, unfiltered);
        org.apache.paimon.predicate.Predicate paimonFilter = PredicateBuilder.and(
                builder.equal(0, BinaryString.fromString("2024-01-01")),
                builder.lessThan(2, 10));
        Result filtered = run("dump", "--warehouse", warehouse.toString(), "--where", "DT = '2024-01-01' AND id < 10", TABLE);
        assertThat(filtered.exitCode()).as(filtered.err()).isZero();
        assertThat(filtered.out()).isEqualTo(ReferenceReader.read(warehouse, unfiltered.withFilter(paimonFilter)).text());
        assertThat(filtered.err()).contains("files_skipped_partition=");
        // the partition values and the id statistics of the files read prove both conjuncts: no row is tested
        Map<String, Long> proven = counters(filtered.err());
        assertThat(proven.get("rows_returned")).isPositive();
        assertThat(proven.get("rows_read")).isEqualTo(proven.get("rows_returned"));
        assertThat(proven.get("rows_read_again")).isZero();

        org.apache.paimon.predicate.Predicate stringFilter = PredicateBuilder.and(
                builder.equal(0, BinaryString.fromString("2024-01-01")),
                builder.lessThan(3, BinaryString.fromString("name-3")));
        Result tested = run("dump", "--warehouse", warehouse.toString(), "--where", "DT = '2024-01-01' AND name < 'name-3'", TABLE);
        assertThat(tested.exitCode()).as(tested.err()).isZero();
        assertThat(tested.out()).isEqualTo(ReferenceReader.read(warehouse, unfiltered.withFilter(stringFilter)).text());
        // string statistics prove nothing: each row of the files read is decoded once by the
        // filter pass, then the other columns of the matches again (late materialization),
        // counted apart
        Map<String, Long> counters = counters(tested.err());
        assertThat(counters.get("rows_returned")).isPositive();
        assertThat(counters.get("rows_filtered")).isPositive();
        assertThat(counters.get("rows_read")).isEqualTo(counters.get("rows_filtered") + counters.get("rows_returned"));
        assertThat(counters.get("rows_read_again")).isEqualTo(counters.get("rows_returned"));

        Result atTag = run("dump", "--warehouse", warehouse.toString(), "--tag", "t1", "--columns", "id,dt", TABLE);
        assertThat(atTag.exitCode()).as(atTag.err()).isZero();
        assertThat(atTag.out()).endsWith("\n").contains("rows=20 ");
        assertThat(atTag.out().lines().findFirst().orElseThrow()).matches("\\d+\t2024-01-0\\d");
    }

    /**
     * The version options are parts of the shared version grammar: every timestamp form of it
     * reaches the same snapshot, and bad values are usage errors naming the option.
     */
    @Test
    public void testVersionOptions()
    {
        ReferenceSnapshot latest = ReferenceTables.snapshots(warehouse, TABLE).stream().max(comparingLong(ReferenceSnapshot::id)).orElseThrow();
        Instant committed = Instant.ofEpochMilli(latest.timeMillis());
        List<String> timestamps = List.of(
                Long.toString(latest.timeMillis()),
                DateTimeFormatter.ISO_INSTANT.format(committed),
                // west of UTC: read as UTC, the time would precede every snapshot
                DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(committed.atOffset(ZoneOffset.ofHours(-3))),
                DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(LocalDateTime.ofInstant(committed, ZoneId.systemDefault())).replace('T', ' '));
        for (String timestamp : timestamps) {
            Result result = run("files", "--warehouse", warehouse.toString(), "--timestamp", timestamp, TABLE);
            assertThat(result.exitCode()).as(timestamp + ": " + result.err()).isZero();
            assertThat(result.err()).as(timestamp).startsWith("# scan snapshot=" + latest.id() + " ");
        }

        assertUsageError(List.of("--snapshot", "0"), "tarn: Snapshot ids start at 1: --snapshot 0");
        assertUsageError(List.of("--snapshot", "one"), "tarn: Not a snapshot id: --snapshot one");
        assertUsageError(List.of("--timestamp", "yesterday"), "tarn: Not an ISO timestamp: --timestamp yesterday");
        assertUsageError(List.of("--tag", " "), "tarn: Tag name is blank: --tag ' '");
        assertUsageError(List.of("--branch", "123"), "tarn: Branch name '123' is all digits, which Paimon reserves for snapshot ids");
    }

    private void assertUsageError(List<String> options, String message)
    {
        List<String> args = Stream.of(List.of("files", "--warehouse", warehouse.toString()), options, List.of(TABLE)).flatMap(List::stream).toList();
        Result result = run(args.toArray(String[]::new));
        assertThat(result.exitCode()).as(options + ": " + result.err()).isEqualTo(2);
        assertThat(result.err()).as(options.toString()).startsWith(message + "\n");
    }

    @Test
    public void testErrors()
    {
        Result unknownTable = run("files", "--warehouse", warehouse.toString(), "ref.nope");
        assertThat(unknownTable.exitCode()).isEqualTo(1);
        assertThat(unknownTable.err()).contains("ref.nope");

        Result badSnapshot = run("files", "--warehouse", warehouse.toString(), "--snapshot", "77", TABLE);
        assertThat(badSnapshot.exitCode()).isEqualTo(1);
        assertThat(badSnapshot.err()).contains("77");

        Result twoVersions = run("files", "--warehouse", warehouse.toString(), "--snapshot", "1", "--tag", "t1", TABLE);
        assertThat(twoVersions.exitCode()).isEqualTo(2);
        assertThat(twoVersions.err()).contains("at most one of");

        Result badName = run("files", "--warehouse", warehouse.toString(), "ref../x");
        assertThat(badName.exitCode()).isEqualTo(2);

        Result unknownOption = run("files", "--warehouse", warehouse.toString(), "--colour", "red", TABLE);
        assertThat(unknownOption.exitCode()).isEqualTo(2);
        assertThat(unknownOption.err()).contains("--colour");

        assertThat(run("frobnicate").exitCode()).isEqualTo(2);

        Result badWhere = run("dump", "--warehouse", warehouse.toString(), "--where", "id betwen 1", TABLE);
        assertThat(badWhere.exitCode()).isEqualTo(2);
        assertThat(badWhere.err()).contains("position");

        Result badColumn = run("dump", "--warehouse", warehouse.toString(), "--columns", "id,nope", TABLE);
        assertThat(badColumn.exitCode()).isEqualTo(2);
        assertThat(badColumn.err()).contains("nope", "amount");
    }

    /**
     * The footer case through the command line: a data file whose footer gives column
     * {@code id} another field id must fail naming the file, not dump the column as NULLs.
     */
    @Test
    public void testDumpFailsOnAFooterWithAChangedFieldId()
            throws IOException
    {
        Path copy = warehouse.resolve("ref.db/changed_field_id");
        TemporaryDirectories.copyRecursively(warehouse.resolve("ref.db/" + ReferenceTables.APPEND_PARTITIONED.tableName()), copy);
        Path file;
        try (Stream<Path> files = Files.walk(copy)) {
            file = files.filter(path -> path.getFileName().toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
        int fieldId = ParquetFooterEdits.changeFieldId(file, "id", 1000);
        assertThat(fieldId).isNotEqualTo(1000);

        Result dump = run("dump", "--warehouse", warehouse.toString(), "ref.changed_field_id");
        assertThat(dump.exitCode()).isEqualTo(1);
        assertThat(dump.err()).contains("ref.changed_field_id", file.getFileName().toString(), "field id " + fieldId);
        assertThat(dump.out()).doesNotContain("rows=");

        Result filtered = run("dump", "--warehouse", warehouse.toString(), "--where", "id >= 0", "ref.changed_field_id");
        assertThat(filtered.exitCode()).isEqualTo(1);
        assertThat(filtered.err()).contains(file.getFileName().toString());
    }

    private static Map<String, Long> counters(String scanLine)
    {
        Map<String, Long> counters = new HashMap<>();
        Matcher matcher = Pattern.compile("(\\w+)=(\\d+)").matcher(scanLine);
        while (matcher.find()) {
            counters.put(matcher.group(1), Long.parseLong(matcher.group(2)));
        }
        return counters;
    }

    private static List<String> column(String table, int index)
    {
        return Arrays.stream(table.split("\n"))
                .skip(1)
                .filter(line -> !line.isEmpty())
                .map(line -> line.split("\t")[index])
                .sorted()
                .toList();
    }

    static Result run(String... args)
    {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = new TarnCli(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Result(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    record Result(int exitCode, String out, String err) {}
}
