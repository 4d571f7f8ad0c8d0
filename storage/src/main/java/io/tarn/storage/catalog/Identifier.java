package io.tarn.storage.catalog;

import io.tarn.storage.InvalidNameException;

import static java.util.Objects.requireNonNull;

/**
 * A table name: database and table. Both names become directory names under the warehouse, so
 * anything that could leave the warehouse directory or name a different entry ({@code .},
 * {@code ..}, separators, NUL, drive letters) is rejected.
 */
public record Identifier(String database, String table)
{
    public Identifier
    {
        requireNonNull(database, "database is null");
        requireNonNull(table, "table is null");
        validateName("database", database);
        validateName("table", table);
    }

    /**
     * Parses {@code "database.table"}; the database is the part before the first dot.
     */
    public static Identifier parse(String fullName)
    {
        requireNonNull(fullName, "fullName is null");
        int dot = fullName.indexOf('.');
        if (dot < 0) {
            throw new InvalidNameException("Table name '%s' is not of the form 'database.table'".formatted(fullName));
        }
        return new Identifier(fullName.substring(0, dot), fullName.substring(dot + 1));
    }

    public String fullName()
    {
        return database + "." + table;
    }

    /**
     * Rejects a database or table name that is not a single, plain path segment.
     */
    public static void validateName(String kind, String name)
    {
        requireNonNull(name, "name is null");
        if (name.isBlank()) {
            throw new InvalidNameException("Empty %s name".formatted(kind));
        }
        if (name.equals(".") || name.equals("..") || name.contains("..")) {
            throw new InvalidNameException("Invalid %s name '%s': '.' and '..' are not allowed".formatted(kind, name));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\' || c == '\0') {
                throw new InvalidNameException("Invalid %s name '%s': it contains a path separator or NUL".formatted(kind, name.replace("\0", "\\0")));
            }
        }
        if (name.length() >= 2 && name.charAt(1) == ':' && Character.isLetter(name.charAt(0))) {
            throw new InvalidNameException("Invalid %s name '%s': it looks like an absolute path".formatted(kind, name));
        }
    }

    /**
     * Like {@link #validateName} and also rejects names that cannot be addressed once created:
     * {@code $} separates a table from its metadata tables ({@code t$snapshots}) in Paimon and in
     * Trino, so a table or database {@code x$y} could be listed but never read, written or dropped.
     */
    public static void validateNewName(String kind, String name)
    {
        validateName(kind, name);
        if (name.indexOf('$') >= 0) {
            throw new InvalidNameException("Invalid %s name '%s': '$' separates a table from its metadata tables (such as t$snapshots) and is not allowed in new names".formatted(kind, name));
        }
    }

    @Override
    public String toString()
    {
        return fullName();
    }
}
