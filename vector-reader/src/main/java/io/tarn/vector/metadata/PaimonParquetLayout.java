package io.tarn.vector.metadata;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ParquetCorruptionException;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.Type;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * The Parquet layout Paimon writes for a field of each type (paimon-format's
 * {@code ParquetSchemaConverter}, which Tarn's writer follows; PAIMON_FORMAT.md §6.2):
 * {@code optional} for nullable types and {@code required} otherwise; BOOLEAN, INT32 for
 * TINYINT/SMALLINT/INT/DATE/TIME and decimals of precision up to 9, INT64 for BIGINT and
 * decimals up to 18, FIXED_LEN_BYTE_ARRAY of the fewest bytes for wider decimals, FLOAT, DOUBLE,
 * BYTE_ARRAY for strings and binaries, INT64 timestamps in milliseconds (precision up to 3) or
 * microseconds (up to 6) and INT96 beyond; 3-level lists, maps of a repeated group of a
 * {@code required} key and a value, rows as plain groups whose children keep their field ids.
 * <p>
 * A data file's node for a field must have exactly the layout of the type the field had in the
 * schema the file was written with: anything else means the footer is corrupt, since reading it
 * anyway would give other values or other nulls than were written. Only what the reader
 * interprets is checked (names and most annotations are not), so a check passes for every file
 * Paimon or Tarn writes and fails for every change that would alter the values read.
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public final class PaimonParquetLayout
{
    private PaimonParquetLayout() {}

    public static void check(SchemaNode node, DataType type, String file)
            throws ParquetCorruptionException
    {
        check(node, type, file, node.name());
    }

    private static void check(SchemaNode node, DataType type, String file, String path)
            throws ParquetCorruptionException
    {
        FieldRepetitionType repetition = type.nullable() ? FieldRepetitionType.OPTIONAL : FieldRepetitionType.REQUIRED;
        if (node.repetition() != repetition) {
            throw corrupt(file, path, type, "is " + node.repetition().name().toLowerCase(Locale.ROOT) + " where its type is written "
                    + repetition.name().toLowerCase(Locale.ROOT));
        }
        if (type instanceof AtomicType atomic) {
            if (atomic.root() == TypeRoot.VARIANT) {
                checkVariant(node, atomic, file, path);
                return;
            }
            checkPrimitive(node, atomic, file, path);
            return;
        }
        if (node.isPrimitive()) {
            throw corrupt(file, path, type, "is a primitive column where its type is written as a group");
        }
        if (type instanceof RowType row) {
            checkRow(node, row, file, path);
            return;
        }
        if (node.children().size() != 1) {
            throw corrupt(file, path, type, "has " + node.children().size() + " children where its type is written with one repeated group");
        }
        SchemaNode repeated = node.children().get(0);
        String repeatedPath = path + "." + repeated.name();
        if (!repeated.isRepeated() || repeated.isPrimitive()) {
            throw corrupt(file, repeatedPath, type, "is not a repeated group");
        }
        if (type instanceof ArrayType array) {
            if (repeated.children().size() != 1) {
                throw corrupt(file, repeatedPath, type, "has " + repeated.children().size() + " children where a list is written with one element");
            }
            SchemaNode element = repeated.children().get(0);
            check(element, array.element(), file, repeatedPath + "." + element.name());
            return;
        }
        DataType key;
        DataType value;
        if (type instanceof MapType map) {
            key = map.key();
            value = map.value();
        }
        else {
            key = ((MultisetType) type).element();
            value = new AtomicType(TypeRoot.INT, 0, 0, false);
        }
        if (repeated.children().size() != 2) {
            throw corrupt(file, repeatedPath, type, "has " + repeated.children().size() + " children where a map entry is written with a key and a value");
        }
        SchemaNode keyNode = repeated.children().get(0);
        SchemaNode valueNode = repeated.children().get(1);
        // Parquet has no nullable map keys: Paimon writes the key required whatever its type says
        check(keyNode, key.withNullable(false), file, repeatedPath + "." + keyNode.name());
        check(valueNode, value, file, repeatedPath + "." + valueNode.name());
    }

    private static void checkRow(SchemaNode node, RowType row, String file, String path)
            throws ParquetCorruptionException
    {
        List<DataField> fields = row.fields();
        if (node.children().size() != fields.size()) {
            throw corrupt(file, path, row, "has " + node.children().size() + " children where its type has " + fields.size() + " fields");
        }
        for (DataField field : fields) {
            SchemaNode child = null;
            for (SchemaNode candidate : node.children()) {
                if (candidate.hasFieldId() && candidate.fieldId() == field.id()) {
                    child = candidate;
                    break;
                }
            }
            if (child == null) {
                throw corrupt(file, path, row, "has no child with field id " + field.id() + " (field " + field.name() + ")");
            }
            check(child, field.type(), file, path + "." + child.name());
        }
    }

    private static void checkVariant(SchemaNode node, AtomicType type, String file, String path)
            throws ParquetCorruptionException
    {
        if (node.isPrimitive() || node.children().size() != 2) {
            throw corrupt(file, path, type, "is not a group of a value and a metadata column");
        }
        for (SchemaNode child : node.children()) {
            if (!child.isPrimitive() || child.repetition() != FieldRepetitionType.REQUIRED || child.element().getType() != Type.BYTE_ARRAY) {
                throw corrupt(file, path + "." + child.name(), type, "is not a required BYTE_ARRAY column");
            }
        }
    }

    private static void checkPrimitive(SchemaNode node, AtomicType type, String file, String path)
            throws ParquetCorruptionException
    {
        if (!node.isPrimitive()) {
            throw corrupt(file, path, type, "is a group where its type is written as a primitive column");
        }
        SchemaElement element = node.element();
        Type physical = physicalType(type);
        if (element.getType() != physical) {
            throw corrupt(file, path, type, "has Parquet type " + element.getType() + " where its type is written as " + physical);
        }
        if (physical == Type.FIXED_LEN_BYTE_ARRAY && (!element.isSetType_length() || element.getType_length() != decimalBytes(type.precision()))) {
            throw corrupt(file, path, type, "has a length of " + (element.isSetType_length() ? element.getType_length() : "none")
                    + " where its type is written with " + decimalBytes(type.precision()) + " bytes");
        }
        LogicalType logical = element.isSetLogicalType() ? element.getLogicalType() : null;
        ConvertedType converted = element.isSetConverted_type() ? element.getConverted_type() : null;
        if ((logical != null && logical.isSetINTEGER() && !logical.getINTEGER().isIsSigned()) || (converted != null && converted.name().startsWith("UINT"))) {
            throw corrupt(file, path, type, "is annotated unsigned, which Paimon never writes");
        }
        boolean logicalDecimal = logical != null && logical.isSetDECIMAL();
        boolean convertedDecimal = converted == ConvertedType.DECIMAL;
        if (type.root() != TypeRoot.DECIMAL) {
            if (logicalDecimal || convertedDecimal) {
                throw corrupt(file, path, type, "is annotated as a decimal");
            }
        }
        else {
            if (!logicalDecimal && !convertedDecimal) {
                throw corrupt(file, path, type, "has no decimal annotation");
            }
            if (logicalDecimal && (logical.getDECIMAL().getPrecision() != type.precision() || logical.getDECIMAL().getScale() != type.scale())) {
                throw corrupt(file, path, type, "is annotated DECIMAL(" + logical.getDECIMAL().getPrecision() + ", " + logical.getDECIMAL().getScale() + ")");
            }
            if (convertedDecimal && (element.getPrecision() != type.precision() || element.getScale() != type.scale())) {
                throw corrupt(file, path, type, "has a decimal precision of " + element.getPrecision() + " and scale of " + element.getScale());
            }
        }
        if ((type.root() == TypeRoot.TIMESTAMP || type.root() == TypeRoot.TIMESTAMP_LTZ) && physical == Type.INT64) {
            checkTimestampUnit(type, logical, converted, file, path);
        }
    }

    /**
     * The unit of an INT64 timestamp decides how its values are scaled: it must be the one the
     * type's precision is written with, in the logical and the legacy annotation alike.
     */
    private static void checkTimestampUnit(AtomicType type, LogicalType logical, ConvertedType converted, String file, String path)
            throws ParquetCorruptionException
    {
        boolean millis = type.precision() <= 3;
        String expected = millis ? "milliseconds" : "microseconds";
        boolean annotated = false;
        if (logical != null && logical.isSetTIMESTAMP()) {
            TimeUnit unit = logical.getTIMESTAMP().getUnit();
            if (unit == null || (millis ? !unit.isSetMILLIS() : !unit.isSetMICROS())) {
                throw corrupt(file, path, type, "has a timestamp unit of " + unit + " where its type is written in " + expected);
            }
            annotated = true;
        }
        if (converted == ConvertedType.TIMESTAMP_MILLIS || converted == ConvertedType.TIMESTAMP_MICROS) {
            if ((converted == ConvertedType.TIMESTAMP_MILLIS) != millis) {
                throw corrupt(file, path, type, "is annotated " + converted + " where its type is written in " + expected);
            }
            annotated = true;
        }
        if (!annotated) {
            throw corrupt(file, path, type, "has no timestamp unit");
        }
    }

    private static Type physicalType(AtomicType type)
    {
        return switch (type.root()) {
            case BOOLEAN -> Type.BOOLEAN;
            case TINYINT, SMALLINT, INT, DATE, TIME -> Type.INT32;
            case BIGINT -> Type.INT64;
            case FLOAT -> Type.FLOAT;
            case DOUBLE -> Type.DOUBLE;
            case CHAR, VARCHAR, BINARY, VARBINARY -> Type.BYTE_ARRAY;
            case DECIMAL -> type.precision() <= 9 ? Type.INT32 : type.precision() <= 18 ? Type.INT64 : Type.FIXED_LEN_BYTE_ARRAY;
            case TIMESTAMP, TIMESTAMP_LTZ -> type.precision() <= 6 ? Type.INT64 : Type.INT96;
            default -> throw new IllegalArgumentException("Not a primitive Paimon type: " + type);
        };
    }

    /**
     * The fewest bytes whose two's complement holds every unscaled value of the precision.
     */
    private static int decimalBytes(int precision)
    {
        BigInteger largest = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
        // bitLength leaves out the sign bit
        return (largest.bitLength() + 1 + 7) / 8;
    }

    private static ParquetCorruptionException corrupt(String file, String path, DataType type, String what)
    {
        return new ParquetCorruptionException("File " + file + " column " + path + " of type " + type.asSqlString() + " " + what);
    }
}
