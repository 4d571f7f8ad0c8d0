package io.tarn.vector.orc;

import io.tarn.types.ArrayType;
import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The ORC type tree of a Paimon row type, as Paimon's {@code OrcTypeUtil} builds it: CHAR(n) as
 * char(n), VARCHAR(n) as varchar(n) and STRING as string, BINARY and VARBINARY as binary,
 * TINYINT byte, SMALLINT short, INT and TIME int, BIGINT long, DATE date, DECIMAL(p, s)
 * decimal(p, s), TIMESTAMP timestamp, TIMESTAMP_LTZ timestamp with local time zone
 * (TIMESTAMP_INSTANT), ARRAY list, MAP map, MULTISET map to int, ROW struct. Every node but the
 * root carries its Paimon field id in the attribute {@code paimon.id}: a field its own id, an
 * array element, map key and map value the ids Paimon derives from the enclosing field's id and
 * the depth. Nodes are numbered in pre-order, the root struct 0.
 */
final class OrcWriterSchema
{
    // Paimon's SpecialFields: ids of array elements, map keys and values
    private static final int STRUCTURED_TYPE_FIELD_ID_BASE = Integer.MAX_VALUE / 4;
    private static final int STRUCTURED_TYPE_FIELD_DEPTH_LIMIT = 1 << 10;

    /**
     * One node of the tree.
     *
     * @param name the column the node belongs to, for messages
     * @param type the Paimon type of the values the node holds
     * @param fieldId the {@code paimon.id} attribute, absent (-1) on the root
     */
    record Node(int id, String name, OrcType.Kind kind, DataType type, int fieldId, List<String> fieldNames, List<Node> children)
    {
        Node
        {
            requireNonNull(name, "name is null");
            requireNonNull(kind, "kind is null");
            requireNonNull(type, "type is null");
            fieldNames = List.copyOf(fieldNames);
            children = List.copyOf(children);
        }
    }

    private final Node root;
    private final int size;

    private OrcWriterSchema(Node root, int size)
    {
        this.root = root;
        this.size = size;
    }

    /**
     * Fails with {@link IllegalArgumentException} naming the column when a type cannot be
     * written to ORC.
     */
    static OrcWriterSchema of(RowType rowType)
    {
        int[] next = {0};
        Node root = struct("", rowType, -1, next);
        return new OrcWriterSchema(root, next[0]);
    }

    Node root()
    {
        return root;
    }

    /**
     * The number of nodes (ORC columns).
     */
    int size()
    {
        return size;
    }

    boolean hasTimestamps()
    {
        return hasTimestamps(root);
    }

    private static boolean hasTimestamps(Node node)
    {
        return node.kind() == OrcType.Kind.TIMESTAMP || node.kind() == OrcType.Kind.TIMESTAMP_INSTANT
                || node.children().stream().anyMatch(OrcWriterSchema::hasTimestamps);
    }

    private static Node struct(String name, RowType rowType, int fieldId, int[] next)
    {
        int id = next[0]++;
        List<String> names = new ArrayList<>();
        List<Node> children = new ArrayList<>();
        for (DataField field : rowType.fields()) {
            names.add(field.name());
            children.add(node(name.isEmpty() ? field.name() : name + "." + field.name(), field.type(), field.id(), 0, next));
        }
        return new Node(id, name, OrcType.Kind.STRUCT, rowType, fieldId, names, children);
    }

    private static Node node(String name, DataType type, int fieldId, int depth, int[] next)
    {
        if (type instanceof RowType row) {
            return struct(name, row, fieldId, next);
        }
        if (type instanceof ArrayType array) {
            int id = next[0]++;
            Node element = node(name, array.element(), fieldId, depth + 1, next);
            return new Node(id, name, OrcType.Kind.LIST, type, fieldId, List.of(), List.of(withFieldId(element, arrayElementId(fieldId, depth + 1))));
        }
        if (type instanceof MapType map) {
            return map(name, type, map.key(), map.value(), fieldId, depth, next);
        }
        if (type instanceof MultisetType multiset) {
            return map(name, type, multiset.element(), new AtomicType(TypeRoot.INT, 0, 0, false), fieldId, depth, next);
        }
        AtomicType atomic = (AtomicType) type;
        OrcType.Kind kind = switch (atomic.root()) {
            case BOOLEAN -> OrcType.Kind.BOOLEAN;
            case TINYINT -> OrcType.Kind.BYTE;
            case SMALLINT -> OrcType.Kind.SHORT;
            case INT, TIME -> OrcType.Kind.INT;
            case BIGINT -> OrcType.Kind.LONG;
            case FLOAT -> OrcType.Kind.FLOAT;
            case DOUBLE -> OrcType.Kind.DOUBLE;
            case DECIMAL -> OrcType.Kind.DECIMAL;
            case CHAR -> OrcType.Kind.CHAR;
            case VARCHAR -> atomic.precision() == AtomicType.MAX_LENGTH ? OrcType.Kind.STRING : OrcType.Kind.VARCHAR;
            case BINARY, VARBINARY -> OrcType.Kind.BINARY;
            case DATE -> OrcType.Kind.DATE;
            case TIMESTAMP -> OrcType.Kind.TIMESTAMP;
            case TIMESTAMP_LTZ -> OrcType.Kind.TIMESTAMP_INSTANT;
            default -> throw new IllegalArgumentException("Column " + name + " is " + type.asSqlString() + ", which Paimon does not write to ORC");
        };
        return new Node(next[0]++, name, kind, type, fieldId, List.of(), List.of());
    }

    private static Node map(String name, DataType type, DataType key, DataType value, int fieldId, int depth, int[] next)
    {
        int id = next[0]++;
        Node keyNode = withFieldId(node(name, key, fieldId, depth + 1, next), mapKeyId(fieldId, depth + 1));
        Node valueNode = withFieldId(node(name, value, fieldId, depth + 1, next), mapValueId(fieldId, depth + 1));
        return new Node(id, name, OrcType.Kind.MAP, type, fieldId, List.of(), List.of(keyNode, valueNode));
    }

    private static Node withFieldId(Node node, int fieldId)
    {
        return new Node(node.id(), node.name(), node.kind(), node.type(), fieldId, node.fieldNames(), node.children());
    }

    private static int arrayElementId(int arrayId, int depth)
    {
        return STRUCTURED_TYPE_FIELD_ID_BASE + arrayId * STRUCTURED_TYPE_FIELD_DEPTH_LIMIT + depth;
    }

    private static int mapKeyId(int mapId, int depth)
    {
        return STRUCTURED_TYPE_FIELD_ID_BASE - mapId * STRUCTURED_TYPE_FIELD_DEPTH_LIMIT - depth;
    }

    private static int mapValueId(int mapId, int depth)
    {
        return STRUCTURED_TYPE_FIELD_ID_BASE + mapId * STRUCTURED_TYPE_FIELD_DEPTH_LIMIT + depth;
    }

    /**
     * Adds the footer's {@code Type} messages of every node, in pre-order.
     */
    void writeTypes(ProtobufWriter footer)
    {
        writeTypes(footer, root);
    }

    private static void writeTypes(ProtobufWriter footer, Node node)
    {
        ProtobufWriter type = new ProtobufWriter().writeUnsigned(1, node.kind().ordinal());
        long[] subtypes = node.children().stream().mapToLong(Node::id).toArray();
        type.writePackedUnsigned(2, subtypes, subtypes.length);
        for (String name : node.fieldNames()) {
            type.writeString(3, name);
        }
        if (node.type() instanceof AtomicType atomic) {
            if (node.kind() == OrcType.Kind.CHAR || node.kind() == OrcType.Kind.VARCHAR) {
                type.writeUnsigned(4, atomic.precision());
            }
            if (node.kind() == OrcType.Kind.DECIMAL) {
                type.writeUnsigned(5, atomic.precision()).writeUnsigned(6, atomic.scale());
            }
        }
        if (node.fieldId() >= 0 || node.id() != 0) {
            type.writeMessage(7, new ProtobufWriter().writeString(1, OrcType.PAIMON_FIELD_ID).writeString(2, String.valueOf(node.fieldId())));
        }
        footer.writeMessage(4, type);
        for (Node child : node.children()) {
            writeTypes(footer, child);
        }
    }

    /**
     * The writers of the whole tree.
     *
     * @param legacyTimestampLtz Paimon's {@code orc.timestamp-ltz.legacy.type}
     */
    StructColumnWriter createWriters(WriterContext context, boolean legacyTimestampLtz)
    {
        return (StructColumnWriter) writer(root, context, legacyTimestampLtz);
    }

    private static ColumnWriter writer(Node node, WriterContext context, boolean legacyTimestampLtz)
    {
        List<ColumnWriter> children = node.children().stream().map(child -> writer(child, context, legacyTimestampLtz)).toList();
        int precision = node.type() instanceof AtomicType atomic ? atomic.precision() : 0;
        int scale = node.type() instanceof AtomicType atomic ? atomic.scale() : 0;
        StatisticsBuilder statistics = StatisticsBuilder.create(node.kind(), precision, scale);
        return switch (node.kind()) {
            case STRUCT -> new StructColumnWriter(node.id(), children, context);
            case LIST, MAP -> new CollectionColumnWriter(node.id(), children, context);
            case BOOLEAN -> new BooleanColumnWriter(node.id(), statistics, context);
            case BYTE -> new ByteColumnWriter(node.id(), statistics, context);
            case SHORT, INT, LONG, DATE -> new LongColumnWriter(node.id(), statistics, context);
            case FLOAT, DOUBLE -> new FloatingColumnWriter(node.id(), node.kind() == OrcType.Kind.FLOAT, statistics, context);
            case STRING, VARCHAR, CHAR, BINARY -> new BytesColumnWriter(node.id(), node.kind(), precision, statistics, context);
            case DECIMAL -> new DecimalColumnWriter(node.id(), precision, scale, statistics, context);
            case TIMESTAMP -> new TimestampColumnWriter(node.id(), node.name(), false, true, precision, statistics, context);
            case TIMESTAMP_INSTANT -> new TimestampColumnWriter(node.id(), node.name(), true, legacyTimestampLtz, precision, statistics, context);
            default -> throw new IllegalStateException("No writer for " + node.kind());
        };
    }
}
