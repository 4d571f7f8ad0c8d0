package io.tarn.trino;

import io.tarn.storage.binary.PartitionPath;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.Tag;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.packDateTimeWithZone;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimeZoneKey.UTC_KEY;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

/**
 * The metadata tables of a table {@code t}, named {@code "t$kind"} as in Paimon:
 * {@code $snapshots}, {@code $schemas}, {@code $options}, {@code $tags}, {@code $files},
 * {@code $manifests}, {@code $partitions} and {@code $buckets}. The last four describe the latest
 * snapshot. Each is computed on the coordinator when queried.
 */
final class TarnSystemTables
{
    private TarnSystemTables() {}

    static boolean isSystemTableName(String tableName)
    {
        return tableName.contains("$") && !BranchTableName.isBranch(tableName);
    }

    static Optional<SystemTable> create(TarnTables tables, TarnTypes types, SchemaTableName name)
    {
        // the last '$' ends the table's name, which may name a branch ("t$branch_b1$snapshots")
        int dollar = name.getTableName().lastIndexOf('$');
        if (dollar < 0) {
            return Optional.empty();
        }
        SchemaTableName base = new SchemaTableName(name.getSchemaName(), name.getTableName().substring(0, dollar));
        String kind = name.getTableName().substring(dollar + 1).toLowerCase(Locale.ROOT);
        Optional<PaimonTable> table = tables.find(base);
        if (table.isEmpty()) {
            return Optional.empty();
        }
        Optional<Kind> metadataKind = switch (kind) {
            case "snapshots" -> Optional.of(Kind.SNAPSHOTS);
            case "schemas" -> Optional.of(Kind.SCHEMAS);
            case "options" -> Optional.of(Kind.OPTIONS);
            case "tags" -> Optional.of(Kind.TAGS);
            case "files" -> Optional.of(Kind.FILES);
            case "manifests" -> Optional.of(Kind.MANIFESTS);
            case "partitions" -> Optional.of(Kind.PARTITIONS);
            case "buckets" -> Optional.of(Kind.BUCKETS);
            default -> Optional.empty();
        };
        return metadataKind.map(value -> new MetadataTable(name, table.get(), value));
    }

    private enum Kind
    {
        SNAPSHOTS(List.of(
                column("snapshot_id", BIGINT), column("schema_id", BIGINT), column("commit_user", VARCHAR), column("commit_identifier", BIGINT),
                column("commit_kind", VARCHAR), column("commit_time", TIMESTAMP_TZ_MILLIS), column("base_manifest_list", VARCHAR),
                column("delta_manifest_list", VARCHAR), column("total_record_count", BIGINT), column("delta_record_count", BIGINT),
                column("watermark", BIGINT))),
        SCHEMAS(List.of(
                column("schema_id", BIGINT), column("fields", VARCHAR), column("partition_keys", VARCHAR), column("primary_keys", VARCHAR),
                column("options", VARCHAR), column("comment", VARCHAR), column("update_time", TIMESTAMP_TZ_MILLIS))),
        OPTIONS(List.of(column("key", VARCHAR), column("value", VARCHAR))),
        TAGS(List.of(
                column("tag_name", VARCHAR), column("snapshot_id", BIGINT), column("schema_id", BIGINT), column("commit_time", TIMESTAMP_TZ_MILLIS),
                column("record_count", BIGINT))),
        FILES(List.of(
                column("partition", VARCHAR), column("bucket", INTEGER), column("file_path", VARCHAR), column("file_format", VARCHAR),
                column("schema_id", BIGINT), column("level", INTEGER), column("record_count", BIGINT), column("file_size_in_bytes", BIGINT),
                column("min_sequence_number", BIGINT), column("max_sequence_number", BIGINT), column("deleted_row_count", BIGINT))),
        MANIFESTS(List.of(
                column("file_name", VARCHAR), column("file_size", BIGINT), column("num_added_files", BIGINT), column("num_deleted_files", BIGINT),
                column("schema_id", BIGINT))),
        PARTITIONS(List.of(
                column("partition", VARCHAR), column("record_count", BIGINT), column("file_size_in_bytes", BIGINT), column("file_count", BIGINT))),
        BUCKETS(List.of(
                column("partition", VARCHAR), column("bucket", INTEGER), column("record_count", BIGINT), column("file_size_in_bytes", BIGINT),
                column("file_count", BIGINT)));

        private final List<ColumnMetadata> columns;

        Kind(List<ColumnMetadata> columns)
        {
            this.columns = columns;
        }
    }

    private static ColumnMetadata column(String name, Type type)
    {
        return new ColumnMetadata(name, type);
    }

    private record MetadataTable(SchemaTableName name, PaimonTable table, Kind kind)
            implements SystemTable
    {
        MetadataTable
        {
            requireNonNull(name, "name is null");
            requireNonNull(table, "table is null");
            requireNonNull(kind, "kind is null");
        }

        @Override
        public Distribution getDistribution()
        {
            return Distribution.SINGLE_COORDINATOR;
        }

        @Override
        public ConnectorTableMetadata getTableMetadata()
        {
            return new ConnectorTableMetadata(name, kind.columns);
        }

        @Override
        public RecordCursor cursor(ConnectorTransactionHandle transaction, ConnectorSession session, TupleDomain<Integer> constraint)
        {
            InMemoryRecordSet.Builder rows = InMemoryRecordSet.builder(kind.columns);
            try {
                switch (kind) {
                    case SNAPSHOTS -> snapshots(rows);
                    case SCHEMAS -> schemas(rows);
                    case OPTIONS -> table.latestSchema().options().forEach((key, value) -> rows.addRow(key, value));
                    case TAGS -> tags(rows);
                    case FILES -> files(rows);
                    case MANIFESTS -> manifests(rows);
                    case PARTITIONS -> partitions(rows, false);
                    case BUCKETS -> partitions(rows, true);
                }
            }
            catch (IOException | RuntimeException e) {
                throw TarnExceptions.translate("Cannot read metadata table " + name, e);
            }
            return rows.build().cursor();
        }

        private void snapshots(InMemoryRecordSet.Builder rows)
                throws IOException
        {
            for (long id : table.snapshotManager().listIds()) {
                Snapshot snapshot = table.snapshotManager().snapshot(id);
                rows.addRow(snapshot.id(), snapshot.schemaId(), snapshot.commitUser(), snapshot.commitIdentifier(), snapshot.commitKind().name(),
                        packDateTimeWithZone(snapshot.timeMillis(), UTC_KEY), snapshot.baseManifestList(), snapshot.deltaManifestList(),
                        snapshot.totalRecordCount().orElse(null), snapshot.deltaRecordCount().orElse(null), snapshot.watermark().orElse(null));
            }
        }

        private void schemas(InMemoryRecordSet.Builder rows)
                throws IOException
        {
            for (long id = 0; id <= table.latestSchema().id(); id++) {
                TableSchema schema;
                try {
                    schema = table.schema(id);
                }
                catch (IOException e) {
                    // an older schema file may have been removed; the table reads with the ones left
                    continue;
                }
                String fields = schema.fields().stream()
                        .map(field -> field.id() + " " + field.name() + " " + field.type().asSqlString())
                        .collect(Collectors.joining(", "));
                rows.addRow(schema.id(), fields, String.join(",", schema.partitionKeys()), String.join(",", schema.primaryKeys()),
                        schema.options().toString(), schema.comment().orElse(null), packDateTimeWithZone(schema.timeMillis(), UTC_KEY));
            }
        }

        private void tags(InMemoryRecordSet.Builder rows)
                throws IOException
        {
            for (String tagName : table.tagManager().tagNames()) {
                Optional<Tag> tag = table.tagManager().tag(tagName);
                if (tag.isEmpty()) {
                    continue;
                }
                Snapshot snapshot = tag.get().snapshot();
                rows.addRow(tagName, snapshot.id(), snapshot.schemaId(), packDateTimeWithZone(snapshot.timeMillis(), UTC_KEY), snapshot.totalRecordCount().orElse(null));
            }
        }

        private ScanPlan latestPlan()
                throws IOException
        {
            return new ScanPlanner(table).plan(table.snapshotManager().latest());
        }

        private String partitionName(ScanPlan plan, PlannedFile file)
        {
            if (plan.readSchema().partitionKeys().isEmpty()) {
                return "";
            }
            TableOptions options = new TableOptions(table.name(), plan.readSchema().options());
            return PartitionPath.of(file.partition(), plan.readSchema().partitionType(), options.partitionDefaultName(), options.partitionLegacyName());
        }

        private void files(InMemoryRecordSet.Builder rows)
                throws IOException
        {
            ScanPlan plan = latestPlan();
            for (PlannedFile file : plan.files()) {
                String fileName = file.file().fileName();
                int dot = fileName.lastIndexOf('.');
                String path = table.dataFilePath(file.partition(), file.bucket(), file.file(), fileName);
                rows.addRow(partitionName(plan, file), file.bucket(), path, dot < 0 ? null : fileName.substring(dot + 1), file.file().schemaId(), file.file().level(),
                        file.file().rowCount(), file.file().fileSize(), file.file().minSequenceNumber(), file.file().maxSequenceNumber(),
                        file.deletionFile().isPresent() && file.deletionFile().get().cardinality().isPresent() ? file.deletionFile().get().cardinality().getAsLong() : null);
            }
        }

        private void manifests(InMemoryRecordSet.Builder rows)
                throws IOException
        {
            Optional<Snapshot> snapshot = table.snapshotManager().latest();
            if (snapshot.isEmpty()) {
                return;
            }
            List<ManifestFileMeta> manifests = new ArrayList<>(table.readManifestList(snapshot.get().baseManifestList()));
            manifests.addAll(table.readManifestList(snapshot.get().deltaManifestList()));
            for (ManifestFileMeta manifest : manifests) {
                rows.addRow(manifest.fileName(), manifest.fileSize(), manifest.numAddedFiles(), manifest.numDeletedFiles(), manifest.schemaId());
            }
        }

        private void partitions(InMemoryRecordSet.Builder rows, boolean byBucket)
                throws IOException
        {
            ScanPlan plan = latestPlan();
            Map<String, long[]> totals = new TreeMap<>();
            for (PlannedFile file : plan.files()) {
                String key = partitionName(plan, file) + (byBucket ? "\u0000" + file.bucket() : "");
                long[] total = totals.computeIfAbsent(key, _ -> new long[3]);
                total[0] += file.liveRowCount().orElse(file.file().rowCount());
                total[1] += file.file().fileSize();
                total[2]++;
            }
            totals.forEach((key, total) -> {
                if (byBucket) {
                    int separator = key.lastIndexOf('\u0000');
                    rows.addRow(key.substring(0, separator), Integer.parseInt(key.substring(separator + 1)), total[0], total[1], total[2]);
                }
                else {
                    rows.addRow(key, total[0], total[1], total[2]);
                }
            });
        }
    }
}
