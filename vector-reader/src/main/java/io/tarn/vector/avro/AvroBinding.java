package io.tarn.vector.avro;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import org.apache.avro.Schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Binds the columns a read asks for to the fields of an Avro file and builds the decoder of its
 * records. Paimon's Avro files name their fields after the columns and carry no field ids, so a
 * column is found through the schema the file was written with: its field id gives that
 * schema's field, whose name is the Avro field's (inside ROW columns too). Paimon's system
 * fields ({@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, {@code _KEY_*}), which no table schema
 * has, are found by the requested name. A column the file lacks reads as nulls.
 * <p>
 * Before that, the file is checked against the schema it was written with: every field of the
 * schema present under its name with the Avro type Paimon gives its type ({@link AvroLayout}),
 * and no other top-level fields but system fields.
 */
final class AvroBinding
{
    // Paimon's system fields have field ids from here up
    private static final int FIRST_SYSTEM_FIELD_ID = 1_073_741_823;
    private static final Set<String> SYSTEM_FIELDS = Set.of("_SEQUENCE_NUMBER", "_VALUE_KIND", "_ROW_ID");
    private static final String KEY_PREFIX = "_KEY_";

    private final String file;
    private final StructBuilder columns;
    private final ValueDecoder.Record record;
    private final ValueDecoder rowDecoder;
    private final ValueDecoder rowSkipper;
    private final int minRowBytes;
    private final List<String> fieldNames;

    AvroBinding(String file, Schema schema, Map<Integer, DataField> fileFields, List<DataField> requested)
            throws IOException
    {
        this.file = requireNonNull(file, "file is null");
        for (DataField column : requested) {
            if (column.type().contains(TypeRoot.VARIANT)) {
                throw new DataFileUnsupportedException("Reading column " + column.name() + " of type VARIANT from " + file + " is not supported");
            }
        }
        Schema recordSchema = schema;
        int nullIndex = -1;
        if (schema.getType() == Schema.Type.UNION) {
            // a nullable row type becomes a union [null, record]
            nullIndex = AvroLayout.nullIndex(schema);
            recordSchema = nullIndex < 0 ? schema : schema.getTypes().get(1 - nullIndex);
        }
        if (recordSchema.getType() != Schema.Type.RECORD) {
            throw new DataFileCorruptionException("File " + file + " has the Avro schema " + AvroLayout.describe(schema) + ", not a record");
        }
        checkFileSchema(recordSchema, fileFields);

        List<ColumnBuilder> builders = new ArrayList<>();
        for (DataField column : requested) {
            builders.add(ColumnBuilder.forType(column.type()));
        }
        this.columns = new StructBuilder(builders);
        List<List<ValueDecoder>> outputs = emptyOutputs(recordSchema);
        List<ColumnBuilder> missing = new ArrayList<>();
        for (int i = 0; i < requested.size(); i++) {
            DataField column = requested.get(i);
            Optional<DataField> written = Optional.ofNullable(fileFields.get(column.id()));
            Schema.Field avroField = null;
            if (written.isPresent()) {
                avroField = recordSchema.getField(written.get().name());
            }
            else if (column.id() >= FIRST_SYSTEM_FIELD_ID) {
                avroField = recordSchema.getField(column.name());
            }
            if (avroField == null) {
                missing.add(builders.get(i));
                continue;
            }
            DataType fileType = written.map(DataField::type).orElse(column.type());
            outputs.get(avroField.pos()).add(decoder(avroField.schema(), fileType, column.type(), builders.get(i), column.name()));
        }
        this.record = record(recordSchema, outputs, missing, columns);
        this.rowDecoder = nullIndex < 0 ? record : new ValueDecoder.NonNullRecord(nullIndex, record);
        this.rowSkipper = AvroSkipper.forSchema(schema, file);
        this.minRowBytes = AvroSkipper.minBytes(schema, file);
        this.fieldNames = recordSchema.getFields().stream().map(Schema.Field::name).toList();
    }

    /**
     * The builders of the output columns: the children of a struct with a slot per row.
     */
    StructBuilder columns()
    {
        return columns;
    }

    /**
     * Decodes one record into {@link #columns()}.
     */
    ValueDecoder rowDecoder()
    {
        return rowDecoder;
    }

    /**
     * Moves past one record.
     */
    ValueDecoder rowSkipper()
    {
        return rowSkipper;
    }

    /**
     * The fewest bytes a record takes (at least 1).
     */
    int minRowBytes()
    {
        return minRowBytes;
    }

    /**
     * The name of the top-level Avro field whose decoding failed last, if any.
     */
    Optional<String> failedField()
    {
        int field = record.failedField();
        return field < 0 ? Optional.empty() : Optional.of(fieldNames.get(field));
    }

    private void checkFileSchema(Schema record, Map<Integer, DataField> fileFields)
            throws DataFileCorruptionException
    {
        AvroLayout.checkFields(record, List.copyOf(fileFields.values()), file, "");
        Set<String> names = new HashSet<>();
        fileFields.values().forEach(field -> names.add(field.name()));
        for (Schema.Field field : record.getFields()) {
            if (!names.contains(field.name()) && !SYSTEM_FIELDS.contains(field.name()) && !field.name().startsWith(KEY_PREFIX)) {
                throw new DataFileCorruptionException("File " + file + " has the Avro field " + field.name() + ", which the schema the file was written with lacks");
            }
        }
    }

    private static List<List<ValueDecoder>> emptyOutputs(Schema record)
    {
        List<List<ValueDecoder>> outputs = new ArrayList<>();
        for (int i = 0; i < record.getFields().size(); i++) {
            outputs.add(new ArrayList<>());
        }
        return outputs;
    }

    /**
     * A decoder of {@code record} whose field {@code i} is decoded by {@code outputs.get(i)}
     * (skipped when that is empty), into {@code builder}, whose {@code missing} children get
     * nulls.
     */
    private ValueDecoder.Record record(Schema record, List<List<ValueDecoder>> outputs, List<ColumnBuilder> missing, StructBuilder builder)
            throws DataFileUnsupportedException
    {
        List<ValueDecoder> fields = new ArrayList<>();
        for (Schema.Field field : record.getFields()) {
            List<ValueDecoder> decoders = outputs.get(field.pos());
            fields.add(switch (decoders.size()) {
                case 0 -> AvroSkipper.forSchema(field.schema(), file);
                case 1 -> decoders.get(0);
                default -> new ValueDecoder.Fanout(decoders);
            });
        }
        return new ValueDecoder.Record(fields, missing, builder);
    }

    private ValueDecoder decoder(Schema avro, DataType fileType, DataType requested, ColumnBuilder builder, String column)
            throws DataFileUnsupportedException
    {
        if (avro.getType() == Schema.Type.UNION) {
            int nullIndex = AvroLayout.nullIndex(avro);
            if (nullIndex < 0) {
                throw unsupported(avro, requested, column);
            }
            return new ValueDecoder.Nullable(nullIndex, decoder(avro.getTypes().get(1 - nullIndex), fileType, requested, builder, column), builder);
        }
        if (requested instanceof AtomicType atomic) {
            if (!(fileType instanceof AtomicType fileAtomic)) {
                throw unsupported(avro, requested, column);
            }
            return AtomicDecoders.create(avro, fileAtomic, atomic, builder, file, column);
        }
        if (requested instanceof ArrayType array) {
            if (!(fileType instanceof ArrayType fileArray) || avro.getType() != Schema.Type.ARRAY) {
                throw unsupported(avro, requested, column);
            }
            ListBuilder list = (ListBuilder) builder;
            ValueDecoder element = decoder(avro.getElementType(), fileArray.element(), array.element(), list.element(), column + ".element");
            return new ValueDecoder.Array(element, AvroSkipper.minBytes(avro.getElementType(), file), list);
        }
        if (requested instanceof MapType || requested instanceof MultisetType) {
            return mapDecoder(avro, fileType, requested, (ListBuilder) builder, column);
        }
        RowType row = (RowType) requested;
        if (!(fileType instanceof RowType fileRow) || avro.getType() != Schema.Type.RECORD) {
            throw unsupported(avro, requested, column);
        }
        StructBuilder struct = (StructBuilder) builder;
        List<List<ValueDecoder>> outputs = emptyOutputs(avro);
        List<ColumnBuilder> missing = new ArrayList<>();
        for (int i = 0; i < row.fields().size(); i++) {
            DataField child = row.fields().get(i);
            ColumnBuilder childBuilder = struct.children().get(i);
            Optional<DataField> written = fileRow.fieldById(child.id());
            Schema.Field avroField = written.isPresent() ? avro.getField(written.get().name()) : null;
            if (avroField == null) {
                missing.add(childBuilder);
                continue;
            }
            outputs.get(avroField.pos()).add(decoder(avroField.schema(), written.get().type(), child.type(), childBuilder, column + "." + child.name()));
        }
        return record(avro, outputs, missing, struct);
    }

    private ValueDecoder mapDecoder(Schema avro, DataType fileType, DataType requested, ListBuilder list, String column)
            throws DataFileUnsupportedException
    {
        DataType key;
        DataType value;
        DataType fileKey;
        DataType fileValue;
        if (requested instanceof MapType map && fileType instanceof MapType fileMap) {
            key = map.key();
            value = map.value();
            fileKey = fileMap.key();
            fileValue = fileMap.value();
        }
        else if (requested instanceof MultisetType multiset && fileType instanceof MultisetType fileMultiset) {
            key = multiset.element();
            fileKey = fileMultiset.element();
            // Paimon writes the counts as nullable ints; Arrow holds them as INT NOT NULL
            value = new AtomicType(TypeRoot.INT, 0, 0, false);
            fileValue = new AtomicType(TypeRoot.INT, 0, 0, true);
        }
        else {
            throw unsupported(avro, requested, column);
        }
        StructBuilder entries = (StructBuilder) list.element();
        if (avro.getType() == Schema.Type.MAP) {
            if (key.root() != TypeRoot.CHAR && key.root() != TypeRoot.VARCHAR) {
                throw unsupported(avro, requested, column);
            }
            ValueDecoder valueDecoder = decoder(avro.getValueType(), fileValue, value, entries.children().get(1), column + ".value");
            return new ValueDecoder.StringMap(valueDecoder, AvroSkipper.minBytes(avro.getValueType(), file), list);
        }
        // other keys: an array of {key, value} records
        Schema entry = avro.getType() == Schema.Type.ARRAY ? avro.getElementType() : null;
        if (entry == null || entry.getType() != Schema.Type.RECORD || entry.getField("key") == null || entry.getField("value") == null) {
            throw unsupported(avro, requested, column);
        }
        List<List<ValueDecoder>> outputs = emptyOutputs(entry);
        Schema.Field keyField = entry.getField("key");
        Schema.Field valueField = entry.getField("value");
        outputs.get(keyField.pos()).add(decoder(keyField.schema(), fileKey, key, entries.children().get(0), column + ".key"));
        outputs.get(valueField.pos()).add(decoder(valueField.schema(), fileValue, value, entries.children().get(1), column + ".value"));
        ValueDecoder entryDecoder = record(entry, outputs, List.of(), entries);
        return new ValueDecoder.Array(entryDecoder, AvroSkipper.minBytes(entry, file), list);
    }

    private DataFileUnsupportedException unsupported(Schema avro, DataType requested, String column)
    {
        return new DataFileUnsupportedException("File " + file + " column " + column + " of Avro type " + AvroLayout.describe(avro) + " cannot be read as " + requested.asSqlString());
    }
}
