package io.tarn.testing;

import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Serializable;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The entry point of the child JVM of {@link PaimonOnS3}: Apache Paimon (the oracle's release)
 * with its {@code paimon-s3} file system, on one warehouse, answering requests until its
 * standard input ends.
 *
 * <p>Protocol: the only argument is the {@link PaimonWarehouse}; each line of standard input is
 * one {@link Request}; each answer is one line of standard output, {@code OK } and the answer, or
 * {@code FAILED } and the stack trace. Requests and answers are Java-serialized and Base64-encoded
 * (both JVMs hold the same Paimon and testing classes). Anything else the JVM prints goes to
 * standard error.
 */
public final class PaimonOnS3Main
{
    static final String OK = "OK ";
    static final String FAILED = "FAILED ";

    private PaimonOnS3Main() {}

    public static void main(String[] args)
            throws IOException
    {
        if (args.length != 1) {
            throw new IllegalArgumentException("Usage: PaimonOnS3Main SERIALIZED_WAREHOUSE");
        }
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        // a library printing to standard output must not break the protocol
        System.setOut(System.err);
        PaimonWarehouse warehouse = (PaimonWarehouse) decode(args[0]);
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = requests.readLine(); line != null; line = requests.readLine()) {
            String answer;
            try {
                answer = OK + encode(((Request) decode(line)).answer(warehouse));
            }
            catch (RuntimeException | LinkageError e) {
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                e.printStackTrace();
                answer = FAILED + encode(trace.toString());
            }
            answers.println(answer);
        }
        // Hadoop's S3A file system leaves non-daemon threads behind
        System.exit(0);
    }

    static String encode(Object value)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize " + value.getClass().getName(), e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    static Object decode(String text)
    {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
            return in.readObject();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot deserialize a message of " + text.length() + " characters", e);
        }
        catch (ClassNotFoundException e) {
            throw new IllegalStateException("The two JVMs do not hold the same classes", e);
        }
    }

    /**
     * What the parent asks; {@link #answer} runs in the child, with Paimon on the warehouse.
     */
    sealed interface Request
            extends Serializable
    {
        Serializable answer(PaimonWarehouse warehouse);
    }

    /**
     * Writes reference tables ({@link ReferenceTables}, Parquet) into the warehouse.
     */
    record CreateTables(List<String> tables)
            implements Request
    {
        CreateTables
        {
            tables = List.copyOf(requireNonNull(tables, "tables is null"));
        }

        @Override
        public Serializable answer(PaimonWarehouse warehouse)
        {
            for (String table : tables) {
                ReferenceTables.create(warehouse, ReferenceTables.byIdentifier(table), ReferenceLayout.PARQUET);
            }
            return tables.size();
        }
    }

    /**
     * The canonical lines of {@link ReferenceReader#read}.
     */
    record Read(ReferenceScan scan)
            implements Request
    {
        Read
        {
            requireNonNull(scan, "scan is null");
        }

        @Override
        public Serializable answer(PaimonWarehouse warehouse)
        {
            return new ArrayList<>(ReferenceReader.read(warehouse, scan).lines());
        }
    }

    /**
     * The row type of the version a scan reads: a {@code RowType}.
     */
    record RowTypeOf(ReferenceScan scan)
            implements Request
    {
        RowTypeOf
        {
            requireNonNull(scan, "scan is null");
        }

        @Override
        public Serializable answer(PaimonWarehouse warehouse)
        {
            return ReferenceReader.rowType(warehouse, scan);
        }
    }

    /**
     * The names of the data files Paimon plans ({@link ReferencePlan}), in its order.
     */
    record PlannedFileNames(ReferenceScan scan)
            implements Request
    {
        PlannedFileNames
        {
            requireNonNull(scan, "scan is null");
        }

        @Override
        public Serializable answer(PaimonWarehouse warehouse)
        {
            return new ArrayList<>(ReferencePlan.plan(warehouse, scan).stream().map(PlannedFile::fileName).toList());
        }
    }

    record Snapshots(String table)
            implements Request
    {
        Snapshots
        {
            requireNonNull(table, "table is null");
        }

        @Override
        public Serializable answer(PaimonWarehouse warehouse)
        {
            return new ArrayList<>(ReferenceTables.snapshots(warehouse, table));
        }
    }

    record Tags(String table)
            implements Request
    {
        Tags
        {
            requireNonNull(table, "table is null");
        }

        @Override
        public Serializable answer(PaimonWarehouse warehouse)
        {
            return new ArrayList<>(ReferenceTables.tags(warehouse, table));
        }
    }

    /**
     * Appends rows in one commit with Paimon's batch writer; answers the new snapshot's id.
     */
    record Append(String table, List<GenericRow> rows)
            implements Request
    {
        Append
        {
            requireNonNull(table, "table is null");
            rows = List.copyOf(requireNonNull(rows, "rows is null"));
        }

        @Override
        @SuppressWarnings("try") // Paimon's close() declares Exception
        public Serializable answer(PaimonWarehouse warehouse)
        {
            FileStoreTable loaded = ReferenceCatalog.load(warehouse, table);
            BatchWriteBuilder builder = loaded.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (GenericRow row : rows) {
                    write.write(row);
                }
                commit.commit(write.prepareCommit());
            }
            catch (Exception e) {
                throw new IllegalStateException("Paimon failed to append to " + table + " in " + warehouse, e);
            }
            return ReferenceCatalog.load(warehouse, table).snapshotManager().latestSnapshotId();
        }
    }
}
