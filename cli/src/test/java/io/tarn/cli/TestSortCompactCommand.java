package io.tarn.cli;

import io.tarn.testing.CanonicalRows;
import io.tarn.testing.PlannedFile;
import io.tarn.testing.ReferencePlan;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tarn sort-compact} on a partitioned reference table, checked with Apache Paimon: the
 * chosen partitions get new files in one OVERWRITE snapshot, the others keep theirs, and Paimon
 * reads the same rows as before.
 */
public class TestSortCompactCommand
{
    private static final String TABLE = ReferenceTables.APPEND_PARTITIONED.identifier();

    private Path warehouse;

    @BeforeClass
    public void createTable()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-cli-sort-compact");
        ReferenceTables.create(warehouse, ReferenceTables.APPEND_PARTITIONED);
    }

    @AfterClass(alwaysRun = true)
    public void deleteTable()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testSortCompactRewritesTheChosenPartitions()
    {
        CanonicalRows before = ReferenceReader.read(warehouse, TABLE);
        List<PlannedFile> filesBefore = ReferencePlan.plan(warehouse, TABLE);
        List<String> chosenBefore = fileNames(filesBefore, true);
        assertThat(chosenBefore).hasSizeGreaterThan(1);

        Result result = run("sort-compact", "--warehouse", warehouse.toString(), "--zorder", "id,amount",
                "--partition", "dt=2024-01-01,region=1", "--partition=dt=2024-01-02", TABLE);
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).matches("snapshot=6 kind=OVERWRITE partitions=3 files_read=\\d+ files_written=3 rows=18 spilled_runs=0\\n");

        List<ReferenceSnapshot> snapshots = ReferenceTables.snapshots(warehouse, TABLE);
        assertThat(snapshots.get(snapshots.size() - 1).commitKind()).isEqualTo("OVERWRITE");
        assertThat(ReferenceReader.read(warehouse, TABLE)).isEqualTo(before);
        List<PlannedFile> filesAfter = ReferencePlan.plan(warehouse, TABLE);
        assertThat(fileNames(filesAfter, false)).as("files of other partitions").isEqualTo(fileNames(filesBefore, false));
        assertThat(fileNames(filesAfter, true)).hasSize(3).doesNotContainAnyElementsOf(chosenBefore);

        Result plain = run("sort-compact", "--warehouse", warehouse.toString(), "--order", "amount", "--memory", "1kb", TABLE);
        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(plain.out()).startsWith("snapshot=7 kind=OVERWRITE partitions=8 ").contains(" rows=42 ");
        assertThat(ReferenceReader.read(warehouse, TABLE)).isEqualTo(before);
    }

    @Test
    public void testErrors()
    {
        Result twoOrders = run("sort-compact", "--warehouse", warehouse.toString(), "--zorder", "id", "--order", "id", TABLE);
        assertThat(twoOrders.exitCode()).isEqualTo(2);
        assertThat(twoOrders.err()).contains("exactly one of");

        Result badPartition = run("sort-compact", "--warehouse", warehouse.toString(), "--zorder", "id", "--partition", "2024", TABLE);
        assertThat(badPartition.exitCode()).isEqualTo(2);

        Result unknownColumn = run("sort-compact", "--warehouse", warehouse.toString(), "--hilbert", "id,nope", TABLE);
        assertThat(unknownColumn.exitCode()).isEqualTo(1);
        assertThat(unknownColumn.err()).contains("nope", TABLE);

        Result oneHilbertColumn = run("sort-compact", "--warehouse", warehouse.toString(), "--hilbert", "id", TABLE);
        assertThat(oneHilbertColumn.exitCode()).isEqualTo(1);
        assertThat(oneHilbertColumn.err()).contains("two");
    }

    /**
     * The partitions chosen above are dt=2024-01-01/region=1 and both partitions of dt=2024-01-02;
     * the oracle spells a partition as its values joined by tabs.
     */
    private static List<String> fileNames(List<PlannedFile> files, boolean chosen)
    {
        return files.stream()
                .filter(file -> chosen == (file.partition().startsWith("2024-01-02\t") || file.partition().equals("2024-01-01\t1")))
                .map(file -> file.partition() + " " + file.fileName())
                .sorted()
                .toList();
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
