package io.tarn.trino;

import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;

/**
 * The schema a table handle pinned: that of its snapshot, or the current one for the latest
 * version.
 */
final class TarnTableSchemas
{
    private TarnTableSchemas() {}

    static TableSchema pinned(TarnTables tables, TarnTableHandle handle)
    {
        PaimonTable table = tables.load(handle.schemaTableName());
        try {
            return table.schema(handle.schemaId());
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot read schema " + handle.schemaId() + " of table " + handle.schemaTableName(), e);
        }
    }
}
