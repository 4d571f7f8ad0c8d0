package io.tarn.storage.catalog;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.TableNotEmptyException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.TablePaths;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestFile;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.manifest.ManifestListFile;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotManager;
import io.tarn.types.DataField;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Publishes the next schema of the main branch of a table with a list of {@link SchemaChange}s
 * applied, as {@link FileSystemCatalog#alterTable} describes.
 * <p>
 * The changes are a function of the latest schema. When another writer publishes the same schema
 * id first, they are applied again to the schema that won and published as the next id, so
 * concurrent changes that do not collide all land; one that no longer applies (its column now
 * exists, or is gone) fails as it would have run after the other.
 * <p>
 * A NOT NULL column needs a table without rows. The latest snapshot is checked before the schema
 * is published, and the snapshots committed since are checked after it: a concurrent INSERT that
 * committed in between added files written without the column. Then the column is dropped again
 * by a further schema and the change fails (readers of the table in that moment saw the column
 * without values in those rows). One window remains, which only the commit of the writer could
 * close: a writer that read the schema before the change and commits its snapshot after the
 * second check adds rows that read the NOT NULL column as null, as neither Tarn's
 * {@code TableCommit} nor Paimon's commit refuses files written with an older schema.
 */
final class SchemaChangeCommit
{
    // each lost race means another change landed, so this bounds only a storm of changes
    private static final int MAX_ATTEMPTS = 20;

    private final FileIO fileIO;
    private final String location;
    private final String tableName;
    private final SchemaManager schemas;
    private final SnapshotManager snapshots;

    /**
     * @param fileIO the file system confined to the table directory {@code location}
     */
    SchemaChangeCommit(FileIO fileIO, String location, String tableName)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.location = requireNonNull(location, "location is null");
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.schemas = new SchemaManager(fileIO, location, BranchManager.MAIN_BRANCH);
        this.snapshots = new SnapshotManager(fileIO, location, BranchManager.MAIN_BRANCH);
    }

    /**
     * A next schema; when it adds NOT NULL columns, those and the latest snapshot (0: none) that
     * was checked to hold no rows.
     */
    private record Proposal(TableSchema schema, List<DataField> addedNotNullColumns, long checkedSnapshot)
    {
        Proposal
        {
            requireNonNull(schema, "schema is null");
            addedNotNullColumns = List.copyOf(requireNonNull(addedNotNullColumns, "addedNotNullColumns is null"));
        }
    }

    private interface Proposer
    {
        Proposal propose(TableSchema current)
                throws IOException;
    }

    TableSchema commit(List<SchemaChange> changes)
            throws IOException
    {
        boolean needsEmptyTable = changes.stream().anyMatch(SchemaEvolution::needsEmptyTable);
        Proposal committed = commitWithRetry(current -> {
            if (!needsEmptyTable) {
                return new Proposal(SchemaEvolution.apply(tableName, current, changes, false), List.of(), 0);
            }
            Optional<Snapshot> latest = snapshots.latest();
            // a snapshot without a record count (written by an old Paimon) counts as holding rows
            boolean empty = latest.isEmpty() || latest.get().totalRecordCount().orElse(1L) == 0;
            TableSchema next = SchemaEvolution.apply(tableName, current, changes, empty);
            List<DataField> added = next.fields().stream()
                    .filter(field -> field.id() > current.highestFieldId() && !field.type().nullable())
                    .toList();
            return new Proposal(next, added, latest.map(Snapshot::id).orElse(0L));
        });
        if (!committed.addedNotNullColumns().isEmpty() && rowsWrittenBefore(committed.schema(), committed.checkedSnapshot())) {
            throw dropAgain(committed.addedNotNullColumns());
        }
        return committed.schema();
    }

    /**
     * Whether a snapshot after {@code checkedSnapshot} added rows in files written with a schema
     * older than {@code schema}, which therefore lack its new columns.
     */
    private boolean rowsWrittenBefore(TableSchema schema, long checkedSnapshot)
            throws IOException
    {
        Optional<Snapshot> latest = snapshots.latest();
        if (latest.isEmpty() || latest.get().id() <= checkedSnapshot || latest.get().totalRecordCount().orElse(1L) == 0) {
            return false;
        }
        for (long id = checkedSnapshot + 1; id <= latest.get().id(); id++) {
            Snapshot snapshot;
            try {
                snapshot = snapshots.snapshot(id);
            }
            catch (SnapshotNotFoundException e) {
                // expired already: what it added cannot be told any more
                return true;
            }
            for (ManifestEntry entry : delta(snapshot)) {
                if (entry.kind() == FileKind.ADD && entry.file().schemaId() < schema.id() && entry.file().rowCount() > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The entries of the delta manifests of {@code snapshot}: the files it added and removed.
     */
    private List<ManifestEntry> delta(Snapshot snapshot)
            throws IOException
    {
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestFileMeta manifest : ManifestListFile.read(readManifestFile(snapshot.deltaManifestList()), snapshot.deltaManifestList())) {
            entries.addAll(ManifestFile.read(readManifestFile(manifest.fileName()), manifest.fileName()));
        }
        return entries;
    }

    private byte[] readManifestFile(String fileName)
            throws IOException
    {
        // a name read from metadata is one file under manifest/, as PaimonTable reads it
        if (!TablePaths.isPlainFileName(fileName)) {
            throw new CorruptFileException("Table %s: metadata names file '%s' under %s/manifest, which is not a plain file name".formatted(tableName, fileName.replace("\0", "\\0"), location));
        }
        String path = location + "/manifest/" + fileName;
        try {
            return fileIO.newInputFile(path).readAllBytes();
        }
        catch (MissingFileException e) {
            throw new MissingFileException("Table %s: metadata file %s does not exist".formatted(tableName, path), e);
        }
    }

    /**
     * Drops {@code columns}, added as NOT NULL, again with a further schema (the other changes
     * stay: each was valid) and gives the failure to throw.
     */
    private TableNotEmptyException dropAgain(List<DataField> columns)
    {
        String names = columns.stream().map(field -> "'" + field.name() + "'").collect(Collectors.joining(", "));
        String message = "Unable to add NOT NULL column %s for non-empty table: %s (rows were committed concurrently".formatted(names, tableName);
        Set<Integer> ids = columns.stream().map(DataField::id).collect(Collectors.toSet());
        try {
            TableSchema restored = commitWithRetry(current -> new Proposal(
                    new TableSchema(current.version(), current.id() + 1, current.fields().stream().filter(field -> !ids.contains(field.id())).toList(), current.highestFieldId(),
                            current.partitionKeys(), current.primaryKeys(), current.options(), current.comment(), System.currentTimeMillis()),
                    List.of(),
                    0)).schema();
            return new TableNotEmptyException("%s; schema %s drops the column again)".formatted(message, restored.id()));
        }
        catch (IOException | RuntimeException e) {
            return new TableNotEmptyException("%s, and dropping the column again failed: drop it by hand)".formatted(message), e);
        }
    }

    private TableSchema latestSchema()
            throws IOException
    {
        return schemas.latest().orElseThrow(() -> new MissingFileException("Table %s has no schema file under %s".formatted(tableName, location)));
    }

    private Proposal commitWithRetry(Proposer proposer)
            throws IOException
    {
        for (int attempt = 1; ; attempt++) {
            Proposal proposal = proposer.propose(latestSchema());
            TableSchema next = proposal.schema();
            // as at CREATE: nothing is published that places files outside the table or that the
            // reader could not read back
            new TableOptions(tableName, next.options()).checkPaths(location);
            NestingDepth.check(tableName, next.fields());
            if (schemas.commit(next)) {
                return proposal;
            }
            if (attempt == MAX_ATTEMPTS) {
                throw new CommitConflictException("Schema %s of table %s was written concurrently %s times in a row; run the change again".formatted(next.id(), tableName, MAX_ATTEMPTS));
            }
            try {
                // apart, so that racing writers do not collide again at once
                Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CommitConflictException("Schema %s of table %s was written concurrently and the retry was interrupted".formatted(next.id(), tableName));
            }
        }
    }
}
