package io.tarn.vector.orc;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * Matches requested Paimon fields to the columns of an ORC file and builds their decoders.
 * <p>
 * Paimon's ORC writer ({@code OrcTypeUtil}) stores each field's id in the type attribute
 * {@code paimon.id}, so fields are matched by id; files of Paimon versions that wrote no ids are
 * matched by the field's name in the schema the file was written with (a renamed column keeps its
 * id, and that schema knows its old name). Array elements and map keys and values are matched by
 * position. Paimon's types are written as ORC's: TINYINT BYTE, SMALLINT SHORT, INT and TIME
 * (milliseconds) INT, BIGINT LONG, CHAR(n) CHAR(n), VARCHAR(n) VARCHAR(n) or STRING, BINARY and
 * VARBINARY BINARY, TIMESTAMP TIMESTAMP, TIMESTAMP_LTZ TIMESTAMP_INSTANT, MULTISET a MAP of the
 * elements to INT counts, ROW STRUCT. Besides its own type, a column is read as the types
 * Paimon's schema evolution may have changed it to: wider integers, floating point, a decimal of
 * a larger scale, text.
 */
final class OrcSchemaBinding
{
    private final String file;
    private final List<OrcType> types;
    // every field (nested too) of the schema the file was written with, by id, when known
    private final Optional<Map<Integer, DataField>> fileFields;
    private final boolean legacyInstants;
    private final boolean hybridCalendar;

    OrcSchemaBinding(String file, List<OrcType> types, Optional<List<DataField>> fileFields, boolean legacyInstants, boolean hybridCalendar)
    {
        this.hybridCalendar = hybridCalendar;
        this.file = requireNonNull(file, "file is null");
        this.types = requireNonNull(types, "types is null");
        this.fileFields = fileFields.map(OrcSchemaBinding::byId);
        this.legacyInstants = legacyInstants;
    }

    private static Map<Integer, DataField> byId(List<DataField> fields)
    {
        Map<Integer, DataField> result = new HashMap<>();
        for (DataField field : fields) {
            collect(field, result);
        }
        return result;
    }

    private static void collect(DataField field, Map<Integer, DataField> result)
    {
        result.put(field.id(), field);
        collectNested(field.type(), result);
    }

    private static void collectNested(DataType type, Map<Integer, DataField> result)
    {
        if (type instanceof RowType row) {
            row.fields().forEach(child -> collect(child, result));
        }
        else if (type instanceof ArrayType array) {
            collectNested(array.element(), result);
        }
        else if (type instanceof MultisetType multiset) {
            collectNested(multiset.element(), result);
        }
        else if (type instanceof MapType map) {
            collectNested(map.key(), result);
            collectNested(map.value(), result);
        }
    }

    /**
     * The type id of the top-level column of {@code field}, empty when the file lacks it.
     */
    OptionalInt topLevelColumn(DataField field)
            throws DataFileCorruptionException
    {
        return findChild(0, field);
    }

    /**
     * The decoder of a top-level requested field.
     */
    ColumnDecoder topLevel(DataField field)
            throws DataFileCorruptionException, DataFileUnsupportedException
    {
        OptionalInt column = findChild(0, field);
        if (column.isEmpty()) {
            if (fileFields.isPresent() && fileFields.get().containsKey(field.id())) {
                throw new DataFileCorruptionException("File " + file + " has no column of field " + field.name() + " (id " + field.id() + "), which the schema it was written with has");
            }
            return new MissingColumnDecoder(field.name());
        }
        return decoder(column.getAsInt(), field.type(), field.name());
    }

    private OptionalInt findChild(int struct, DataField field)
            throws DataFileCorruptionException
    {
        OrcType parent = types.get(struct);
        try {
            boolean hasIds = parent.subtypes().stream().anyMatch(child -> types.get(child).attributes().containsKey(OrcType.PAIMON_FIELD_ID));
            if (hasIds) {
                OptionalInt found = OptionalInt.empty();
                for (int child : parent.subtypes()) {
                    Optional<Integer> id = types.get(child).fieldId();
                    if (id.isPresent() && id.get() == field.id()) {
                        if (found.isPresent()) {
                            throw new DataFileCorruptionException("File " + file + " has two columns with field id " + field.id());
                        }
                        found = OptionalInt.of(child);
                    }
                }
                return found;
            }
        }
        catch (CorruptDataException e) {
            throw new DataFileCorruptionException("File " + file + ": " + e.getMessage(), e);
        }
        // no ids: the field's name when the file was written
        String name = fileFields.map(fields -> fields.get(field.id())).map(DataField::name).orElse(field.name());
        if (fileFields.isPresent() && !fileFields.get().containsKey(field.id())) {
            return OptionalInt.empty();
        }
        for (int i = 0; i < parent.subtypes().size(); i++) {
            if (parent.fieldNames().get(i).equals(name)) {
                return OptionalInt.of(parent.subtypes().get(i));
            }
        }
        return OptionalInt.empty();
    }

    private ColumnDecoder decoder(int column, DataType requested, String name)
            throws DataFileCorruptionException, DataFileUnsupportedException
    {
        OrcType type = types.get(column);
        OrcType.Kind kind = type.kind();
        if (requested instanceof ArrayType array) {
            if (kind != OrcType.Kind.LIST) {
                throw mismatch(name, type, requested);
            }
            return new ListColumnDecoder(column, name, decoder(type.subtypes().get(0), array.element(), name + ".element"), null);
        }
        if (requested instanceof MapType map) {
            if (kind != OrcType.Kind.MAP) {
                throw mismatch(name, type, requested);
            }
            return new ListColumnDecoder(column, name, decoder(type.subtypes().get(0), map.key(), name + ".key"), decoder(type.subtypes().get(1), map.value(), name + ".value"));
        }
        if (requested instanceof MultisetType multiset) {
            if (kind != OrcType.Kind.MAP) {
                throw mismatch(name, type, requested);
            }
            return new ListColumnDecoder(column, name, decoder(type.subtypes().get(0), multiset.element(), name + ".key"),
                    decoder(type.subtypes().get(1), new AtomicType(TypeRoot.INT, 0, 0, false), name + ".value"));
        }
        if (requested instanceof RowType row) {
            if (kind != OrcType.Kind.STRUCT) {
                throw mismatch(name, type, requested);
            }
            List<ColumnDecoder> children = new ArrayList<>();
            for (DataField field : row.fields()) {
                OptionalInt child = findChild(column, field);
                children.add(child.isEmpty() ? new MissingColumnDecoder(name + "." + field.name()) : decoder(child.getAsInt(), field.type(), name + "." + field.name()));
            }
            return new StructColumnDecoder(column, name, children);
        }
        return atomic(column, type, (AtomicType) requested, name);
    }

    private ColumnDecoder atomic(int column, OrcType type, AtomicType requested, String name)
            throws DataFileUnsupportedException
    {
        OrcType.Kind kind = type.kind();
        LongColumnDecoder.Source integerSource = switch (kind) {
            case BYTE -> LongColumnDecoder.Source.BYTE;
            case SHORT, INT, LONG -> LongColumnDecoder.Source.INTEGER;
            default -> null;
        };
        // how wide the file's integers are: a column is read as an integer at least as wide
        int integerRank = switch (kind) {
            case BYTE -> 1;
            case SHORT -> 2;
            case INT -> 3;
            case LONG -> 4;
            default -> 0;
        };
        switch (requested.root()) {
            case BOOLEAN -> {
                if (kind == OrcType.Kind.BOOLEAN) {
                    return new LongColumnDecoder(column, name, LongColumnDecoder.Source.BOOLEAN, LongColumnDecoder.Target.BIT, 0);
                }
            }
            case TINYINT, SMALLINT, INT, BIGINT -> {
                int rank = switch (requested.root()) {
                    case TINYINT -> 1;
                    case SMALLINT -> 2;
                    case INT -> 3;
                    default -> 4;
                };
                if (integerSource != null && integerRank <= rank) {
                    LongColumnDecoder.Target target = switch (requested.root()) {
                        case TINYINT -> LongColumnDecoder.Target.INT8;
                        case SMALLINT -> LongColumnDecoder.Target.INT16;
                        case INT -> LongColumnDecoder.Target.INT32;
                        default -> LongColumnDecoder.Target.INT64;
                    };
                    return new LongColumnDecoder(column, name, integerSource, target, 0);
                }
            }
            case FLOAT, DOUBLE -> {
                boolean single = requested.root() == TypeRoot.FLOAT;
                if (kind == OrcType.Kind.FLOAT || (kind == OrcType.Kind.DOUBLE && !single)) {
                    return new DoubleColumnDecoder(column, name, kind == OrcType.Kind.FLOAT, single ? DoubleColumnDecoder.Target.FLOAT32 : DoubleColumnDecoder.Target.FLOAT64, 0);
                }
                if (integerSource != null) {
                    return new LongColumnDecoder(column, name, integerSource, single ? LongColumnDecoder.Target.FLOAT32 : LongColumnDecoder.Target.FLOAT64, 0);
                }
            }
            case DECIMAL -> {
                if (kind == OrcType.Kind.DECIMAL) {
                    // ORC's defaults for a DECIMAL without them
                    int precision = type.precision() == 0 ? 38 : type.precision();
                    int scale = type.scale();
                    if (requested.scale() >= scale && requested.precision() <= 38) {
                        return new DecimalColumnDecoder(column, name, precision, scale, requested.precision(), requested.scale());
                    }
                }
                if (integerSource != null && requested.scale() <= 38) {
                    return new LongColumnDecoder(column, name, integerSource, LongColumnDecoder.Target.DECIMAL, requested.scale());
                }
            }
            case CHAR, VARCHAR -> {
                int length = requested.root() == TypeRoot.CHAR ? -requested.precision() : requested.precision();
                if (kind == OrcType.Kind.STRING || kind == OrcType.Kind.VARCHAR) {
                    return new BytesColumnDecoder(column, name, 0);
                }
                if (kind == OrcType.Kind.CHAR) {
                    return new BytesColumnDecoder(column, name, Math.max(1, type.maximumLength()));
                }
                if (integerSource != null) {
                    return new LongColumnDecoder(column, name, integerSource, LongColumnDecoder.Target.TEXT, length);
                }
                if (kind == OrcType.Kind.FLOAT || kind == OrcType.Kind.DOUBLE) {
                    return new DoubleColumnDecoder(column, name, kind == OrcType.Kind.FLOAT, DoubleColumnDecoder.Target.TEXT, length);
                }
            }
            case BINARY, VARBINARY -> {
                if (kind == OrcType.Kind.BINARY) {
                    return new BytesColumnDecoder(column, name, 0);
                }
            }
            case DATE -> {
                if (kind == OrcType.Kind.DATE) {
                    return new LongColumnDecoder(column, name, LongColumnDecoder.Source.INTEGER, LongColumnDecoder.Target.INT32, 0);
                }
            }
            case TIME -> {
                if (kind == OrcType.Kind.INT) {
                    return new LongColumnDecoder(column, name, LongColumnDecoder.Source.INTEGER, LongColumnDecoder.Target.INT32, 0);
                }
            }
            case TIMESTAMP, TIMESTAMP_LTZ -> {
                if (kind == OrcType.Kind.TIMESTAMP || kind == OrcType.Kind.TIMESTAMP_INSTANT) {
                    long units = switch (ArrowTypes.timeUnit(requested.precision())) {
                        case MILLISECOND -> 1_000L;
                        case MICROSECOND -> 1_000_000L;
                        default -> 1_000_000_000L;
                    };
                    return new TimestampColumnDecoder(column, name, kind == OrcType.Kind.TIMESTAMP_INSTANT, legacyInstants, hybridCalendar, units);
                }
            }
            default -> {
            }
        }
        throw mismatch(name, type, requested);
    }

    private DataFileUnsupportedException mismatch(String name, OrcType type, DataType requested)
    {
        return new DataFileUnsupportedException("File " + file + " column " + name + " of ORC type " + type.kind() + " cannot be read as " + requested.asSqlString());
    }
}
