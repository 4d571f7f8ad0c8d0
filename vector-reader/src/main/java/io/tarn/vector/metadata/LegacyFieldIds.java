package io.tarn.vector.metadata;

import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Field ids for the Parquet files of Paimon releases before 1.0, which wrote none. Paimon reads
 * every data file by the names of the fields of the schema the file was written with (the
 * schema id its data file meta names), so a column of such a file is the field of that schema
 * with its name. This gives each column, and each field of a ROW at any depth (inside arrays and
 * maps too), the id of that field, and the system columns of primary-key tables ({@code _KEY_*},
 * {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}) their fixed ids, so that the file binds by field
 * id like any other. Files with a field id on any top-level column are left as they are.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class LegacyFieldIds
{
    // Paimon's SpecialFields: a key field's id is this plus the id of the value field it copies
    private static final int KEY_FIELD_ID_START = 1_073_741_823;
    private static final String KEY_PREFIX = "_KEY_";
    private static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
    private static final int SEQUENCE_NUMBER_ID = Integer.MAX_VALUE - 1;
    private static final String VALUE_KIND = "_VALUE_KIND";
    private static final int VALUE_KIND_ID = Integer.MAX_VALUE - 2;

    private LegacyFieldIds() {}

    /**
     * Sets the field ids of the file's schema elements from {@code fileFields} when the file has
     * none; a column whose name no field has keeps none (binding then reports it).
     */
    public static void assignByName(ParquetFooter footer, Collection<DataField> fileFields)
    {
        SchemaNode root = footer.root();
        if (root.children().stream().anyMatch(SchemaNode::hasFieldId)) {
            return;
        }
        assignFields(root, List.copyOf(fileFields));
        // the system fields of primary-key tables: the trimmed key, the sequence number, the row kind
        for (SchemaNode child : root.children()) {
            if (child.hasFieldId()) {
                continue;
            }
            String name = child.name();
            if (name.equals(SEQUENCE_NUMBER)) {
                child.element().setField_id(SEQUENCE_NUMBER_ID);
            }
            else if (name.equals(VALUE_KIND)) {
                child.element().setField_id(VALUE_KIND_ID);
            }
            else if (name.startsWith(KEY_PREFIX)) {
                String keyName = name.substring(KEY_PREFIX.length());
                fileFields.stream()
                        .filter(field -> field.name().equals(keyName))
                        .findFirst()
                        .ifPresent(field -> child.element().setField_id(KEY_FIELD_ID_START + field.id()));
            }
        }
    }

    private static void assignFields(SchemaNode group, List<DataField> fields)
    {
        for (DataField field : fields) {
            Optional<SchemaNode> child = group.children().stream().filter(node -> node.name().equals(field.name())).findFirst();
            if (child.isPresent() && !child.get().hasFieldId()) {
                child.get().element().setField_id(field.id());
                assignNested(child.get(), field.type());
            }
        }
    }

    private static void assignNested(SchemaNode node, DataType type)
    {
        if (node.isPrimitive()) {
            return;
        }
        if (type instanceof RowType row) {
            assignFields(node, row.fields());
            return;
        }
        if (node.children().size() != 1) {
            return;
        }
        // LIST and MAP groups hold one repeated group: of the element, or of the key and value
        SchemaNode repeated = node.children().get(0);
        if (type instanceof ArrayType array) {
            assignElement(repeated, array.element());
        }
        else if (type instanceof MultisetType multiset) {
            assignKeyValue(repeated, multiset.element(), null);
        }
        else if (type instanceof MapType map) {
            assignKeyValue(repeated, map.key(), map.value());
        }
    }

    private static void assignElement(SchemaNode repeated, DataType element)
    {
        if (!repeated.isPrimitive() && repeated.children().size() == 1) {
            assignNested(repeated.children().get(0), element);
        }
    }

    private static void assignKeyValue(SchemaNode repeated, DataType key, DataType value)
    {
        if (repeated.isPrimitive() || repeated.children().size() != 2) {
            return;
        }
        assignNested(repeated.children().get(0), key);
        if (value != null) {
            assignNested(repeated.children().get(1), value);
        }
    }
}
