package io.tarn.testing;

import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.SpecialFields;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.DataTypes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tables that track rows ({@code row-tracking.enabled}), written by Apache Paimon: columns
 * {@code id INT} and {@code name STRING}, one commit after the other, so that each commit's
 * file starts at a new first row id. Read them back with
 * {@link ReferenceReader#readWithRowTracking}.
 */
public final class RowTrackingTables
{
    private RowTrackingTables() {}

    /**
     * Creates {@code identifier} ("database.table", the database created when missing) and
     * writes {@code commits} commits of {@code rowsPerCommit} rows: ids {@code commit * 100 + i},
     * and every fourth name null.
     */
    @SuppressWarnings("try") // Paimon's close() declares Exception
    public static void write(Path warehouse, String identifier, int commits, int rowsPerCommit)
    {
        Identifier name = ReferenceCatalog.identifier(identifier);
        try (Catalog catalog = ReferenceCatalog.open(warehouse)) {
            catalog.createDatabase(name.getDatabaseName(), true);
            catalog.createTable(name, Schema.newBuilder()
                    .column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING())
                    .option("row-tracking.enabled", "true")
                    .build(), false);
            Table table = catalog.getTable(name);
            for (int commit = 0; commit < commits; commit++) {
                BatchWriteBuilder builder = table.newBatchWriteBuilder();
                try (BatchTableWrite write = builder.newWrite(); BatchTableCommit committer = builder.newCommit()) {
                    for (int i = 0; i < rowsPerCommit; i++) {
                        write.write(GenericRow.of(commit * 100 + i, i % 4 == 3 ? null : BinaryString.fromString("row " + commit + "-" + i)));
                    }
                    committer.commit(write.prepareCommit());
                }
            }
        }
        catch (Exception e) {
            throw new UncheckedIOException(new IOException("Paimon failed to write " + identifier + " in " + warehouse, e));
        }
    }

    /**
     * Compacts an append table that tracks rows as Paimon's Flink and Spark compactions do: the
     * rewritten files store {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}. Fails when Paimon finds
     * nothing to compact (fewer files than the table's {@code compaction.min.file-num}).
     */
    public static void compact(FileStoreTable table)
            throws Exception
    {
        List<CommitMessage> compacted = new ArrayList<>();
        BaseAppendFileStoreWrite write = (BaseAppendFileStoreWrite) table.store().newWrite("compactor");
        try {
            write.withWriteType(SpecialFields.rowTypeWithRowTracking(table.rowType()));
            for (AppendCompactTask task : new AppendCompactCoordinator(table, false).run()) {
                compacted.add(task.doCompact(table, write));
            }
        }
        finally {
            write.close();
        }
        if (compacted.isEmpty()) {
            throw new IllegalStateException("Paimon found nothing to compact in " + table.name());
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(compacted);
        }
    }
}
