package io.tarn.storage.manifest;

import org.apache.avro.Schema;

import java.util.List;

/**
 * The plan of one record schema, made once from a file's writer schema: for each writer field,
 * its schema and the slot it fills, the index of its name in the known field names (-1 to skip).
 */
final class RecordLayout
{
    final Schema[] schemas;
    final int[] slots;

    RecordLayout(Schema record, List<String> known)
    {
        List<Schema.Field> fields = record.getFields();
        schemas = new Schema[fields.size()];
        slots = new int[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            schemas[i] = fields.get(i).schema();
            slots[i] = known.indexOf(fields.get(i).name());
        }
    }

    /** The position of the writer field that fills {@code slot}, or -1 when the record has none. */
    int position(int slot)
    {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] == slot) {
                return i;
            }
        }
        return -1;
    }
}
