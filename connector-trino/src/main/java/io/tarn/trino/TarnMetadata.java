package io.tarn.trino;

import io.airlift.slice.Slice;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.AggregateFunction;
import io.trino.spi.connector.AggregationApplicationResult;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorAnalyzeMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorOutputMetadata;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableLayout;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SchemaTablePrefix;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.statistics.TableStatisticsMetadata;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static java.util.Objects.requireNonNull;

/**
 * Read-side metadata: schemas are the databases of the warehouse, tables are its Paimon tables.
 * A table handle pins one snapshot (latest or the one a version clause names) and the schema of
 * that snapshot; everything else (columns, statistics, pushdowns) works against that schema.
 * Pushdowns, DDL and writes are delegated to {@link TarnPushdowns}, {@link TarnDdl} and
 * {@link TarnWrites}.
 */
final class TarnMetadata
        implements ConnectorMetadata
{
    private final String catalogName;
    private final TarnTables tables;
    private final TarnTypes types;
    private final TarnPushdowns pushdowns;
    private final TarnDdl ddl;
    private final TarnWrites writes;

    TarnMetadata(String catalogName, TarnTables tables, TarnTypes types)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.tables = requireNonNull(tables, "tables is null");
        this.types = requireNonNull(types, "types is null");
        this.pushdowns = new TarnPushdowns(tables);
        this.ddl = new TarnDdl(catalogName, tables);
        this.writes = new TarnWrites(tables, types, ddl);
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session)
    {
        try {
            // stored as written by any Paimon tool (UPPER.db); Trino names are lower case
            return tables.catalog().listDatabases().stream().map(name -> name.toLowerCase(Locale.ENGLISH)).distinct().toList();
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot list the databases of catalog " + catalogName, e);
        }
    }

    @Override
    public boolean schemaExists(ConnectorSession session, String schemaName)
    {
        try {
            Identifier.validateName("database", schemaName);
        }
        catch (InvalidNameException e) {
            return false;
        }
        return tables.findDatabase(schemaName).isPresent();
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schemaName)
    {
        List<String> schemas = schemaName.map(List::of).orElseGet(() -> listSchemaNames(session));
        Set<SchemaTableName> names = new LinkedHashSet<>();
        for (String schema : schemas) {
            try {
                Optional<String> database = tables.findDatabase(schema);
                if (database.isEmpty()) {
                    continue;
                }
                for (String table : tables.catalog().listTables(database.get())) {
                    // lower-cased by SchemaTableName; names that differ only in case are listed
                    // once and fail with an ambiguity error when used
                    names.add(new SchemaTableName(schema, table));
                }
            }
            catch (IOException e) {
                throw TarnExceptions.translate("Cannot list the tables of " + schema, e);
            }
        }
        return List.copyOf(names);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName, Optional<ConnectorTableVersion> startVersion, Optional<ConnectorTableVersion> endVersion)
    {
        if (startVersion.isPresent()) {
            throw new TrinoException(NOT_SUPPORTED, "Reading the changes between two versions of " + tableName + " is not supported");
        }
        if (TarnSystemTables.isSystemTableName(tableName.getTableName())) {
            return null;
        }
        Optional<PaimonTable> table = tables.find(tableName);
        if (table.isEmpty()) {
            return null;
        }
        ScanVersion version = endVersion.map(value -> TarnTableVersions.scanVersion(session, tableName, value)).orElse(ScanVersion.latest());
        Optional<Snapshot> snapshot;
        long schemaId;
        try {
            // as in Paimon: the latest version reads with the current schema (ALTER TABLE does
            // not commit a snapshot), time travel with the schema its snapshot was written with
            if (version instanceof ScanVersion.Latest) {
                PaimonTable.LatestVersion latest = table.get().latestVersion();
                snapshot = latest.snapshot();
                schemaId = latest.schema().id();
            }
            else {
                snapshot = table.get().snapshot(version);
                schemaId = snapshot.isEmpty() ? table.get().latestSchema().id() : snapshot.get().schemaId();
            }
        }
        catch (IOException | InvalidNameException e) {
            throw TarnExceptions.translate("Cannot read table " + tableName + " at " + TarnTableVersions.describe(version), e);
        }
        Optional<String> tagName = version instanceof ScanVersion.TagName tag ? Optional.of(tag.name()) : Optional.empty();
        return TarnTableHandle.of(tableName, snapshot.map(Snapshot::id), tagName, schemaId);
    }

    @Override
    public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName)
    {
        return TarnSystemTables.create(tables, types, tableName);
    }

    @Override
    public SchemaTableName getTableName(ConnectorSession session, ConnectorTableHandle table)
    {
        return ((TarnTableHandle) table).schemaTableName();
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        TableSchema schema = TarnTableSchemas.pinned(tables, handle);
        List<ColumnMetadata> columns = new ArrayList<>();
        for (DataField field : schema.fields()) {
            columns.add(columnMetadata(field));
        }
        for (DataField field : TarnHiddenColumns.fields(handle.schemaTableName().toString(), schema)) {
            columns.add(TarnHiddenColumns.metadata(field));
        }
        return new ConnectorTableMetadata(handle.schemaTableName(), columns, TarnTablePropertyValues.of(schema), schema.comment());
    }

    private ColumnMetadata columnMetadata(DataField field)
    {
        return ColumnMetadata.builder()
                .setName(field.name())
                .setType(types.toTrinoType(field.type()))
                .setNullable(field.type().nullable())
                .setComment(field.description())
                .build();
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        TableSchema schema = TarnTableSchemas.pinned(tables, handle);
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        for (DataField field : schema.fields()) {
            handles.put(field.name(), TarnColumnHandle.base(field.name(), field.id(), types.toTrinoType(field.type())));
        }
        for (DataField field : TarnHiddenColumns.fields(handle.schemaTableName().toString(), schema)) {
            handles.put(TarnHiddenColumns.columnName(field), TarnHiddenColumns.handle(field));
        }
        return handles;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle columnHandle)
    {
        TarnColumnHandle column = (TarnColumnHandle) columnHandle;
        if (column.isCount()) {
            return new ColumnMetadata(column.name(), column.type());
        }
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        TableSchema schema = TarnTableSchemas.pinned(tables, handle);
        if (!column.isBase()) {
            return new ColumnMetadata(column.name(), column.type());
        }
        Optional<DataField> hidden = TarnHiddenColumns.field(handle.schemaTableName().toString(), schema, column.fieldId());
        if (hidden.isPresent()) {
            return TarnHiddenColumns.metadata(hidden.get());
        }
        return schema.fields().stream()
                .filter(field -> field.id() == column.fieldId())
                .findFirst()
                .map(this::columnMetadata)
                .orElseThrow(() -> new IllegalArgumentException("No column with field id " + column.fieldId() + " in " + tableHandle));
    }

    @Override
    public Map<SchemaTableName, List<ColumnMetadata>> listTableColumns(ConnectorSession session, SchemaTablePrefix prefix)
    {
        List<SchemaTableName> names = prefix.getTable().isPresent()
                ? List.of(prefix.toSchemaTableName())
                : listTables(session, prefix.getSchema());
        Map<SchemaTableName, List<ColumnMetadata>> columns = new LinkedHashMap<>();
        for (SchemaTableName name : names) {
            Optional<PaimonTable> table = tables.find(name);
            if (table.isEmpty()) {
                continue;
            }
            List<ColumnMetadata> tableColumns = new ArrayList<>();
            try {
                for (DataField field : table.get().latestSchema().fields()) {
                    tableColumns.add(columnMetadata(field));
                }
            }
            catch (IOException e) {
                throw TarnExceptions.translate("Cannot read the schema of table " + name, e);
            }
            columns.put(name, tableColumns);
        }
        return columns;
    }

    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session, ConnectorTableHandle tableHandle, Constraint constraint)
    {
        return pushdowns.applyFilter((TarnTableHandle) tableHandle, constraint);
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle tableHandle, long limit)
    {
        return pushdowns.applyLimit((TarnTableHandle) tableHandle, limit);
    }

    @Override
    public Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(
            ConnectorSession session,
            ConnectorTableHandle handle,
            List<ConnectorExpression> projections,
            Map<String, ColumnHandle> assignments)
    {
        return pushdowns.applyProjection(session, handle, projections, assignments);
    }

    @Override
    public Optional<AggregationApplicationResult<ConnectorTableHandle>> applyAggregation(
            ConnectorSession session,
            ConnectorTableHandle tableHandle,
            List<AggregateFunction> aggregates,
            Map<String, ColumnHandle> assignments,
            List<List<ColumnHandle>> groupingSets)
    {
        return pushdowns.applyAggregation((TarnTableHandle) tableHandle, aggregates, groupingSets);
    }

    @Override
    public void createSchema(ConnectorSession session, String schemaName, Map<String, Object> properties, TrinoPrincipal owner)
    {
        ddl.createSchema(schemaName);
    }

    @Override
    public void dropSchema(ConnectorSession session, String schemaName, boolean cascade)
    {
        ddl.dropSchema(schemaName, cascade);
    }

    @Override
    public void createTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, SaveMode saveMode)
    {
        ddl.createTable(tableMetadata, saveMode);
    }

    @Override
    public ConnectorOutputTableHandle beginCreateTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, Optional<ConnectorTableLayout> layout, RetryMode retryMode, boolean replace)
    {
        return writes.beginCreateTable(tableMetadata, replace);
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, ConnectorOutputTableHandle tableHandle, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        return writes.finishCreateTable(session, (TarnWriteHandle) tableHandle, fragments, computedStatistics);
    }

    @Override
    public ConnectorInsertTableHandle beginInsert(ConnectorSession session, ConnectorTableHandle tableHandle, List<ColumnHandle> columns, RetryMode retryMode)
    {
        return writes.beginInsert((TarnTableHandle) tableHandle);
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishInsert(ConnectorSession session, ConnectorInsertTableHandle insertHandle, List<ConnectorTableHandle> sourceTableHandles, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        return writes.finishInsert(session, (TarnWriteHandle) insertHandle, fragments);
    }

    @Override
    public void addColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnMetadata column, ColumnPosition position)
    {
        ddl.alter((TarnTableHandle) tableHandle, TarnSchemaChanges.addColumn(column, position));
    }

    @Override
    public void renameColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle source, String target)
    {
        ddl.alter((TarnTableHandle) tableHandle, TarnSchemaChanges.renameColumn((TarnColumnHandle) source, target));
    }

    @Override
    public void dropColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column)
    {
        ddl.alter((TarnTableHandle) tableHandle, TarnSchemaChanges.dropColumn((TarnColumnHandle) column));
    }

    @Override
    public void renameTable(ConnectorSession session, ConnectorTableHandle tableHandle, SchemaTableName newTableName)
    {
        ddl.renameTable((TarnTableHandle) tableHandle, newTableName);
    }

    @Override
    public void dropTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        ddl.dropTable((TarnTableHandle) tableHandle);
    }

    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        if (handle.countOnly()) {
            return TableStatistics.empty();
        }
        return TarnStatistics.compute(tables.load(handle.schemaTableName()), TarnTableSchemas.pinned(tables, handle), handle, types);
    }

    /**
     * CREATE TABLE AS computes what ANALYZE would (Trino asks this for INSERT too, where distinct
     * counts of the new rows cannot be merged with the table's: nothing is computed then).
     */
    @Override
    public TableStatisticsMetadata getStatisticsCollectionMetadataForWrite(ConnectorSession session, ConnectorTableMetadata tableMetadata, boolean tableReplace)
    {
        if (!TarnSessionProperties.isCollectStatisticsOnWrite(session) || tables.find(tableMetadata.getTable()).isPresent()) {
            return TableStatisticsMetadata.empty();
        }
        return TarnAnalyze.collected(TarnTableCreation.schema(tableMetadata));
    }

    @Override
    public ConnectorAnalyzeMetadata getStatisticsCollectionMetadata(ConnectorSession session, ConnectorTableHandle tableHandle, Map<String, Object> analyzeProperties)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        return TarnAnalyze.metadata(handle, TarnTableSchemas.pinned(tables, handle), analyzeProperties);
    }

    @Override
    public ConnectorTableHandle beginStatisticsCollection(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        return tableHandle;
    }

    @Override
    public void finishStatisticsCollection(ConnectorSession session, ConnectorTableHandle tableHandle, Collection<ComputedStatistics> computedStatistics)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        TarnAnalyze.finish(session, tables.load(handle.schemaTableName()), handle, computedStatistics);
    }
}
