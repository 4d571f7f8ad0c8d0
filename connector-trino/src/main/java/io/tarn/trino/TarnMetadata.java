package io.tarn.trino;

import io.airlift.slice.Slice;
import io.tarn.storage.CommitConflictException;
import io.tarn.storage.DatabaseNotEmptyException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.SchemaChange;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.scan.SplitCodec;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.WrittenFiles;
import io.tarn.types.DataField;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.AggregateFunction;
import io.trino.spi.connector.AggregationApplicationResult;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ColumnPosition;
import io.trino.spi.connector.ConnectorInsertTableHandle;
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
import io.trino.spi.connector.PointerType;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.connector.RetryMode;
import io.trino.spi.connector.SaveMode;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SchemaTablePrefix;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Constant;
import io.trino.spi.expression.FieldDereference;
import io.trino.spi.expression.Variable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.security.TrinoPrincipal;
import io.trino.spi.statistics.ComputedStatistics;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RowType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static io.trino.spi.StandardErrorCode.ALREADY_EXISTS;
import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_EMPTY;
import static io.trino.spi.StandardErrorCode.SCHEMA_NOT_FOUND;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;
import static java.util.Objects.requireNonNull;

/**
 * Read-side metadata: schemas are the databases of the warehouse, tables are its Paimon tables.
 * A table handle pins one snapshot (latest or the one a version clause names) and the schema of
 * that snapshot; everything else (columns, statistics, pushdowns) works against that schema.
 */
final class TarnMetadata
        implements ConnectorMetadata
{
    // Trino's wording (that of ConnectorMetadata's default): Paimon has no atomic replace
    private static final String REPLACE_NOT_SUPPORTED = "This connector does not support replacing tables";

    private final String catalogName;
    private final TarnTables tables;
    private final TarnTypes types;

    TarnMetadata(String catalogName, TarnTables tables, TarnTypes types)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
        this.tables = requireNonNull(tables, "tables is null");
        this.types = requireNonNull(types, "types is null");
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
        ScanVersion version = endVersion.map(value -> scanVersion(session, tableName, value)).orElse(ScanVersion.latest());
        Optional<Snapshot> snapshot;
        try {
            snapshot = table.get().snapshot(version);
        }
        catch (IOException | InvalidNameException e) {
            throw TarnExceptions.translate("Cannot read table " + tableName + " at " + describe(version), e);
        }
        Optional<String> tagName = version instanceof ScanVersion.TagName tag ? Optional.of(tag.name()) : Optional.empty();
        // as in Paimon: the latest version reads with the current schema (ALTER TABLE does not
        // commit a snapshot), time travel with the schema its snapshot was written with
        long schemaId;
        try {
            schemaId = version instanceof ScanVersion.Latest || snapshot.isEmpty() ? table.get().latestSchema().id() : snapshot.get().schemaId();
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot read the schema of table " + tableName, e);
        }
        return TarnTableHandle.of(tableName, snapshot.map(Snapshot::id), tagName, schemaId);
    }

    private static ScanVersion scanVersion(ConnectorSession session, SchemaTableName tableName, ConnectorTableVersion version)
    {
        Type type = version.getVersionType();
        Object value = version.getVersion();
        if (version.getPointerType() == PointerType.TARGET_ID) {
            if (type instanceof VarcharType) {
                return new ScanVersion.TagName(((Slice) value).toStringUtf8());
            }
            if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
                return new ScanVersion.SnapshotId((Long) value);
            }
            throw new TrinoException(NOT_SUPPORTED, "FOR VERSION AS OF on %s takes a snapshot id or a tag name, not a %s".formatted(tableName, type));
        }
        long epochMillis;
        if (type instanceof TimestampWithTimeZoneType zoned) {
            epochMillis = zoned.isShort() ? unpackMillisUtc((Long) value) : ((LongTimestampWithTimeZone) value).getEpochMillis();
        }
        else if (type instanceof TimestampType timestamp) {
            long epochMicros = timestamp.isShort() ? (Long) value : ((LongTimestamp) value).getEpochMicros();
            LocalDateTime local = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000), (int) Math.floorMod(epochMicros, 1_000_000) * 1000, ZoneOffset.UTC);
            epochMillis = local.atZone(session.getTimeZoneKey().getZoneId()).toInstant().toEpochMilli();
        }
        else {
            throw new TrinoException(NOT_SUPPORTED, "FOR TIMESTAMP AS OF on %s takes a timestamp, not a %s".formatted(tableName, type));
        }
        return new ScanVersion.TimestampMillis(epochMillis);
    }

    private static String describe(ScanVersion version)
    {
        return switch (version) {
            case ScanVersion.Latest _ -> "its latest snapshot";
            case ScanVersion.SnapshotId id -> "snapshot " + id.id();
            case ScanVersion.TagName tag -> "tag '" + tag.name() + "'";
            case ScanVersion.TimestampMillis millis -> "timestamp " + Instant.ofEpochMilli(millis.millis());
            case ScanVersion.Version named -> "version '" + named.version() + "'";
        };
    }

    @Override
    public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName)
    {
        return TarnSystemTables.create(tables, types, tableName);
    }

    TableSchema schema(TarnTableHandle handle)
    {
        PaimonTable table = tables.load(handle.schemaTableName());
        try {
            return table.schema(handle.schemaId());
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot read schema " + handle.schemaId() + " of table " + handle.schemaTableName(), e);
        }
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
        TableSchema schema = schema(handle);
        List<ColumnMetadata> columns = new ArrayList<>();
        for (DataField field : schema.fields()) {
            columns.add(columnMetadata(field));
        }
        return new ConnectorTableMetadata(handle.schemaTableName(), columns, properties(schema), schema.comment());
    }

    private Map<String, Object> properties(TableSchema schema)
    {
        Map<String, Object> properties = new LinkedHashMap<>();
        Map<String, String> options = new LinkedHashMap<>(schema.options());
        if (!schema.partitionKeys().isEmpty()) {
            properties.put(TarnTableProperties.PARTITIONED_BY, schema.partitionKeys());
        }
        if (!schema.primaryKeys().isEmpty()) {
            properties.put(TarnTableProperties.PRIMARY_KEY, schema.primaryKeys());
        }
        // only when set: a table without it has Paimon's default, which SHOW CREATE TABLE's text
        // then leaves to Paimon again
        if (options.remove(TableSchema.BUCKET_OPTION) != null) {
            properties.put(TarnTableProperties.BUCKET, schema.numBuckets());
        }
        String bucketKey = options.remove(TableSchema.BUCKET_KEY_OPTION);
        if (bucketKey != null) {
            properties.put(TarnTableProperties.BUCKET_KEY, columnList(bucketKey));
        }
        String bloom = options.remove(TarnTableProperties.BLOOM_FILTER_OPTION);
        if (bloom != null) {
            properties.put(TarnTableProperties.BLOOM_FILTER_COLUMNS, columnList(bloom));
        }
        String bitmap = options.remove(TarnTableProperties.BITMAP_OPTION);
        if (bitmap != null) {
            properties.put(TarnTableProperties.BITMAP_COLUMNS, columnList(bitmap));
        }
        // The remaining options stay out: Trino (476, 483) prints no map-valued table property in SHOW
        // CREATE TABLE (only strings, numbers, booleans and arrays), so "t$options" lists them.
        return properties;
    }

    private static List<String> columnList(String value)
    {
        return Arrays.stream(value.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
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
        TableSchema schema = schema((TarnTableHandle) tableHandle);
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        for (DataField field : schema.fields()) {
            handles.put(field.name(), TarnColumnHandle.base(field.name(), field.id(), types.toTrinoType(field.type())));
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
        TableSchema schema = schema((TarnTableHandle) tableHandle);
        if (!column.isBase()) {
            return new ColumnMetadata(column.name(), column.type());
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
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        if (handle.countOnly()) {
            return Optional.empty();
        }
        TableSchema schema = schema(handle);
        TupleDomain<TarnColumnHandle> summary = constraint.getSummary().transformKeys(TarnColumnHandle.class::cast);
        if (summary.isNone()) {
            TarnTableHandle none = handle.withFilter(TupleDomain.none(), TupleDomain.none());
            return none.equals(handle) ? Optional.empty() : Optional.of(new ConstraintApplicationResult<>(none, TupleDomain.all(), constraint.getExpression(), false));
        }
        Map<TarnColumnHandle, Domain> enforced = new HashMap<>();
        Map<TarnColumnHandle, Domain> pushed = new HashMap<>();
        Map<ColumnHandle, Domain> remaining = new HashMap<>();
        for (Map.Entry<TarnColumnHandle, Domain> entry : summary.getDomains().orElseThrow().entrySet()) {
            TarnColumnHandle column = entry.getKey();
            Optional<DataField> field = schema.fields().stream().filter(candidate -> candidate.id() == column.fieldId()).findFirst();
            boolean pushable = field.isPresent() && TarnPredicates.isPushable(column, field.get().type());
            if (pushable && schema.partitionKeys().contains(field.get().name())) {
                enforced.put(column, entry.getValue());
            }
            else {
                if (pushable) {
                    pushed.put(column, entry.getValue());
                }
                remaining.put(column, entry.getValue());
            }
        }
        TupleDomain<TarnColumnHandle> newEnforced = handle.enforcedPredicate().intersect(TupleDomain.withColumnDomains(enforced));
        TupleDomain<TarnColumnHandle> newFilter = handle.filter().intersect(TupleDomain.withColumnDomains(enforced)).intersect(TupleDomain.withColumnDomains(pushed));
        if (newEnforced.equals(handle.enforcedPredicate()) && newFilter.equals(handle.filter())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withFilter(newEnforced, newFilter), TupleDomain.withColumnDomains(remaining), constraint.getExpression(), false));
    }

    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle tableHandle, long limit)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        if (handle.countOnly() || (handle.limit().isPresent() && handle.limit().getAsLong() <= limit)) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }

    @Override
    public Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(
            ConnectorSession session,
            ConnectorTableHandle handle,
            List<ConnectorExpression> projections,
            Map<String, ColumnHandle> assignments)
    {
        if (!TarnSessionProperties.isProjectionPushdownEnabled(session)) {
            return Optional.empty();
        }
        Map<String, Assignment> newAssignments = new LinkedHashMap<>();
        List<ConnectorExpression> newProjections = new ArrayList<>();
        boolean[] changed = {false};
        for (ConnectorExpression projection : projections) {
            Optional<ConnectorExpression> rewritten = pushDereferences(projection, assignments, newAssignments, changed);
            if (rewritten.isEmpty()) {
                return Optional.empty();
            }
            newProjections.add(rewritten.get());
        }
        if (!changed[0]) {
            return Optional.empty();
        }
        return Optional.of(new ProjectionApplicationResult<>(handle, newProjections, List.copyOf(newAssignments.values()), false));
    }

    /**
     * Replaces every chain of ROW field dereferences over a column by a variable for a column
     * handle of that field; empty when the expression holds something this cannot rebuild.
     */
    private static Optional<ConnectorExpression> pushDereferences(ConnectorExpression expression, Map<String, ColumnHandle> assignments, Map<String, Assignment> newAssignments, boolean[] changed)
    {
        if (expression instanceof Variable variable) {
            TarnColumnHandle column = (TarnColumnHandle) assignments.get(variable.getName());
            newAssignments.putIfAbsent(variable.getName(), new Assignment(variable.getName(), column, column.type()));
            return Optional.of(variable);
        }
        if (expression instanceof Constant) {
            return Optional.of(expression);
        }
        if (expression instanceof FieldDereference dereference) {
            List<Integer> path = new ArrayList<>();
            ConnectorExpression target = dereference;
            while (target instanceof FieldDereference step) {
                path.addFirst(step.getField());
                target = step.getTarget();
            }
            if (target instanceof Variable variable) {
                TarnColumnHandle base = (TarnColumnHandle) assignments.get(variable.getName());
                List<Integer> fullPath = new ArrayList<>(base.path());
                fullPath.addAll(path);
                Type type = base.type();
                StringBuilder name = new StringBuilder(base.name());
                for (int index : path) {
                    RowType.Field field = ((RowType) type).getFields().get(index);
                    name.append('.').append(field.getName().orElse("_" + index));
                    type = field.getType();
                }
                TarnColumnHandle column = new TarnColumnHandle(name.toString(), base.fieldId(), base.baseName(), fullPath, type);
                String variableName = name.toString();
                newAssignments.putIfAbsent(variableName, new Assignment(variableName, column, type));
                changed[0] = true;
                return Optional.of(new Variable(variableName, type));
            }
            return pushDereferences(target, assignments, newAssignments, changed)
                    .map(rewritten -> rebuildDereference(dereference, rewritten));
        }
        if (expression instanceof Call call) {
            List<ConnectorExpression> arguments = new ArrayList<>();
            for (ConnectorExpression argument : call.getArguments()) {
                Optional<ConnectorExpression> rewritten = pushDereferences(argument, assignments, newAssignments, changed);
                if (rewritten.isEmpty()) {
                    return Optional.empty();
                }
                arguments.add(rewritten.get());
            }
            return Optional.of(new Call(call.getType(), call.getFunctionName(), arguments));
        }
        return Optional.empty();
    }

    private static ConnectorExpression rebuildDereference(FieldDereference original, ConnectorExpression target)
    {
        ConnectorExpression result = target;
        List<FieldDereference> steps = new ArrayList<>();
        ConnectorExpression current = original;
        while (current instanceof FieldDereference step) {
            steps.addFirst(step);
            current = step.getTarget();
        }
        for (FieldDereference step : steps) {
            result = new FieldDereference(step.getType(), result, step.getField());
        }
        return result;
    }

    @Override
    public Optional<AggregationApplicationResult<ConnectorTableHandle>> applyAggregation(
            ConnectorSession session,
            ConnectorTableHandle tableHandle,
            List<AggregateFunction> aggregates,
            Map<String, ColumnHandle> assignments,
            List<List<ColumnHandle>> groupingSets)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        if (handle.countOnly() || handle.limit().isPresent() || aggregates.size() != 1 || !groupingSets.equals(List.of(List.of()))) {
            return Optional.empty();
        }
        AggregateFunction aggregate = aggregates.get(0);
        if (!aggregate.getFunctionName().equals("count") || !aggregate.getArguments().isEmpty() || aggregate.isDistinct() || aggregate.getFilter().isPresent()) {
            return Optional.empty();
        }
        // exact only when every pushed-down domain is enforced by partition pruning
        if (!handle.filter().equals(handle.enforcedPredicate())) {
            return Optional.empty();
        }
        OptionalLong rowCount = TarnRowCounts.count(tables.load(handle.schemaTableName()), schema(handle), handle);
        if (rowCount.isEmpty()) {
            return Optional.empty();
        }
        TarnColumnHandle count = new TarnColumnHandle("_tarn_count", TarnColumnHandle.COUNT_FIELD_ID, "_tarn_count", List.of(), BIGINT);
        return Optional.of(new AggregationApplicationResult<>(
                handle.withCount(rowCount.getAsLong()),
                List.of(new Variable(count.name(), BIGINT)),
                List.of(new Assignment(count.name(), count, BIGINT)),
                Map.of(),
                false));
    }

    @Override
    public void createSchema(ConnectorSession session, String schemaName, Map<String, Object> properties, TrinoPrincipal owner)
    {
        try {
            Optional<String> existing = tables.findDatabase(schemaName);
            if (existing.isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Schema %s already exists in catalog %s (stored as '%s')".formatted(schemaName, catalogName, existing.get()));
            }
            tables.catalog().createDatabase(schemaName);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create schema " + schemaName, e);
        }
    }

    @Override
    public void dropSchema(ConnectorSession session, String schemaName, boolean cascade)
    {
        String database = tables.findDatabase(schemaName)
                .orElseThrow(() -> new TrinoException(SCHEMA_NOT_FOUND, "Schema %s not found".formatted(schemaName)));
        try {
            tables.catalog().dropDatabase(database, cascade);
        }
        catch (DatabaseNotEmptyException e) {
            // Trino's wording for a schema that still holds tables
            throw new TrinoException(SCHEMA_NOT_EMPTY, "Cannot drop non-empty schema '%s'".formatted(schemaName), e);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot drop schema " + schemaName, e);
        }
        finally {
            // the dropped tables' cached schemas must not answer for tables created again
            tables.invalidateSchema(schemaName);
        }
    }

    @Override
    public void createTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, SaveMode saveMode)
    {
        if (saveMode == SaveMode.REPLACE) {
            throw new TrinoException(NOT_SUPPORTED, REPLACE_NOT_SUPPORTED);
        }
        SchemaTableName name = tableMetadata.getTable();
        if (saveMode == SaveMode.IGNORE && tables.find(name).isPresent()) {
            return;
        }
        try {
            Identifier identifier = newTableIdentifier(name);
            tables.catalog().createTable(identifier, TarnTableCreation.schema(tableMetadata));
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create table " + name, e);
        }
        tables.invalidate(name);
    }

    /**
     * Where a new table goes: into the stored database ({@code UPPER.db} for schema
     * {@code upper}) under the lower-case name Trino gives it; fails if a table of that name in
     * any case exists.
     */
    private Identifier newTableIdentifier(SchemaTableName name)
            throws IOException
    {
        Identifier identifier = tables.newTable(name);
        // before anything is written: a CREATE TABLE AS writes its files under the name
        FileSystemCatalog.validateNewTableName(identifier.table());
        Optional<Identifier> existing = tables.catalog().findTable(identifier);
        if (existing.isPresent()) {
            throw new TrinoException(ALREADY_EXISTS, "Table %s already exists in catalog %s (stored as %s)".formatted(name, catalogName, existing.get()));
        }
        return identifier;
    }

    /**
     * Creates nothing yet: the files are written into the table's directory while the table does
     * not exist, and {@link #finishCreateTable} creates it with its first snapshot. A statement
     * that fails or is killed before then leaves no table, only unreferenced files.
     */
    @Override
    public ConnectorOutputTableHandle beginCreateTable(ConnectorSession session, ConnectorTableMetadata tableMetadata, Optional<ConnectorTableLayout> layout, RetryMode retryMode, boolean replace)
    {
        if (replace) {
            throw new TrinoException(NOT_SUPPORTED, REPLACE_NOT_SUPPORTED);
        }
        SchemaTableName name = tableMetadata.getTable();
        TableSchema schema = TarnTableCreation.schema(tableMetadata);
        if (!schema.primaryKeys().isEmpty()) {
            throw new TrinoException(TarnErrorCode.TARN_UNSUPPORTED_FEATURE, "Table %s has a primary key; writing primary-key tables is not supported yet, so CREATE TABLE AS cannot fill it (CREATE TABLE without AS creates it empty)".formatted(name));
        }
        try {
            newTableIdentifier(name);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot create table " + name, e);
        }
        List<Type> columnTypes = schema.fields().stream().map(field -> types.toTrinoType(field.type())).toList();
        return new TarnWriteHandle(name.getSchemaName(), name.getTableName(), 0, columnTypes, Optional.of(TarnTableCreation.toJson(schema)));
    }

    @Override
    public Optional<ConnectorOutputMetadata> finishCreateTable(ConnectorSession session, ConnectorOutputTableHandle tableHandle, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        TarnWriteHandle handle = (TarnWriteHandle) tableHandle;
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
            commit(session, handle, entries);
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

    @Override
    public ConnectorInsertTableHandle beginInsert(ConnectorSession session, ConnectorTableHandle tableHandle, List<ColumnHandle> columns, RetryMode retryMode)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
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

    @Override
    public Optional<ConnectorOutputMetadata> finishInsert(ConnectorSession session, ConnectorInsertTableHandle insertHandle, List<ConnectorTableHandle> sourceTableHandles, Collection<Slice> fragments, Collection<ComputedStatistics> computedStatistics)
    {
        commit(session, (TarnWriteHandle) insertHandle, entries(fragments));
        return Optional.empty();
    }

    private static List<ManifestEntry> entries(Collection<Slice> fragments)
    {
        return fragments.stream().map(fragment -> SplitCodec.decodeEntry(fragment.getBytes())).toList();
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

    @Override
    public void addColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnMetadata column, ColumnPosition position)
    {
        alter((TarnTableHandle) tableHandle, TarnSchemaChanges.addColumn(column, position));
    }

    @Override
    public void renameColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle source, String target)
    {
        alter((TarnTableHandle) tableHandle, TarnSchemaChanges.renameColumn((TarnColumnHandle) source, target));
    }

    @Override
    public void dropColumn(ConnectorSession session, ConnectorTableHandle tableHandle, ColumnHandle column)
    {
        alter((TarnTableHandle) tableHandle, TarnSchemaChanges.dropColumn((TarnColumnHandle) column));
    }

    private void alter(TarnTableHandle handle, SchemaChange change)
    {
        // the main branch only, as for every statement that changes a table
        PaimonTable table = tables.loadForChange(handle.schemaTableName());
        try {
            TarnSchemaChanges.apply(tables.catalog(), table.identifier(), change);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot alter table " + handle.schemaTableName(), e);
        }
        tables.invalidate(handle.schemaTableName());
    }

    @Override
    public void renameTable(ConnectorSession session, ConnectorTableHandle tableHandle, SchemaTableName newTableName)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        try {
            Identifier source = tables.resolve(handle.schemaTableName());
            String database = tables.findDatabase(newTableName.getSchemaName())
                    .orElseThrow(() -> new TrinoException(SCHEMA_NOT_FOUND, "Schema %s does not exist in catalog %s".formatted(newTableName.getSchemaName(), catalogName)));
            Identifier target = new Identifier(database, newTableName.getTableName());
            Optional<Identifier> existing = tables.catalog().findTable(target);
            if (existing.isPresent()) {
                throw new TrinoException(ALREADY_EXISTS, "Table %s already exists in catalog %s (stored as %s)".formatted(newTableName, catalogName, existing.get()));
            }
            tables.catalog().renameTable(source, target);
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot rename table %s to %s".formatted(handle.schemaTableName(), newTableName), e);
        }
        tables.invalidate(handle.schemaTableName());
        tables.invalidate(newTableName);
    }

    @Override
    public void dropTable(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        try {
            tables.catalog().dropTable(tables.resolve(handle.schemaTableName()));
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot drop table " + handle.schemaTableName(), e);
        }
        tables.invalidate(handle.schemaTableName());
    }

    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle tableHandle)
    {
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        if (handle.countOnly()) {
            return TableStatistics.empty();
        }
        return TarnStatistics.compute(tables.load(handle.schemaTableName()), schema(handle), handle, types);
    }
}
