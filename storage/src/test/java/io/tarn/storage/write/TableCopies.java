package io.tarn.storage.write;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the writer tests do to tables: copy one with Tarn's writer, append to one with Paimon's,
 * read one with Tarn's reader into canonical rows.
 */
final class TableCopies
{
    private TableCopies() {}

    /**
     * Creates {@code copyName} with the schema and options of {@code sourceName} (plus
     * {@code extraOptions}) and writes every row of the source's latest snapshot into it with
     * Tarn's writer, in one commit.
     */
    static PaimonTable copyWithTarn(FileSystemCatalog catalog, BufferAllocator allocator, String sourceName, String copyName, Map<String, String> extraOptions)
            throws IOException
    {
        PaimonTable source = PaimonTable.load(catalog, Identifier.parse(sourceName));
        TableSchema schema = source.schema();
        Map<String, String> options = new LinkedHashMap<>(schema.options());
        options.putAll(extraOptions);
        catalog.createTable(Identifier.parse(copyName), new TableSchema(schema.version(), 0, schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), options, schema.comment(), schema.timeMillis()));
        PaimonTable copy = PaimonTable.load(catalog, Identifier.parse(copyName));
        ScanPlan plan = new ScanPlanner(source).plan(source.snapshot(new ScanVersion.Latest()));
        try (AppendTableWriter writer = new AppendTableWriter(copy, allocator)) {
            TableRead.forEachBatch(source, plan, ReadRequest.of(plan.readSchema().fields()).withBatchSize(13), allocator, writer::write);
            new TableCommit(copy, "tarn-writer-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
        return PaimonTable.load(catalog, Identifier.parse(copyName));
    }

    /**
     * Paimon appends one row to {@code tableName}: all nulls but the NOT NULL columns, which get
     * a value of their type.
     */
    static void appendNullsWithPaimon(Path warehouse, String tableName)
            throws Exception
    {
        try (Catalog paimon = paimonCatalog(warehouse)) {
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(tableName));
            GenericRow row = new GenericRow(table.rowType().getFieldCount());
            for (int i = 0; i < table.rowType().getFieldCount(); i++) {
                if (!table.rowType().getTypeAt(i).isNullable()) {
                    row.setField(i, 1_000_000);
                }
            }
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                write.write(row);
                commit.commit(write.prepareCommit());
            }
        }
    }

    static Catalog paimonCatalog(Path warehouse)
    {
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        return CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()));
    }

    /**
     * The canonical rows of the latest snapshot of {@code table}, read by Tarn.
     */
    static String tarnRows(PaimonTable table, BufferAllocator allocator)
            throws IOException
    {
        return tarnRows(table, new ScanVersion.Latest(), allocator);
    }

    /**
     * The canonical rows of {@code table} at {@code version}, read by Tarn.
     */
    static String tarnRows(PaimonTable table, ScanVersion version, BufferAllocator allocator)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(version));
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), lines));
        return CanonicalRowSet.of(lines).text();
    }
}
