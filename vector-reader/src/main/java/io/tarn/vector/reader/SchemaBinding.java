package io.tarn.vector.reader;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ParquetCorruptionException;
import io.tarn.vector.ParquetUnsupportedException;
import io.tarn.vector.filter.ByteEqualityLeaf;
import io.tarn.vector.metadata.PaimonParquetLayout;
import io.tarn.vector.metadata.ParquetFooter;
import io.tarn.vector.metadata.SchemaNode;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.Type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Binds the columns a read asks for to the leaves of the file by Parquet field id: checks the
 * file's columns against the schema it was written with, builds the {@link FieldAssembler} of
 * each output column (a column the file lacks reads as nulls), and picks the string and binary
 * columns whose values may be handed over as page matches or dictionary ids.
 */
final class SchemaBinding
{
    // Paimon's system fields (_KEY_*, _SEQUENCE_NUMBER, _VALUE_KIND, ...) have ids from here up
    private static final int FIRST_SYSTEM_FIELD_ID = 1_073_741_823;

    private final String file;
    private final ParquetFooter footer;
    private final ReadOptions options;
    // the reader's column readers by leaf, filled per row group: the assemblers read from there
    private final ColumnReader[] readers;
    private final Map<Integer, List<FieldAssembler.Leaf>> leafUsers = new HashMap<>();
    private final List<FieldAssembler> assemblers;
    private final List<Integer> neededLeaves;
    private final Map<Integer, MatchedColumn> matchedColumns;
    private final Map<Integer, Integer> dictionaryIdColumns;
    private final Map<Integer, DictionaryMatchedColumn> dictionaryMatchedColumns;
    private final Set<Integer> valuesAsIdsLeaves;

    /**
     * Binds the columns of {@code options} to the file's leaves (after checking the file against
     * {@code fileFields}, the schema it was written with, when known); the columns that are keys
     * of {@code carried} take their values from there. The assemblers built read from
     * {@code readers}, indexed by leaf, which the reader fills for each row group.
     */
    SchemaBinding(String file, ParquetFooter footer, ReadOptions options, Optional<Map<Integer, DataField>> fileFields, Map<Integer, CarriedColumn> carried,
            ColumnReader[] readers)
            throws ParquetCorruptionException, ParquetUnsupportedException
    {
        this.file = requireNonNull(file, "file is null");
        this.footer = requireNonNull(footer, "footer is null");
        this.options = requireNonNull(options, "options is null");
        this.readers = requireNonNull(readers, "readers is null");
        if (fileFields.isPresent()) {
            checkFileSchema(fileFields.get());
        }
        List<Integer> leaves = new ArrayList<>();
        List<FieldAssembler> built = new ArrayList<>();
        for (DataField column : options.columns()) {
            CarriedColumn carriedColumn = carried.get(column.id());
            if (carriedColumn != null) {
                built.add(new FieldAssembler.Carried(carriedColumn));
                continue;
            }
            Optional<SchemaNode> node = findChild(footer.root(), column.id());
            built.add(node.isEmpty() ? new FieldAssembler.Missing() : assembler(node.get(), column.type(), leaves));
        }
        this.assemblers = List.copyOf(built);
        this.neededLeaves = List.copyOf(leaves);
        this.matchedColumns = options.matchFilterColumns() ? bindMatchedColumns(options.filter().orElseThrow()) : Map.of();
        this.dictionaryIdColumns = options.dictionaryIds() || !options.valuesAsDictionaryIds().isEmpty() ? bindDictionaryIdColumns() : Map.of();
        this.dictionaryMatchedColumns = options.filter().isPresent() ? bindDictionaryMatchedColumns(options.filter().get()) : Map.of();
        this.valuesAsIdsLeaves = bindValuesAsIdsLeaves();
    }

    /**
     * By output column, what writes it into the batch.
     */
    List<FieldAssembler> assemblers()
    {
        return assemblers;
    }

    /**
     * The file leaves the output columns read, each once.
     */
    List<Integer> neededLeaves()
    {
        return neededLeaves;
    }

    /**
     * By output column index: the columns compared in their pages, not decoded (see
     * {@link ReadOptions}).
     */
    Map<Integer, MatchedColumn> matchedColumns()
    {
        return matchedColumns;
    }

    /**
     * By output column index: the leaves of the columns whose dictionary ids are recorded.
     */
    Map<Integer, Integer> dictionaryIdColumns()
    {
        return dictionaryIdColumns;
    }

    /**
     * The leaves of the columns whose values of dictionary-encoded pages are left as ids (see
     * {@link ReadOptions}); a subset of {@link #dictionaryIdColumns()}'.
     */
    Set<Integer> valuesAsIdsLeaves()
    {
        return valuesAsIdsLeaves;
    }

    /**
     * By output column index: the decoded columns whose equality tests are answered per
     * dictionary entry where a batch's values all come from a dictionary.
     */
    Map<Integer, DictionaryMatchedColumn> dictionaryMatchedColumns()
    {
        return dictionaryMatchedColumns;
    }

    /**
     * Fails for requested columns of types this reader cannot read at all, before any file is
     * opened.
     */
    static void checkReadable(String file, ReadOptions options)
            throws ParquetUnsupportedException
    {
        for (DataField column : options.columns()) {
            if (column.type().contains(TypeRoot.VARIANT)) {
                throw new ParquetUnsupportedException("Reading column " + column.name() + " of type VARIANT from " + file + " is not supported");
            }
        }
    }

    /**
     * Checks the file's top-level columns against the schema it was written with: each field of
     * that schema present under its id with the layout of its type, no other columns but system
     * fields, and the system fields that this read requests with the layout of their requested
     * type (the only one they ever have). Field ids are unique among siblings (the footer checks
     * that), so every later look-up by field id finds a checked node or a field the file's
     * schema truly lacks.
     */
    private void checkFileSchema(Map<Integer, DataField> fields)
            throws ParquetCorruptionException
    {
        for (DataField field : fields.values()) {
            Optional<SchemaNode> node = findChild(footer.root(), field.id());
            if (node.isEmpty()) {
                Optional<SchemaNode> named = footer.root().children().stream().filter(child -> child.name().equals(field.name())).findFirst();
                throw new ParquetCorruptionException("File " + file + " has no column with field id " + field.id() + " (" + field.name() + " " + field.type().asSqlString()
                        + "), which the schema the file was written with has"
                        + named.map(child -> "; its column " + child.name() + (child.hasFieldId() ? " has field id " + child.fieldId() : " has no field id")).orElse(""));
            }
            PaimonParquetLayout.check(node.get(), field.type(), file);
        }
        Map<Integer, DataField> requested = new HashMap<>();
        for (DataField column : options.columns()) {
            requested.put(column.id(), column);
        }
        for (SchemaNode child : footer.root().children()) {
            if (!child.hasFieldId()) {
                throw new ParquetCorruptionException("File " + file + " column " + child.name() + " has no field id");
            }
            if (fields.containsKey(child.fieldId())) {
                continue;
            }
            if (child.fieldId() < FIRST_SYSTEM_FIELD_ID) {
                throw new ParquetCorruptionException("File " + file + " column " + child.name() + " has field id " + child.fieldId() + ", which the schema the file was written with lacks");
            }
            DataField system = requested.get(child.fieldId());
            if (system != null) {
                // a nullable system column (row tracking) may be read from a file that stores it
                // required: every value is there
                PaimonParquetLayout.check(child, child.isOptional() ? system.type() : system.type().withNullable(false), file);
            }
        }
    }

    static Optional<SchemaNode> findChild(SchemaNode group, int fieldId)
    {
        for (SchemaNode child : group.children()) {
            if (child.hasFieldId() && child.fieldId() == fieldId) {
                return Optional.of(child);
            }
        }
        return Optional.empty();
    }

    private FieldAssembler assembler(SchemaNode node, DataType type, List<Integer> leaves)
            throws ParquetUnsupportedException
    {
        if (type instanceof AtomicType) {
            if (!node.isPrimitive() || node.isRepeated()) {
                throw mismatch(node, type);
            }
            LeafConverter converter = LeafConverter.create(node.element(), type, file);
            addLeaf(leaves, node.leafIndex());
            return leaf(node.leafIndex(), converter);
        }
        if (node.isPrimitive() || node.isRepeated()) {
            throw mismatch(node, type);
        }
        if (type instanceof RowType row) {
            List<FieldAssembler> children = new ArrayList<>();
            for (DataField field : row.fields()) {
                Optional<SchemaNode> child = findChild(node, field.id());
                children.add(child.isEmpty() ? new FieldAssembler.Missing() : assembler(child.get(), field.type(), leaves));
            }
            // the struct's nulls come from the levels of any leaf below it
            int shape = node.firstLeaf().leafIndex();
            addLeaf(leaves, shape);
            return new FieldAssembler.Struct(readers, shape, node.definitionLevel(), children);
        }
        if (node.children().size() != 1 || !node.children().get(0).isRepeated()) {
            throw mismatch(node, type);
        }
        SchemaNode repeated = node.children().get(0);
        int shape = node.firstLeaf().leafIndex();
        if (type instanceof ArrayType array) {
            SchemaNode element = repeated;
            if (!repeated.isPrimitive() && repeated.children().size() == 1) {
                element = repeated.children().get(0);
            }
            if (element == repeated && !repeated.isPrimitive()) {
                throw mismatch(node, type);
            }
            FieldAssembler elementAssembler = element == repeated
                    ? leaf(repeated.leafIndex(), LeafConverter.create(repeated.element(), array.element(), file))
                    : assembler(element, array.element(), leaves);
            if (element == repeated) {
                addLeaf(leaves, repeated.leafIndex());
            }
            addLeaf(leaves, shape);
            return new FieldAssembler.Repeated(readers, shape, node.definitionLevel(), repeated.definitionLevel(), repeated.repetitionLevel(), elementAssembler);
        }
        DataType keyType;
        DataType valueType;
        if (type instanceof MapType map) {
            keyType = map.key();
            valueType = map.value();
        }
        else if (type instanceof MultisetType multiset) {
            keyType = multiset.element();
            valueType = new AtomicType(TypeRoot.INT, 0, 0, false);
        }
        else {
            throw mismatch(node, type);
        }
        if (repeated.isPrimitive() || repeated.children().size() != 2) {
            throw mismatch(node, type);
        }
        FieldAssembler key = assembler(repeated.children().get(0), keyType, leaves);
        FieldAssembler value = assembler(repeated.children().get(1), valueType, leaves);
        addLeaf(leaves, shape);
        return new FieldAssembler.Repeated(readers, shape, node.definitionLevel(), repeated.definitionLevel(), repeated.repetitionLevel(), new FieldAssembler.Entries(key, value));
    }

    private FieldAssembler.Leaf leaf(int leafIndex, LeafConverter converter)
    {
        FieldAssembler.Leaf leaf = new FieldAssembler.Leaf(readers, leafIndex, converter);
        List<FieldAssembler.Leaf> users = leafUsers.computeIfAbsent(leafIndex, index -> new ArrayList<>());
        users.add(leaf);
        if (users.size() > 1) {
            // conversions may rewrite the decoded values in place: each user then works on a copy
            users.forEach(FieldAssembler.Leaf::copyValues);
        }
        return leaf;
    }

    private static void addLeaf(List<Integer> leaves, int leaf)
    {
        if (!leaves.contains(leaf)) {
            leaves.add(leaf);
        }
    }

    private ParquetUnsupportedException mismatch(SchemaNode node, DataType type)
    {
        ConvertedType converted = node.element().isSetConverted_type() ? node.element().getConverted_type() : null;
        return new ParquetUnsupportedException("File " + file + " column " + node.name() + (node.isPrimitive() ? " (primitive)" : " (group" + (converted == null ? "" : " " + converted) + ")")
                + " cannot be read as " + type.asSqlString());
    }

    /**
     * The output columns that {@code filter} tests only by equality with string or binary
     * literals, when they are top-level BYTE_ARRAY columns of the file read without conversion.
     */
    private Map<Integer, MatchedColumn> bindMatchedColumns(Predicate filter)
            throws ParquetUnsupportedException
    {
        Map<Integer, MatchedColumn> matched = new HashMap<>();
        for (int column = 0; column < options.columns().size(); column++) {
            OptionalInt leaf = plainBinaryLeaf(column);
            Optional<ByteEqualityLeaf> equality = ByteEqualityLeaf.soleLeaf(filter, options.columns().get(column).id());
            if (leaf.isPresent() && equality.isPresent()) {
                matched.put(column, new MatchedColumn(leaf.getAsInt(), equality.get()));
            }
        }
        return Map.copyOf(matched);
    }

    /**
     * The decoded output columns (not compared in their pages) that {@code filter} tests for
     * equality with string or binary literals, when they are top-level BYTE_ARRAY columns of the
     * file read without conversion: their ids into the dictionary are then recorded too.
     */
    private Map<Integer, DictionaryMatchedColumn> bindDictionaryMatchedColumns(Predicate filter)
            throws ParquetUnsupportedException
    {
        Map<Integer, DictionaryMatchedColumn> matched = new HashMap<>();
        for (int column = 0; column < options.columns().size(); column++) {
            if (matchedColumns.containsKey(column)) {
                continue;
            }
            List<ByteEqualityLeaf> equalities = ByteEqualityLeaf.equalityLeaves(filter, options.columns().get(column).id());
            OptionalInt leaf = equalities.isEmpty() ? OptionalInt.empty() : plainBinaryLeaf(column);
            if (leaf.isPresent()) {
                matched.put(column, new DictionaryMatchedColumn(leaf.getAsInt(), equalities));
            }
        }
        return Map.copyOf(matched);
    }

    /**
     * The file leaf of output column {@code column} when it is a top-level BYTE_ARRAY column read
     * into this column alone, its bytes unchanged: the columns whose values a reader may hand
     * over as something other than decoded values.
     */
    private OptionalInt plainBinaryLeaf(int column)
            throws ParquetUnsupportedException
    {
        DataField field = options.columns().get(column);
        Optional<SchemaNode> node = findChild(footer.root(), field.id());
        if (node.isEmpty() || !node.get().isPrimitive() || node.get().isRepeated() || node.get().repetitionLevel() > 0
                || node.get().element().getType() != Type.BYTE_ARRAY || leafUsers.getOrDefault(node.get().leafIndex(), List.of()).size() != 1
                || !LeafConverter.create(node.get().element(), field.type(), file).isPlainBinary()) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(node.get().leafIndex());
    }

    /**
     * By output column index, the leaves of the string and binary columns whose dictionary ids
     * are recorded (not those compared in their pages).
     */
    private Map<Integer, Integer> bindDictionaryIdColumns()
            throws ParquetUnsupportedException
    {
        Map<Integer, Integer> leaves = new HashMap<>();
        for (int column = 0; column < options.columns().size(); column++) {
            boolean wanted = options.dictionaryIds() || options.valuesAsDictionaryIds().contains(options.columns().get(column).id());
            OptionalInt leaf = wanted ? plainBinaryLeaf(column) : OptionalInt.empty();
            if (leaf.isPresent() && !matchedColumns.containsKey(column)) {
                leaves.put(column, leaf.getAsInt());
            }
        }
        return Map.copyOf(leaves);
    }

    /**
     * The leaves of the id-recording columns whose values may stay ids: those the options ask
     * for, unless the filter tests them (its caller tests rows on their values).
     */
    private Set<Integer> bindValuesAsIdsLeaves()
    {
        Set<Integer> tested = options.filter().map(Predicate::fieldIds).orElse(Set.of());
        Set<Integer> leaves = new HashSet<>();
        dictionaryIdColumns.forEach((column, leaf) -> {
            int fieldId = options.columns().get(column).id();
            if (options.valuesAsDictionaryIds().contains(fieldId) && !tested.contains(fieldId)) {
                leaves.add(leaf);
            }
        });
        return Set.copyOf(leaves);
    }
}
