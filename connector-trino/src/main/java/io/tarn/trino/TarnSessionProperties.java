package io.tarn.trino;

import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.spi.session.PropertyMetadata.booleanProperty;

final class TarnSessionProperties
{
    static final String INSERT_OVERWRITE = "insert_overwrite";

    private TarnSessionProperties() {}

    static List<PropertyMetadata<?>> properties()
    {
        return List.of(booleanProperty(
                INSERT_OVERWRITE,
                "INSERT replaces the partitions it writes to (dynamic partition overwrite) instead of appending",
                false,
                false));
    }

    static boolean isInsertOverwrite(ConnectorSession session)
    {
        return session.getProperty(INSERT_OVERWRITE, Boolean.class);
    }
}
