package io.tarn.storage.table;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.PartitionPath;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.ContainedFileIO;
import io.tarn.storage.fs.DaemonThreads;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.SideRequest;
import io.tarn.storage.fs.TablePaths;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.manifest.IndexManifestEntry;
import io.tarn.storage.manifest.ManifestCache;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestEntryFilter;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.schema.TableOptions;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.SnapshotManager;
import io.tarn.storage.snapshot.SnapshotStatistics;
import io.tarn.storage.snapshot.TagManager;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * One branch of a Paimon table in a warehouse: where its files are, its schemas, snapshots and
 * tags, and the readers of its metadata files. Schemas are immutable once written, so they are
 * cached; snapshots are read when asked for, but for the one a query pinned
 * ({@link #pinnedSnapshot}).
 */
public final class PaimonTable
{
    public static final String MAIN_BRANCH = "main";
    private static final int POSTPONE_BUCKET = -2;
    // metadata requests that a table's reads make side by side (see latestVersion)
    private static final ExecutorService METADATA_REQUESTS = Executors.newCachedThreadPool(new DaemonThreads("tarn-metadata-"));

    private final Identifier identifier;
    private final FileIO fileIO;
    private final String location;
    private final String branch;
    private final SchemaManager schemaManager;
    private final SnapshotManager snapshotManager;
    private final TagManager tagManager;
    private final ListedVersion listedVersion;
    private final TableSchema latestSchema;
    private final Map<Long, TableSchema> schemas = new ConcurrentHashMap<>();
    // the highest id of the schemas read, all of them in schemas
    private final AtomicLong newestSchemaId;
    private final Map<Long, DataLayout> dataLayouts = new ConcurrentHashMap<>();
    // see pinnedSnapshot
    private volatile Snapshot lastResolved;
    private final ManifestCache manifestCache;
    private final MetadataFiles metadataFiles;
    // the schema of a table being created, which has no schema file yet (see #staged)
    private final Optional<TableSchema> stagedSchema;

    private PaimonTable(Identifier identifier, FileIO fileIO, String location, String branch, ManifestCache manifestCache, Optional<TableSchema> stagedSchema)
            throws IOException
    {
        this.identifier = requireNonNull(identifier, "identifier is null");
        this.manifestCache = requireNonNull(manifestCache, "manifestCache is null");
        this.location = requireNonNull(location, "location is null");
        this.branch = requireNonNull(branch, "branch is null");
        this.stagedSchema = requireNonNull(stagedSchema, "stagedSchema is null");
        // every file operation of the table is confined to its directory, whatever formed the path
        this.fileIO = new ContainedFileIO(requireNonNull(fileIO, "fileIO is null"), location, "Table " + identifier);
        this.schemaManager = new SchemaManager(this.fileIO, location, branch);
        this.snapshotManager = new SnapshotManager(this.fileIO, location, branch, METADATA_REQUESTS);
        this.tagManager = new TagManager(this.fileIO, location, branch);
        this.metadataFiles = new MetadataFiles(this.fileIO, location, identifier.toString(), manifestCache);
        this.listedVersion = new ListedVersion(this.fileIO, BranchManager.branchRoot(location, branch), snapshotManager, schemaManager);
        this.latestSchema = checked(stagedSchema.isPresent() ? stagedSchema.get() : latestSchemaFile().orElseThrow(this::noSchemaFile));
        schemas.put(latestSchema.id(), latestSchema);
        newestSchemaId = new AtomicLong(latestSchema.id());
    }

    public static PaimonTable load(FileSystemCatalog catalog, Identifier identifier)
            throws IOException
    {
        return load(catalog, identifier, MAIN_BRANCH);
    }

    /**
     * @throws TableNotFoundException if the table has no schema file, which its loading finds by
     * listing its schemas, with no request of its own
     */
    public static PaimonTable load(FileSystemCatalog catalog, Identifier identifier, String branch)
            throws IOException
    {
        if (!branch.equals(MAIN_BRANCH)) {
            // a missing table, not a missing branch of it
            catalog.tablePath(identifier);
        }
        return new PaimonTable(identifier, catalog.fileIO(), catalog.location(identifier), branch, catalog.manifestCache(), Optional.empty());
    }

    /**
     * The table {@link FileSystemCatalog#createTable} will create with {@code initialSchema}, for
     * writing the data files of its first snapshot before it exists. Readers and listings do not
     * see it: it has no schema file until {@code createTable} publishes one, so a writer killed
     * before then leaves only unreferenced files in a directory that is not a table. Nothing
     * checks here that the table does not exist yet; {@code createTable} does.
     */
    public static PaimonTable staged(FileSystemCatalog catalog, Identifier identifier, TableSchema initialSchema)
            throws IOException
    {
        String location = catalog.location(identifier);
        TableSchema schema = initialSchema.withId(0);
        return new PaimonTable(identifier, catalog.fileIO(), location, MAIN_BRANCH, catalog.manifestCache(), Optional.of(schema));
    }

    /**
     * The same table on branch {@code branchName}, whose snapshots share this table's manifests
     * and data files.
     */
    public PaimonTable onBranch(String branchName)
            throws IOException
    {
        return new PaimonTable(identifier, fileIO, location, branchName, manifestCache, Optional.empty());
    }

    public Identifier identifier()
    {
        return identifier;
    }

    public String name()
    {
        return identifier.toString();
    }

    public FileIO fileIO()
    {
        return fileIO;
    }

    public String location()
    {
        return location;
    }

    public String branch()
    {
        return branch;
    }

    /**
     * The latest schema of this branch.
     */
    public TableSchema schema()
    {
        return latestSchema;
    }

    /**
     * The latest schema as of now (a commit records the schema current when it commits, which a
     * concurrent schema change may have advanced). Schema ids follow each other and schema files
     * never change, so the newest schema this object read is still the latest while no file of
     * the next id exists: one existence check (a HEAD on an object store) instead of listing the
     * schema directory and reading the file again.
     */
    public TableSchema latestSchema()
            throws IOException
    {
        if (stagedSchema.isPresent()) {
            return stagedSchema.get();
        }
        TableSchema newest = schemas.get(newestSchemaId.get());
        if (!fileIO.fileExists(schemaManager.schemaPath(newest.id() + 1))) {
            return newest;
        }
        TableSchema schema = checked(latestSchemaFile()
                .orElseThrow(() -> new MissingFileException("Table " + identifier + " has no schema file under " + location)));
        schemas.putIfAbsent(schema.id(), schema);
        newestSchemaId.accumulateAndGet(schema.id(), Math::max);
        return schema;
    }

    public TableSchema schema(long schemaId)
            throws IOException
    {
        TableSchema cached = schemas.get(schemaId);
        if (cached != null) {
            return cached;
        }
        TableSchema schema;
        try {
            schema = checked(schemaManager.schema(schemaId));
        }
        catch (UnsupportedTableFeatureException e) {
            throw inThisTable(e);
        }
        schemas.put(schemaId, schema);
        newestSchemaId.accumulateAndGet(schemaId, Math::max);
        return schema;
    }

    private Optional<TableSchema> latestSchemaFile()
            throws IOException
    {
        try {
            return schemaManager.latest();
        }
        catch (UnsupportedTableFeatureException e) {
            throw inThisTable(e);
        }
    }

    private IOException noSchemaFile()
    {
        if (branch.equals(MAIN_BRANCH)) {
            return new TableNotFoundException("Table %s does not exist (no schema file under %s/schema)".formatted(identifier, location));
        }
        return new MissingFileException("Table " + identifier + " has no schema file under " + location + " on branch " + branch);
    }

    // a schema file's errors name the file; the table's name it by the table as well
    private UnsupportedTableFeatureException inThisTable(UnsupportedTableFeatureException e)
    {
        if (e.getMessage() != null && e.getMessage().startsWith("Table " + identifier + ":")) {
            return e;
        }
        return new UnsupportedTableFeatureException("Table " + identifier + ": " + e.getMessage(), e);
    }

    /**
     * Refuses a schema file whose options could make Tarn read, write or delete outside the
     * table directory: schema files are untrusted input like every other table file.
     */
    private TableSchema checked(TableSchema schema)
            throws IOException
    {
        String file = schemaManager.schemaPath(schema.id());
        try {
            new TableOptions(name(), schema.options()).checkPaths(location);
        }
        catch (InvalidNameException e) {
            throw new CorruptFileException("Table %s: schema file %s has a path option outside the table directory: %s".formatted(name(), file, e.getMessage()), e);
        }
        catch (UnsupportedTableFeatureException e) {
            throw new UnsupportedTableFeatureException("Table %s: schema file %s: %s".formatted(name(), file, e.getMessage()), e);
        }
        return schema;
    }

    public SnapshotManager snapshotManager()
    {
        return snapshotManager;
    }

    public TagManager tagManager()
    {
        return tagManager;
    }

    /**
     * The snapshot a version names; empty when the table has no snapshot yet and the latest is asked for.
     */
    public Optional<Snapshot> snapshot(ScanVersion version)
            throws IOException
    {
        Optional<ListedVersion.Listing> listing = version instanceof ScanVersion.Latest ? listing() : Optional.empty();
        Optional<Snapshot> snapshot = listing.isPresent()
                ? listing.get().latestSnapshot()
                : new SnapshotResolver(snapshotManager, tagManager).resolve(version);
        snapshot.ifPresent(resolved -> lastResolved = resolved);
        return snapshot;
    }

    // the current version from one listing, where the storage lists in one request (see ListedVersion)
    private Optional<ListedVersion.Listing> listing()
            throws IOException
    {
        return stagedSchema.isPresent() ? Optional.empty() : listedVersion.list();
    }

    /**
     * The latest snapshot (empty when the table has none) and the latest schema, which a read of
     * the table's current version uses (ALTER TABLE changes the schema without a snapshot). On an
     * object store one listing finds both ({@link ListedVersion}), and the snapshot is read only
     * when it is not the one read last: one request while the table does not change. Otherwise
     * (local files, or more metadata files than one listing request returns) the {@code LATEST}
     * hint, a check for a later snapshot, the snapshot and a check for a newer schema, the
     * independent ones side by side: the time of two requests.
     */
    public LatestVersion latestVersion()
            throws IOException
    {
        Optional<ListedVersion.Listing> listing = listing();
        if (listing.isPresent()) {
            Optional<Snapshot> snapshot = listing.get().latestSnapshot();
            TableSchema schema = newestSchema(listing.get().newestSchemaId());
            snapshot.ifPresent(resolved -> lastResolved = resolved);
            return new LatestVersion(snapshot, schema);
        }
        SideRequest<TableSchema> schema = SideRequest.start(this::latestSchema, METADATA_REQUESTS);
        Optional<Snapshot> snapshot;
        try {
            snapshot = snapshot(new ScanVersion.Latest());
        }
        catch (IOException | RuntimeException e) {
            schema.settle();
            throw e;
        }
        return new LatestVersion(snapshot, schema.await());
    }

    // the schema of the newest id a listing found, read unless this object has read it (or a newer one)
    private TableSchema newestSchema(OptionalLong listedId)
            throws IOException
    {
        if (listedId.isEmpty()) {
            throw noSchemaFile();
        }
        long newest = newestSchemaId.get();
        return listedId.getAsLong() > newest ? schema(listedId.getAsLong()) : schemas.get(newest);
    }

    /**
     * The current version of a table: its latest snapshot, if any, and its latest schema.
     */
    public record LatestVersion(Optional<Snapshot> snapshot, TableSchema schema)
    {
        public LatestVersion
        {
            requireNonNull(snapshot, "snapshot is null");
            requireNonNull(schema, "schema is null");
        }
    }

    /**
     * Snapshot {@code id} as a query pinned it: the snapshot {@link #snapshot(ScanVersion)}
     * resolved last, when it has this id, so that the later steps of a query (statistics,
     * planning) read the snapshot its first step resolved without another request; else read
     * from its file. A snapshot file is never rewritten, except that a rollback deletes it and a
     * later commit may create its id again: a query then keeps the snapshot it resolved.
     */
    public Snapshot pinnedSnapshot(long id)
            throws IOException
    {
        Snapshot resolved = lastResolved;
        if (resolved != null && resolved.id() == id) {
            return resolved;
        }
        return snapshotManager.snapshot(id);
    }

    /**
     * The statistics a snapshot names (see {@link SnapshotStatistics}); empty when it names none.
     * They may have been computed on an earlier snapshot: {@link SnapshotStatistics#snapshotId()}
     * says which.
     */
    public Optional<SnapshotStatistics> statistics(Snapshot snapshot)
            throws IOException
    {
        if (snapshot.statistics().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(metadataFiles.readStatistics(snapshot.statistics().get()));
    }

    public List<ManifestFileMeta> readManifestList(String fileName)
            throws IOException
    {
        return metadataFiles.readManifestList(fileName);
    }

    public List<ManifestEntry> readManifest(String fileName)
            throws IOException
    {
        return metadataFiles.readManifest(fileName);
    }

    /**
     * The entries of a manifest that {@code filter} accepts (null: all). A manifest not in the
     * catalog's cache is decoded whole to be kept, else only the entries accepted are decoded.
     */
    public List<ManifestEntry> readManifest(String fileName, ManifestEntryFilter filter)
            throws IOException
    {
        return metadataFiles.readManifest(fileName, filter);
    }

    public List<IndexManifestEntry> readIndexManifest(String fileName)
            throws IOException
    {
        return metadataFiles.readIndexManifest(fileName);
    }

    /**
     * The path of a file under {@code manifest/} (manifest lists, manifests, index manifests).
     *
     * @throws CorruptFileException if the name, as read from a snapshot or manifest list, is not
     * one plain file name
     */
    public String manifestPath(String fileName)
            throws CorruptFileException
    {
        return metadataFiles.manifestPath(fileName);
    }

    /**
     * Where a data file (or one of its extra files) lives: under the partition directories and
     * {@code bucket-N}, rebuilt from the partition values, unless the file records an external path.
     */
    public String dataFilePath(BinaryRow partition, int bucket, DataFileMeta file, String fileName)
            throws IOException
    {
        if (!TablePaths.isPlainFileName(fileName)) {
            throw new CorruptFileException("Table %s: data file name '%s' is not a plain file name inside the table directory %s".formatted(name(), fileName.replace("\0", "\\0"), location));
        }
        if (file.externalPath().isPresent() && fileName.equals(file.fileName())) {
            metadataFiles.checkExternalPath("a manifest", fileName, file.externalPath().get());
            return file.externalPath().get();
        }
        return dataDirectory(partition, bucket, schema(file.schemaId())) + "/" + fileName;
    }

    /**
     * The directory of a partition and bucket, by the partition naming options of {@code schema}.
     */
    public String dataDirectory(BinaryRow partition, int bucket, TableSchema schema)
    {
        // asked for every file a scan opens: the options of a schema are read once
        DataLayout layout = dataLayouts.computeIfAbsent(schema.id(), ignored -> DataLayout.of(location, name(), schema));
        String partitionPath = layout.partitioned()
                ? PartitionPath.of(partition, schema.partitionType(), layout.partitionDefaultName(), layout.partitionLegacyName())
                : "";
        String bucketDirectory = bucket == POSTPONE_BUCKET ? "bucket-postpone" : "bucket-" + bucket;
        return layout.prefix() + partitionPath + bucketDirectory;
    }

    /**
     * How a schema's options lay out data directories: {@code prefix} is the table location with
     * the data-file directory, if any.
     */
    private record DataLayout(String prefix, boolean partitioned, String partitionDefaultName, boolean partitionLegacyName)
    {
        static DataLayout of(String location, String tableName, TableSchema schema)
        {
            TableOptions options = new TableOptions(tableName, schema.options());
            // normalized and confined to the table directory (schemas are checked when loaded)
            String directory = options.dataFileDirectory();
            String dataDirectory = directory.isEmpty() ? "" : directory + "/";
            return new DataLayout(location + "/" + dataDirectory, !schema.partitionKeys().isEmpty(), options.partitionDefaultName(), options.partitionLegacyName());
        }
    }

    /**
     * The path of an index file (deletion vectors, hash index) under {@code index/}.
     *
     * @throws CorruptFileException if the name, as read from an index manifest, is not one plain
     * file name
     */
    public String indexFilePath(String fileName)
            throws CorruptFileException
    {
        if (!TablePaths.isPlainFileName(fileName)) {
            throw new CorruptFileException("Table %s: index file name '%s' is not a plain file name under %s/index".formatted(name(), fileName.replace("\0", "\\0"), location));
        }
        return location + "/index/" + fileName;
    }

    @Override
    public String toString()
    {
        return name() + (branch.equals(MAIN_BRANCH) ? "" : "$branch_" + branch);
    }
}
