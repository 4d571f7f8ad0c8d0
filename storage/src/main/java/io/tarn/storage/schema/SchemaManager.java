package io.tarn.storage.schema;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.snapshot.BranchManager;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The schema versions of one branch of a table: {@code schema/schema-<id>}, ids from 0 up. A new
 * version is published by creating its file atomically, so two concurrent schema changes cannot
 * both take the same id.
 */
public class SchemaManager
{
    private static final String SCHEMA_PREFIX = "schema-";

    private final FileIO fileIO;
    private final String tableRoot;
    private final String schemaDirectory;

    public SchemaManager(FileIO fileIO, String tableRoot, String branch)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.tableRoot = requireNonNull(tableRoot, "tableRoot is null");
        this.schemaDirectory = BranchManager.branchRoot(tableRoot, requireNonNull(branch, "branch is null")) + "/schema";
    }

    public String schemaPath(long id)
    {
        return schemaDirectory + "/" + SCHEMA_PREFIX + id;
    }

    public TableSchema schema(long id)
            throws IOException
    {
        String path = schemaPath(id);
        byte[] json;
        try {
            json = fileIO.newInputFile(path).readAllBytes();
        }
        catch (MissingFileException e) {
            throw new MissingFileException("Schema %s of table %s does not exist (no file %s); existing schema ids are %s".formatted(id, tableRoot, path, listIds()), e);
        }
        TableSchema schema = SchemaJson.parse(json, path);
        if (schema.id() != id) {
            throw new CorruptFileException("Schema file %s holds schema id %s".formatted(path, schema.id()));
        }
        return schema;
    }

    public Optional<TableSchema> latest()
            throws IOException
    {
        List<Long> ids = listIds();
        return ids.isEmpty() ? Optional.empty() : Optional.of(schema(ids.get(ids.size() - 1)));
    }

    /**
     * The ids of all {@code schema-<id>} files, ascending.
     */
    public List<Long> listIds()
            throws IOException
    {
        List<Long> ids = new ArrayList<>();
        for (FileStatus status : fileIO.list(schemaDirectory)) {
            if (!status.directory()) {
                parseId(status.name()).ifPresent(ids::add);
            }
        }
        ids.sort(null);
        return List.copyOf(ids);
    }

    /**
     * Publishes {@code schema} as {@code schema-<id>}; returns {@code false} if that id is taken.
     */
    public boolean commit(TableSchema schema)
            throws IOException
    {
        requireNonNull(schema, "schema is null");
        if (schema.id() < 0) {
            throw new IllegalArgumentException("Schema ids start at 0: " + schema.id());
        }
        return fileIO.tryCreateAtomically(schemaPath(schema.id()), SchemaJson.toJsonBytes(schema));
    }

    /**
     * The id of the schema {@code file} is, when it is one of this branch's schema files; for a
     * listing of more than the schema directory ({@link FileIO#listFilesInOneRequest}).
     */
    public Optional<Long> listedId(FileStatus file)
    {
        return file.fileNameIn(schemaDirectory).flatMap(SchemaManager::parseId);
    }

    static Optional<Long> parseId(String fileName)
    {
        if (!fileName.startsWith(SCHEMA_PREFIX)) {
            return Optional.empty();
        }
        String digits = fileName.substring(SCHEMA_PREFIX.length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(digits));
    }
}
