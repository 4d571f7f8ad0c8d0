package io.tarn.trino;

import io.airlift.slice.Slice;
import io.tarn.storage.CommitConflictException;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.SplitCodec;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.SnapshotStatistics;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.WrittenFiles;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputMetadata;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * The statements of {@link TarnMetadata} that write rows, INSERT and CREATE TABLE AS: the
 * handles the page sinks write with, and the commit of the files they wrote.
 */
final class TarnWrites
{
    private final TarnTables tables;
    private final TarnTypes types;
    private final TarnDdl ddl;

    TarnWrites(TarnTables tables, TarnTypes types, TarnDdl ddl)
    {
        this.tables = requireNonNull(tables, "tables is null");
        this.types = requireNonNull(types, "types is null");
        this.ddl = requireNonNull(ddl, "ddl is null");
    }

    /**
     * Creates nothing yet: the files are written into the table's directory while the table does
     * not exist, and {@link #finishCreateTable} creates it with its first snapshot. A statement
     * that fails or is killed before then leaves no table, only unreferenced files.
     */
    ConnectorOutputTableHandle beginCreateTable(ConnectorTableMetadata tableMetadata, boolean replace)
    {
        if (replace) {
            throw new TrinoException(NOT_SUPPORTED, TarnDdl.REPLACE_NOT_SUPPORTED);
        }
        SchemaTableName name = tableMetadata.getTable();
        TableSchema schema = TarnTableCreation.schema(tableMetadata);
        if (!schema.primaryKeys().isEmpty()) {
            throw new TrinoException(TarnErrorCode.TARN_UNSUPPORTED_FEATURE, "Table %s has a primary key; writing primary-key tables is not supported yet, so CREATE TABLE AS cannot fill it (CREATE TABLE without AS creates it empty)".formatted(name));
        }
        try {
            ddl.newTableIdentifier(name);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create table " + name, e);
        }
        List<Type> columnTypes = schema.fields().stream().map(field -> types.toTrinoType(field.type())).toList();
        return new TarnWriteHandle(name.getSchemaName(), name.getTableName(), 0, columnTypes, Optional.of(TarnTableCreation.toJson(schema)));
    }

    /**
     * @param statistics what Trino computed while writing, committed with the table's first
     * snapshot; empty when not collected
     */
    Optional<ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, TarnWriteHandle handle, Collection<Slice> fragments, Collection<ComputedStatistics> statistics)
    {
        SchemaTableName name = handle.schemaTableName();
        TableSchema schema = TarnTableCreation.parse(name, handle.createdSchema().orElseThrow());
        List<ManifestEntry> entries = entries(fragments);
        Identifier identifier = tables.newTable(name);
        try {
            tables.catalog().createTable(identifier, schema);
        }
        catch (IOException | RuntimeException e) {
            // the table was not created by this statement: no snapshot of it can name these files
            WrittenFiles.deleteAfterFailure(tables.staged(name, schema), entries, e);
            if (e instanceof CommitConflictException) {
                throw new TrinoException(ALREADY_EXISTS, "Table %s already exists".formatted(name), e);
            }
            throw TarnExceptions.translate("Cannot create table " + name, e);
        }
        tables.invalidate(name);
        try {
            if (statistics.isEmpty() || entries.isEmpty()) {
                commit(session, handle, entries);
            }
            else {
                commitWithStatistics(session, handle, schema, entries, statistics);
            }
        }
        catch (RuntimeException e) {
            // the table came with this statement, so it goes with it: a failed CTAS leaves no table
            try {
                tables.catalog().dropTable(identifier);
            }
            catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            tables.invalidate(name);
            throw e;
        }
        return Optional.empty();
    }

    ConnectorInsertTableHandle beginInsert(TarnTableHandle handle)
    {
        PaimonTable table = tables.loadForChange(handle.schemaTableName());
        if (!table.schema().primaryKeys().isEmpty()) {
            throw new TrinoException(TarnErrorCode.TARN_UNSUPPORTED_FEATURE, "Table %s has a primary key; writing primary-key tables is not supported yet".formatted(handle.schemaTableName()));
        }
        return writeHandle(table);
    }

    private TarnWriteHandle writeHandle(PaimonTable table)
    {
        try {
            TableSchema schema = table.latestSchema();
            List<Type> columnTypes = schema.fields().stream().map(field -> types.toTrinoType(field.type())).toList();
            return new TarnWriteHandle(table.identifier().database(), table.identifier().table(), schema.id(), columnTypes, Optional.empty());
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot write table " + table.name(), e);
        }
    }

    Optional<ConnectorOutputMetadata> finishInsert(ConnectorSession session, TarnWriteHandle handle, Collection<Slice> fragments)
    {
        commit(session, handle, entries(fragments));
        return Optional.empty();
    }

    private static List<ManifestEntry> entries(Collection<Slice> fragments)
    {
        return fragments.stream().map(fragment -> SplitCodec.decodeEntry(fragment.getBytes())).toList();
    }

    private void commitWithStatistics(ConnectorSession session, TarnWriteHandle handle, TableSchema schema, List<ManifestEntry> entries, Collection<ComputedStatistics> computed)
    {
        PaimonTable table = tables.load(handle.schemaTableName());
        try {
            // the snapshot id is the one the commit lands on (TableCommit sets it)
            SnapshotStatistics statistics = TarnAnalyze.statistics(handle.schemaTableName(), schema, 0, computed);
            new TableCommit(table, "trino-" + session.getQueryId()).commitWithStatistics(entries, statistics, Long.MAX_VALUE);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot commit to table " + handle.schemaTableName(), e);
        }
    }

    private void commit(ConnectorSession session, TarnWriteHandle handle, List<ManifestEntry> entries)
    {
        if (entries.isEmpty()) {
            return;
        }
        PaimonTable table = tables.load(handle.schemaTableName());
        try {
            // Paimon's batch writers commit with this identifier
            TableCommit commit = new TableCommit(table, "trino-" + session.getQueryId());
            if (TarnSessionProperties.isInsertOverwrite(session)) {
                commit.overwritePartitionsOf(entries, Long.MAX_VALUE);
            }
            else {
                commit.commit(entries, CommitKind.APPEND, Long.MAX_VALUE);
            }
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot commit to table " + handle.schemaTableName(), e);
        }
    }
}
