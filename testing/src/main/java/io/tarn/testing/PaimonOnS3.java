package io.tarn.testing;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.RowType;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static java.util.Objects.requireNonNull;

/**
 * Apache Paimon on an object store through its own S3 file system ({@code paimon-s3}, Hadoop's
 * S3A inside), the oracle of the S3 tests: one child JVM, started once and serving requests
 * until closed, writes reference tables into the bucket and reads tables from it.
 *
 * <p>Why a child JVM: {@code paimon-s3}'s Hadoop calls {@code Subject.getSubject}, which JDK 23
 * and later refuse, so it runs on a JDK 17 ({@link ChildJvm#java17()} says where it is looked
 * for) with the oracle's {@code paimon-bundle}, the {@code paimon-s3} jar of the same release
 * (copied by the build, never on a test class path, where Paimon would take it for {@code s3://}
 * on this JVM) and this module's classes ({@link PaimonOnS3Main}). Starting it takes a second or
 * two; each request then costs what Paimon's work over S3 costs.
 *
 * <p>Requests are answered one at a time; a request that fails in the child fails here with the
 * child's stack trace, and one that outlasts {@value #TIMEOUT_SECONDS} s ends the child.
 */
public final class PaimonOnS3
        implements AutoCloseable
{
    private static final long TIMEOUT_SECONDS = 300;

    private final PaimonWarehouse warehouse;
    private final Process process;
    private final Path log;
    private final BufferedWriter requests;
    private final BufferedReader answers;
    private final ExecutorService answerReader;

    private PaimonOnS3(PaimonWarehouse warehouse, Process process, Path log)
    {
        this.warehouse = warehouse;
        this.process = process;
        this.log = log;
        this.requests = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.answerReader = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "paimon-on-s3-answers");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts the child JVM on {@code warehouse}, an {@code s3://} warehouse with Paimon's
     * {@code s3.*} options.
     */
    public static PaimonOnS3 start(PaimonWarehouse warehouse)
    {
        requireNonNull(warehouse, "warehouse is null");
        String version = ChildJvm.buildProperties().getProperty("s3Version");
        Path bundle = ChildJvm.location(Catalog.class);
        if (!bundle.getFileName().toString().equals("paimon-bundle-" + version + ".jar")) {
            throw new IllegalStateException("The oracle's Paimon is " + bundle.getFileName() + ", but the build copied paimon-s3 " + version);
        }
        Path s3 = ChildJvm.builtJar("paimon-s3-" + version + ".jar");
        List<String> command = ChildJvm.command(ChildJvm.java17(), bundle, List.of(s3), PaimonOnS3Main.class, List.of(PaimonOnS3Main.encode(warehouse)));
        Path log = ChildJvm.newLog("paimon-on-s3");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(log.toFile())
                    .start();
            return new PaimonOnS3(warehouse, process, log);
        }
        catch (IOException e) {
            ChildJvm.deleteLog(log);
            throw new UncheckedIOException("Cannot start Paimon on S3: " + String.join(" ", command.subList(0, 1)), e);
        }
    }

    public PaimonWarehouse warehouse()
    {
        return warehouse;
    }

    /**
     * Writes {@code tables} ({@link ReferenceTables}, Parquet data files) into the warehouse.
     */
    public void createTables(List<ReferenceTable> tables)
    {
        call(new PaimonOnS3Main.CreateTables(tables.stream().map(ReferenceTable::identifier).toList()));
    }

    public CanonicalRows read(String table)
    {
        return read(ReferenceScan.of(table));
    }

    /**
     * What {@link ReferenceReader#read} gives, read through S3.
     */
    public CanonicalRows read(ReferenceScan scan)
    {
        @SuppressWarnings("unchecked")
        List<String> lines = (List<String>) call(new PaimonOnS3Main.Read(scan));
        return CanonicalRows.of(lines);
    }

    /**
     * The row type of the version {@code scan} reads, whose field positions a filter of a
     * {@link ReferenceScan} uses.
     */
    public RowType rowType(ReferenceScan scan)
    {
        return (RowType) call(new PaimonOnS3Main.RowTypeOf(scan));
    }

    public PredicateBuilder predicateBuilder(ReferenceScan scan)
    {
        return new PredicateBuilder(rowType(scan));
    }

    /**
     * The names of the data files Paimon plans for the latest snapshot of {@code table}.
     */
    @SuppressWarnings("unchecked")
    public List<String> plannedFileNames(String table)
    {
        return List.copyOf((List<String>) call(new PaimonOnS3Main.PlannedFileNames(ReferenceScan.of(table))));
    }

    /**
     * The snapshots still present on the main branch, by id.
     */
    @SuppressWarnings("unchecked")
    public List<ReferenceSnapshot> snapshots(String table)
    {
        return List.copyOf((List<ReferenceSnapshot>) call(new PaimonOnS3Main.Snapshots(table)));
    }

    /**
     * The tags of the main branch, by name.
     */
    @SuppressWarnings("unchecked")
    public List<String> tags(String table)
    {
        return List.copyOf((List<String>) call(new PaimonOnS3Main.Tags(table)));
    }

    /**
     * Appends {@code rows} to {@code table} in one commit of Paimon's batch writer; returns the id
     * of the snapshot it committed.
     */
    public long append(String table, List<GenericRow> rows)
    {
        return (Long) call(new PaimonOnS3Main.Append(table, rows));
    }

    private synchronized Serializable call(PaimonOnS3Main.Request request)
    {
        if (!process.isAlive()) {
            throw new IllegalStateException("Paimon on S3 has exited with code " + process.exitValue() + ":\n" + ChildJvm.tail(log));
        }
        String answer;
        try {
            requests.write(PaimonOnS3Main.encode(request));
            requests.newLine();
            requests.flush();
            Future<String> line = answerReader.submit(answers::readLine);
            answer = line.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (IOException | ExecutionException e) {
            throw new IllegalStateException("Paimon on S3 failed to answer " + request + ":\n" + ChildJvm.tail(log), e);
        }
        catch (TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("Paimon on S3 did not answer " + request + " within " + TIMEOUT_SECONDS + " s:\n" + ChildJvm.tail(log), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (answer == null) {
            throw new IllegalStateException("Paimon on S3 exited while answering " + request + ":\n" + ChildJvm.tail(log));
        }
        if (answer.startsWith(PaimonOnS3Main.FAILED)) {
            throw new IllegalStateException("Paimon on S3 failed " + request + ":\n" + PaimonOnS3Main.decode(answer.substring(PaimonOnS3Main.FAILED.length())));
        }
        if (!answer.startsWith(PaimonOnS3Main.OK)) {
            throw new IllegalStateException("Paimon on S3 answered outside the protocol: " + answer);
        }
        return (Serializable) PaimonOnS3Main.decode(answer.substring(PaimonOnS3Main.OK.length()));
    }

    /**
     * Ends the child JVM: its standard input closes, and it exits.
     */
    @Override
    public synchronized void close()
    {
        try {
            requests.close();
        }
        catch (IOException e) {
            // the child has gone already
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        finally {
            answerReader.shutdownNow();
            ChildJvm.deleteLog(log);
        }
    }

    @Override
    public String toString()
    {
        return "Paimon on S3 at " + warehouse;
    }
}
