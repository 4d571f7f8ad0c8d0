package io.tarn.storage.catalog;

import io.tarn.storage.ColumnAlreadyExistsException;
import io.tarn.storage.ColumnNotFoundException;
import io.tarn.storage.CommitConflictException;
import io.tarn.storage.DatabaseNotEmptyException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.TableNotEmptyException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.ContainedFileIO;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.manifest.ManifestCache;
import io.tarn.storage.schema.SchemaManager;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.schema.TableOptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Paimon's filesystem catalog: database {@code d} is the directory {@code <warehouse>/d.db}, and a
 * table is a directory inside it whose {@code schema/} holds at least one {@code schema-<id>}.
 * Names are validated by {@link Identifier} so that no path leaves the warehouse.
 */
public class FileSystemCatalog
{
    private static final String DATABASE_SUFFIX = ".db";
    // the longest file name (in UTF-8 bytes) of the file systems Paimon warehouses live on
    // (ext4, XFS, NTFS, S3 keys' segments in practice): a longer name fails half-way otherwise
    private static final int MAX_FILE_NAME_BYTES = 255;

    /**
     * The longest database name in UTF-8 bytes: its directory name carries {@code .db}.
     */
    public static final int MAX_DATABASE_NAME_BYTES = MAX_FILE_NAME_BYTES - DATABASE_SUFFIX.length();

    /**
     * The longest table name in UTF-8 bytes: the name of its directory.
     */
    public static final int MAX_TABLE_NAME_BYTES = MAX_FILE_NAME_BYTES;

    private final FileIO fileIO;
    private final String warehouse;
    private final ManifestCache manifestCache;

    public FileSystemCatalog(FileIO fileIO, String warehouse)
    {
        this(fileIO, warehouse, ManifestCache.DEFAULT_MAX_BYTES);
    }

    /**
     * @param manifestCacheBytes how much memory the decoded manifest files shared by the tables of
     * this catalog may take; 0 caches nothing
     */
    public FileSystemCatalog(FileIO fileIO, String warehouse, long manifestCacheBytes)
    {
        this(fileIO, warehouse, new ManifestCache(manifestCacheBytes));
    }

    private FileSystemCatalog(FileIO fileIO, String warehouse, ManifestCache manifestCache)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        requireNonNull(warehouse, "warehouse is null");
        this.warehouse = warehouse.length() > 1 && warehouse.endsWith("/") ? warehouse.substring(0, warehouse.length() - 1) : warehouse;
        this.manifestCache = requireNonNull(manifestCache, "manifestCache is null");
    }

    public ManifestCache manifestCache()
    {
        return manifestCache;
    }

    public String warehouse()
    {
        return warehouse;
    }

    public FileIO fileIO()
    {
        return fileIO;
    }

    public List<String> listDatabases()
            throws IOException
    {
        List<String> names = new ArrayList<>();
        for (FileStatus status : fileIO.list(warehouse)) {
            String name = status.name();
            if (status.directory() && name.endsWith(DATABASE_SUFFIX) && name.length() > DATABASE_SUFFIX.length()) {
                names.add(name.substring(0, name.length() - DATABASE_SUFFIX.length()));
            }
        }
        names.sort(null);
        return List.copyOf(names);
    }

    public boolean databaseExists(String database)
            throws IOException
    {
        return fileIO.exists(databasePath(database));
    }

    /**
     * The stored name of the database whose name equals {@code name} ignoring case, as Paimon's
     * case-insensitive engines look names up; empty if none does.
     *
     * @throws InvalidNameException if several stored databases match (such as {@code Sales} and
     * {@code sales}), which a case-insensitive name cannot tell apart
     */
    public Optional<String> findDatabase(String name)
            throws IOException
    {
        Identifier.validateName("database", name);
        List<String> matches = new ArrayList<>();
        for (String database : listDatabases()) {
            if (database.equalsIgnoreCase(name)) {
                matches.add(database);
            }
        }
        return single("Database name '%s' is ambiguous in warehouse %s".formatted(name, warehouse), matches);
    }

    /**
     * The stored identifier of the table whose database and table names equal those of
     * {@code name} ignoring case; empty if there is none.
     *
     * @throws InvalidNameException if several stored databases or tables match, which a
     * case-insensitive name cannot tell apart: the error names them, it never picks one
     */
    public Optional<Identifier> findTable(Identifier name)
            throws IOException
    {
        requireNonNull(name, "name is null");
        Optional<String> database = findDatabase(name.database());
        if (database.isEmpty()) {
            return Optional.empty();
        }
        String databasePath = databasePath(database.get());
        List<String> matches = new ArrayList<>();
        for (FileStatus status : fileIO.list(databasePath)) {
            if (status.directory() && status.name().equalsIgnoreCase(name.table()) && isTable(status.path())) {
                matches.add(status.name());
            }
        }
        matches.sort(null);
        return single("Table name '%s' is ambiguous in database %s of warehouse %s".formatted(name.table(), database.get(), warehouse), matches)
                .map(table -> new Identifier(database.get(), table));
    }

    private static Optional<String> single(String ambiguity, List<String> matches)
    {
        if (matches.size() > 1) {
            throw new InvalidNameException("%s: it matches %s, which differ only in case; rename one of them with the tool that wrote it".formatted(
                    ambiguity, String.join(" and ", matches.stream().map(match -> "'" + match + "'").toList())));
        }
        return matches.stream().findFirst();
    }

    public List<String> listTables(String database)
            throws IOException
    {
        List<String> names = new ArrayList<>();
        for (FileStatus status : fileIO.list(databasePath(database))) {
            if (status.directory() && isTable(status.path())) {
                names.add(status.name());
            }
        }
        names.sort(null);
        return List.copyOf(names);
    }

    /**
     * The root directory of an existing table.
     */
    public String tablePath(Identifier identifier)
            throws IOException
    {
        String path = tableLocation(identifier);
        if (!isTable(path)) {
            throw new TableNotFoundException("Table %s does not exist in warehouse %s (no schema file under %s/schema)".formatted(identifier.fullName(), warehouse, path));
        }
        return path;
    }

    /**
     * The names of the branches of an existing table besides {@code main}, as they are stored.
     */
    public List<String> branches(Identifier identifier)
            throws IOException
    {
        return new BranchManager(fileIO, tablePath(identifier)).branches();
    }

    public void createDatabase(String database)
            throws IOException
    {
        Identifier.validateNewName("database", database);
        checkLength("database", database, MAX_DATABASE_NAME_BYTES);
        fileIO.mkdirs(databasePath(database));
    }

    /**
     * Deletes the database's directory. Without {@code cascade} a database that holds a table is
     * refused ({@link DatabaseNotEmptyException}); with it, its tables are dropped first as
     * {@link #dropTable} drops them. Whatever else lies in the directory (files of a CREATE TABLE
     * AS that never committed) goes with it, as in Paimon's filesystem catalog; the deletes are
     * confined to the database's directory and links in it are deleted, never followed.
     */
    public void dropDatabase(String database, boolean cascade)
            throws IOException
    {
        String path = databasePath(database);
        if (!fileIO.exists(path)) {
            throw new TableNotFoundException("Database '%s' does not exist in warehouse %s".formatted(database, warehouse));
        }
        List<String> tables = listTables(database);
        if (!tables.isEmpty() && !cascade) {
            throw new DatabaseNotEmptyException(database, "Database '%s' of warehouse %s holds tables %s".formatted(database, warehouse, tables));
        }
        for (String table : tables) {
            dropTable(new Identifier(database, table));
        }
        deleteTree(new ContainedFileIO(fileIO, path, "Database " + database), path);
    }

    /**
     * Creates a table whose first schema is {@code initialSchema} with id 0. Fails with
     * {@link CommitConflictException} if the table already exists.
     */
    public TableSchema createTable(Identifier identifier, TableSchema initialSchema)
            throws IOException
    {
        requireNonNull(initialSchema, "initialSchema is null");
        validateNewTableName(identifier.table());
        if (!databaseExists(identifier.database())) {
            throw new TableNotFoundException("Cannot create table %s: database '%s' does not exist in warehouse %s".formatted(identifier.fullName(), identifier.database(), warehouse));
        }
        String path = tableLocation(identifier);
        // refused before anything is written: options that would place files outside the table,
        // and columns whose data files could not be read back
        TableOptions options = new TableOptions(identifier.fullName(), initialSchema.options());
        options.checkPaths(path);
        checkRowTracking(identifier, initialSchema, options);
        NestingDepth.check(identifier.fullName(), initialSchema.fields());
        SchemaManager schemas = new SchemaManager(fileIO, path, BranchManager.MAIN_BRANCH);
        if (!schemas.listIds().isEmpty()) {
            throw new CommitConflictException("Table %s already exists in warehouse %s".formatted(identifier.fullName(), warehouse));
        }
        TableSchema schema = initialSchema.withId(0);
        if (!schemas.commit(schema)) {
            throw new CommitConflictException("Table %s was created concurrently in warehouse %s".formatted(identifier.fullName(), warehouse));
        }
        return schema;
    }

    /**
     * Paimon's rules for tables that track rows, which its writers and readers rely on: row ids
     * are handed out per commit to append files, so such a table has neither a primary key nor
     * fixed buckets; data evolution builds on row ids and does not mix with deletion vectors.
     */
    private static void checkRowTracking(Identifier identifier, TableSchema schema, TableOptions options)
    {
        if (options.rowTrackingEnabled()) {
            if (!schema.primaryKeys().isEmpty()) {
                throw new IllegalArgumentException("Cannot create table %s: a table with %s = 'true' cannot have a primary key".formatted(identifier.fullName(), TableOptions.ROW_TRACKING_ENABLED));
            }
            if (options.bucket() != -1) {
                throw new IllegalArgumentException("Cannot create table %s: a table with %s = 'true' has bucket = -1, not %s".formatted(identifier.fullName(), TableOptions.ROW_TRACKING_ENABLED, options.bucket()));
            }
        }
        if (options.flag("data-evolution.enabled")) {
            if (!options.rowTrackingEnabled()) {
                throw new IllegalArgumentException("Cannot create table %s: data-evolution.enabled = 'true' needs %s = 'true'".formatted(identifier.fullName(), TableOptions.ROW_TRACKING_ENABLED));
            }
            if (options.deletionVectorsEnabled()) {
                throw new IllegalArgumentException("Cannot create table %s: data-evolution.enabled = 'true' does not go with deletion-vectors.enabled = 'true'".formatted(identifier.fullName()));
            }
        }
    }

    /**
     * Applies {@code changes}, in order, to the latest schema of the table's main branch and
     * publishes the result as the next schema file; returns it. The changes land together in one
     * schema or none does, unless rows committed concurrently with a NOT NULL column are found
     * after it was published: then a further schema drops that column again. A lost race with
     * another schema change is retried on the schema that won (a bounded number of times, apart
     * by a random pause); see {@link SchemaChangeCommit} for the NOT NULL column check and the
     * window it leaves.
     *
     * @throws ColumnAlreadyExistsException if an added or renamed column's name is taken
     * @throws ColumnNotFoundException if a column to rename, drop or add after is missing
     * @throws TableNotEmptyException if a NOT NULL column is added to a table holding rows
     * @throws UnsupportedTableFeatureException if a key column or the only column would be
     * renamed or dropped, or the table's options ask for external data paths
     * @throws CommitConflictException if other schema changes kept winning the race
     */
    public TableSchema alterTable(Identifier identifier, List<SchemaChange> changes)
            throws IOException
    {
        requireNonNull(changes, "changes is null");
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("No schema change for table " + identifier);
        }
        String location = tablePath(identifier);
        FileIO tableFileIO = new ContainedFileIO(fileIO, location, "Table " + identifier);
        return new SchemaChangeCommit(tableFileIO, location, identifier.fullName()).commit(List.copyOf(changes));
    }

    /**
     * Where the table {@code identifier} lives or will live once created.
     */
    public String location(Identifier identifier)
    {
        return tableLocation(identifier);
    }

    /**
     * Deletes the table's directory and everything in it. Not through a loaded table, so that a
     * table whose metadata is refused can still be dropped; the deletes are confined to the
     * table's directory ({@link ContainedFileIO}).
     */
    public void dropTable(Identifier identifier)
            throws IOException
    {
        String location = tablePath(identifier);
        deleteTree(new ContainedFileIO(fileIO, location, "Table " + identifier), location);
    }

    private static void deleteTree(FileIO fileIO, String path)
            throws IOException
    {
        for (FileStatus status : fileIO.list(path)) {
            // a link is deleted, never followed: what it points to may lie outside the table
            if (status.directory() && !status.symbolicLink()) {
                deleteTree(fileIO, status.path());
            }
            else {
                fileIO.delete(status.path());
            }
        }
        fileIO.delete(path);
    }

    /**
     * Renames table {@code from} to {@code to} (possibly into another database) by moving its
     * directory, as Paimon's filesystem catalog does. The new name is checked like a new table's;
     * fails with {@link CommitConflictException} if a table {@code to} exists.
     */
    public void renameTable(Identifier from, Identifier to)
            throws IOException
    {
        requireNonNull(to, "to is null");
        validateNewTableName(to.table());
        String source = tablePath(from);
        if (!databaseExists(to.database())) {
            throw new TableNotFoundException("Cannot rename table %s to %s: database '%s' does not exist in warehouse %s".formatted(from, to, to.database(), warehouse));
        }
        String target = tableLocation(to);
        if (isTable(target) || !fileIO.rename(source, target)) {
            throw new CommitConflictException("Cannot rename table %s to %s: table %s already exists in warehouse %s".formatted(from, to, to, warehouse));
        }
    }

    /**
     * Rejects a name that a new table cannot have: one {@link Identifier#validateNewName} rejects
     * or one longer than {@link #MAX_TABLE_NAME_BYTES}.
     */
    public static void validateNewTableName(String table)
    {
        Identifier.validateNewName("table", table);
        checkLength("table", table, MAX_TABLE_NAME_BYTES);
    }

    private static void checkLength(String kind, String name, int maxBytes)
    {
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw new InvalidNameException("Invalid %s name '%s': it is %s bytes long in UTF-8, longer than the %s bytes a %s name may have".formatted(kind, name, bytes, maxBytes, kind));
        }
    }

    private String databasePath(String database)
    {
        Identifier.validateName("database", database);
        return warehouse + "/" + database + DATABASE_SUFFIX;
    }

    private String tableLocation(Identifier identifier)
    {
        requireNonNull(identifier, "identifier is null");
        return databasePath(identifier.database()) + "/" + identifier.table();
    }

    private boolean isTable(String tablePath)
            throws IOException
    {
        return !new SchemaManager(fileIO, tablePath, BranchManager.MAIN_BRANCH).listIds().isEmpty();
    }
}
