package io.tarn.vector.avro;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileUnsupportedException;
import org.apache.avro.Schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Decoders that move past a value of an Avro schema without keeping it: the fields a read does
 * not project, and the records a row selection leaves out. Array and map blocks that state
 * their byte size are jumped over whole. Also tells the fewest bytes a value of a schema can
 * take, which bounds the item counts of arrays and maps.
 * <p>
 * A schema that refers to itself (a recursive record) would make these trees infinite; Paimon
 * never writes one, and it is rejected as unsupported.
 */
final class AvroSkipper
{
    private final String file;
    private final Set<Schema> open = Collections.newSetFromMap(new IdentityHashMap<>());

    private AvroSkipper(String file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    static ValueDecoder forSchema(Schema schema, String file)
            throws DataFileUnsupportedException
    {
        return new AvroSkipper(file).skipper(schema);
    }

    /**
     * The fewest bytes a value of {@code schema} takes, at least 1 (a value of 0 bytes, such as
     * {@code null}, would let an array claim any number of items in no space; Paimon writes
     * none).
     */
    static int minBytes(Schema schema, String file)
            throws DataFileUnsupportedException
    {
        return Math.max(1, new AvroSkipper(file).min(schema));
    }

    private int min(Schema schema)
            throws DataFileUnsupportedException
    {
        return switch (schema.getType()) {
            case NULL -> 0;
            case BOOLEAN, INT, LONG, ENUM, STRING, BYTES, ARRAY, MAP, UNION -> 1;
            case FLOAT -> 4;
            case DOUBLE -> 8;
            case FIXED -> schema.getFixedSize();
            case RECORD -> {
                enter(schema);
                long bytes = 0;
                for (Schema.Field field : schema.getFields()) {
                    bytes += min(field.schema());
                }
                open.remove(schema);
                yield (int) Math.min(Integer.MAX_VALUE, bytes);
            }
        };
    }

    private void enter(Schema record)
            throws DataFileUnsupportedException
    {
        if (!open.add(record)) {
            throw new DataFileUnsupportedException("File " + file + " has a recursive Avro schema (record " + record.getFullName() + ")");
        }
    }

    private ValueDecoder skipper(Schema schema)
            throws DataFileUnsupportedException
    {
        return switch (schema.getType()) {
            case NULL -> new FixedSkip(0);
            case BOOLEAN -> new BooleanSkip();
            case INT, ENUM -> new IntSkip();
            case LONG -> new LongSkip();
            case FLOAT -> new FixedSkip(4);
            case DOUBLE -> new FixedSkip(8);
            case FIXED -> new FixedSkip(schema.getFixedSize());
            case STRING, BYTES -> new BytesSkip();
            case ARRAY -> new BlockSkip(null, skipper(schema.getElementType()), minBytes(schema.getElementType(), file));
            case MAP -> new BlockSkip(new BytesSkip(), skipper(schema.getValueType()), 1 + minBytes(schema.getValueType(), file));
            case UNION -> {
                List<ValueDecoder> branches = new ArrayList<>();
                for (Schema branch : schema.getTypes()) {
                    branches.add(skipper(branch));
                }
                yield new UnionSkip(branches);
            }
            case RECORD -> {
                enter(schema);
                List<ValueDecoder> fields = new ArrayList<>();
                for (Schema.Field field : schema.getFields()) {
                    fields.add(skipper(field.schema()));
                }
                open.remove(schema);
                yield new RecordSkip(fields);
            }
        };
    }

    private static final class FixedSkip
            extends ValueDecoder
    {
        private final int bytes;

        FixedSkip(int bytes)
        {
            this.bytes = bytes;
        }

        @Override
        void decode(AvroInput in)
        {
            in.skip(bytes);
        }
    }

    private static final class BooleanSkip
            extends ValueDecoder
    {
        @Override
        void decode(AvroInput in)
        {
            in.readBoolean();
        }
    }

    private static final class IntSkip
            extends ValueDecoder
    {
        @Override
        void decode(AvroInput in)
        {
            in.readInt();
        }
    }

    private static final class LongSkip
            extends ValueDecoder
    {
        @Override
        void decode(AvroInput in)
        {
            in.readLong();
        }
    }

    private static final class BytesSkip
            extends ValueDecoder
    {
        @Override
        void decode(AvroInput in)
        {
            in.skip(in.readLength());
        }
    }

    /**
     * Array items, or map keys and values.
     */
    private static final class BlockSkip
            extends ValueDecoder
    {
        private final ValueDecoder key;
        private final ValueDecoder item;
        private final int minItemBytes;

        BlockSkip(ValueDecoder key, ValueDecoder item, int minItemBytes)
        {
            this.key = key;
            this.item = requireNonNull(item, "item is null");
            this.minItemBytes = minItemBytes;
        }

        @Override
        void decode(AvroInput in)
        {
            while (true) {
                long count = in.readBlockCount(minItemBytes);
                if (count == 0) {
                    return;
                }
                if (in.blockBytes() >= 0) {
                    in.skip(in.blockBytes());
                    continue;
                }
                for (long i = 0; i < count; i++) {
                    if (key != null) {
                        key.decode(in);
                    }
                    item.decode(in);
                }
            }
        }
    }

    private static final class UnionSkip
            extends ValueDecoder
    {
        private final ValueDecoder[] branches;

        UnionSkip(List<ValueDecoder> branches)
        {
            this.branches = branches.toArray(new ValueDecoder[0]);
        }

        @Override
        void decode(AvroInput in)
        {
            int index = in.readInt();
            if (index < 0 || index >= branches.length) {
                throw new CorruptDataException("Avro union index " + index + " of a union of " + branches.length + " types");
            }
            branches[index].decode(in);
        }
    }

    private static final class RecordSkip
            extends ValueDecoder
    {
        private final ValueDecoder[] fields;

        RecordSkip(List<ValueDecoder> fields)
        {
            this.fields = fields.toArray(new ValueDecoder[0]);
        }

        @Override
        void decode(AvroInput in)
        {
            for (ValueDecoder field : fields) {
                field.decode(in);
            }
        }
    }
}
