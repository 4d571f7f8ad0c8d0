package io.tarn.storage;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * A database that still holds tables was to be dropped without dropping them.
 */
public class DatabaseNotEmptyException
        extends IOException
{
    private static final long serialVersionUID = 1L;

    private final String database;

    public DatabaseNotEmptyException(String database, String message)
    {
        super(message);
        this.database = requireNonNull(database, "database is null");
    }

    public String database()
    {
        return database;
    }
}
