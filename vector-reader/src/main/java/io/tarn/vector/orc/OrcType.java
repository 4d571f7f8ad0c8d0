package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One node of an ORC file's type tree, which the footer stores flattened in pre-order: node 0 is
 * the root struct, and a compound node names its children by their node ids ({@code subtypes}).
 * Paimon records each field's id in the attribute {@link #PAIMON_FIELD_ID}.
 */
record OrcType(Kind kind, List<Integer> subtypes, List<String> fieldNames, int maximumLength, int precision, int scale, Map<String, String> attributes)
{
    static final String PAIMON_FIELD_ID = "paimon.id";

    enum Kind
    {
        BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, STRING, BINARY, TIMESTAMP, LIST, MAP, STRUCT, UNION, DECIMAL, DATE, VARCHAR, CHAR, TIMESTAMP_INSTANT
    }

    OrcType
    {
        subtypes = List.copyOf(subtypes);
        fieldNames = List.copyOf(fieldNames);
        attributes = Map.copyOf(attributes);
    }

    static OrcType parse(ProtobufReader message)
    {
        Kind kind = null;
        LongList subtypes = new LongList();
        List<String> names = new ArrayList<>();
        int maximumLength = 0;
        int precision = 0;
        int scale = 0;
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> {
                    long number = message.readUnsigned();
                    if (number >= Kind.values().length) {
                        throw new CorruptDataException("Type kind " + number + " is unknown");
                    }
                    kind = Kind.values()[(int) number];
                }
                case 2 -> message.readUnsignedRepeated(subtypes);
                case 3 -> names.add(message.readString());
                case 4 -> maximumLength = message.readUnsignedInt();
                case 5 -> precision = message.readUnsignedInt();
                case 6 -> scale = message.readUnsignedInt();
                case 7 -> {
                    ProtobufReader pair = message.readMessage();
                    String key = null;
                    String value = null;
                    for (int pairField = pair.nextField(); pairField >= 0; pairField = pair.nextField()) {
                        switch (pairField) {
                            case 1 -> key = pair.readString();
                            case 2 -> value = pair.readString();
                            default -> pair.skip();
                        }
                    }
                    if (key != null && value != null) {
                        attributes.put(key, value);
                    }
                }
                default -> message.skip();
            }
        }
        if (kind == null) {
            throw new CorruptDataException("Type has no kind");
        }
        List<Integer> children = new ArrayList<>(subtypes.size());
        for (long subtype : subtypes.toArray()) {
            if (subtype > Integer.MAX_VALUE) {
                throw new CorruptDataException("Type id " + subtype + " is out of range");
            }
            children.add((int) subtype);
        }
        return new OrcType(kind, children, names, maximumLength, precision, scale, attributes);
    }

    /**
     * The Paimon field id in the attributes, empty when absent; a value that is not a number is
     * corrupt.
     */
    Optional<Integer> fieldId()
    {
        String value = attributes.get(PAIMON_FIELD_ID);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(value));
        }
        catch (NumberFormatException e) {
            throw new CorruptDataException("Attribute " + PAIMON_FIELD_ID + " is not a number: " + value);
        }
    }
}
