package io.tarn.vector.metadata;

import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.SchemaElement;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One node of a file's Parquet schema tree. {@code definitionLevel} and {@code repetitionLevel}
 * count the optional (resp. repeated) nodes on the path from the root down to and including this
 * node; {@code leafIndex} is the column chunk position of a primitive node and -1 for a group;
 * {@code pathNames} are the names from the root's child down to this node (empty for the root).
 * <p>
 * Internal to the vector-reader module: public only for the reader package.
 */
public record SchemaNode(SchemaElement element, int definitionLevel, int repetitionLevel, List<SchemaNode> children, int leafIndex, List<String> pathNames)
{
    public SchemaNode
    {
        requireNonNull(element, "element is null");
        children = List.copyOf(requireNonNull(children, "children is null"));
        pathNames = List.copyOf(requireNonNull(pathNames, "pathNames is null"));
    }

    /**
     * The dotted path of the node, for messages.
     */
    String path()
    {
        return String.join(".", pathNames);
    }

    public String name()
    {
        return element.getName();
    }

    public boolean isPrimitive()
    {
        return leafIndex >= 0;
    }

    public boolean hasFieldId()
    {
        return element.isSetField_id();
    }

    public int fieldId()
    {
        return element.getField_id();
    }

    FieldRepetitionType repetition()
    {
        return element.isSetRepetition_type() ? element.getRepetition_type() : FieldRepetitionType.REQUIRED;
    }

    public boolean isOptional()
    {
        return repetition() == FieldRepetitionType.OPTIONAL;
    }

    public boolean isRepeated()
    {
        return repetition() == FieldRepetitionType.REPEATED;
    }

    /**
     * The first primitive node below (or at) this node; its levels describe the shape of every
     * ancestor, because all leaves below a node repeat and vanish together with it.
     */
    public SchemaNode firstLeaf()
    {
        SchemaNode node = this;
        while (!node.isPrimitive()) {
            node = node.children().get(0);
        }
        return node;
    }
}
