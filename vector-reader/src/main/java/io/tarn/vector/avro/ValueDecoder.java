package io.tarn.vector.avro;

import io.tarn.vector.CorruptDataException;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Decodes one Avro value at the cursor into a {@link ColumnBuilder} (or, for the skippers of
 * {@link AvroSkipper}, only moves the cursor past it). Decoders are built once per read for the
 * pair of the file's Avro schema and the requested Paimon type, so the per-value work is a
 * varint or a copy and an append, with no schema look-up.
 * <p>
 * The composite decoders here follow Avro's binary encoding: a union is its branch index and
 * the branch's value; arrays and maps are blocks of items, each block a count (negative: its
 * absolute value followed by the block's byte size) and a zero count at the end; map items are
 * a string key and a value; a record is its fields in schema order.
 */
abstract class ValueDecoder
{
    abstract void decode(AvroInput in);

    /**
     * A union of {@code null} and one other type: how Paimon writes every nullable type.
     */
    static final class Nullable
            extends ValueDecoder
    {
        private final int nullIndex;
        private final ValueDecoder value;
        private final ColumnBuilder builder;

        Nullable(int nullIndex, ValueDecoder value, ColumnBuilder builder)
        {
            this.nullIndex = nullIndex;
            this.value = requireNonNull(value, "value is null");
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            int index = in.readInt();
            if (index == nullIndex) {
                builder.appendNull();
            }
            else if (index == 1 - nullIndex) {
                value.decode(in);
            }
            else {
                throw new CorruptDataException("Avro union index " + index + " of a union of 2 types");
            }
        }
    }

    /**
     * The top-level record written as a union with null (a nullable row type): a row may not
     * be null.
     */
    static final class NonNullRecord
            extends ValueDecoder
    {
        private final int nullIndex;
        private final ValueDecoder record;

        NonNullRecord(int nullIndex, ValueDecoder record)
        {
            this.nullIndex = nullIndex;
            this.record = requireNonNull(record, "record is null");
        }

        @Override
        void decode(AvroInput in)
        {
            int index = in.readInt();
            if (index != 1 - nullIndex) {
                throw new CorruptDataException(index == nullIndex ? "Null Avro record" : "Avro union index " + index + " of a union of 2 types");
            }
            record.decode(in);
        }
    }

    /**
     * One Avro field read into several output columns (the same field requested twice): each
     * decodes the same bytes.
     */
    static final class Fanout
            extends ValueDecoder
    {
        private final ValueDecoder[] decoders;

        Fanout(List<ValueDecoder> decoders)
        {
            this.decoders = decoders.toArray(new ValueDecoder[0]);
        }

        @Override
        void decode(AvroInput in)
        {
            int start = in.position();
            for (ValueDecoder decoder : decoders) {
                in.position(start);
                decoder.decode(in);
            }
        }
    }

    /**
     * A record into a struct: its fields in the file's order, each decoded into a child of the
     * struct or skipped; the struct's children the file lacks get a null.
     */
    static final class Record
            extends ValueDecoder
    {
        private final ValueDecoder[] fields;
        private final ColumnBuilder[] missing;
        private final StructBuilder builder;
        // the field being decoded, for error messages
        private int field = -1;

        Record(List<ValueDecoder> fields, List<ColumnBuilder> missing, StructBuilder builder)
        {
            this.fields = fields.toArray(new ValueDecoder[0]);
            this.missing = missing.toArray(new ColumnBuilder[0]);
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            for (int i = 0; i < fields.length; i++) {
                field = i;
                fields[i].decode(in);
            }
            field = -1;
            for (ColumnBuilder column : missing) {
                column.appendNull();
            }
            builder.endStruct();
        }

        /**
         * The index of the field whose decoding failed, or -1.
         */
        int failedField()
        {
            return field;
        }
    }

    /**
     * An array into a list.
     */
    static final class Array
            extends ValueDecoder
    {
        private final ValueDecoder element;
        private final int minElementBytes;
        private final ListBuilder builder;

        Array(ValueDecoder element, int minElementBytes, ListBuilder builder)
        {
            this.element = requireNonNull(element, "element is null");
            this.minElementBytes = minElementBytes;
            this.builder = requireNonNull(builder, "builder is null");
        }

        @Override
        void decode(AvroInput in)
        {
            while (true) {
                long count = in.readBlockCount(minElementBytes);
                if (count == 0) {
                    break;
                }
                for (long i = 0; i < count; i++) {
                    element.decode(in);
                }
            }
            builder.endList();
        }
    }

    /**
     * An Avro map (string keys) into a list of key-value structs, in the file's order.
     */
    static final class StringMap
            extends ValueDecoder
    {
        private final BinaryBuilder keys;
        private final ValueDecoder value;
        private final int minItemBytes;
        private final StructBuilder entries;
        private final ListBuilder builder;

        StringMap(ValueDecoder value, int minValueBytes, ListBuilder builder)
        {
            this.builder = requireNonNull(builder, "builder is null");
            this.entries = (StructBuilder) builder.element();
            this.keys = (BinaryBuilder) entries.children().get(0);
            this.value = requireNonNull(value, "value is null");
            // a key takes at least its length byte
            this.minItemBytes = 1 + minValueBytes;
        }

        @Override
        void decode(AvroInput in)
        {
            while (true) {
                long count = in.readBlockCount(minItemBytes);
                if (count == 0) {
                    break;
                }
                for (long i = 0; i < count; i++) {
                    int length = in.readLength();
                    keys.appendBytes(in.buffer(), in.position(), length);
                    in.skip(length);
                    value.decode(in);
                    entries.endStruct();
                }
            }
            builder.endList();
        }
    }
}
