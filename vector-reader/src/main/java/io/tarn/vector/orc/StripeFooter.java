package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The footer of one stripe: its streams in file order (index streams first, then data streams),
 * the encoding of each column (by type id), and the time zone of the writer, which TIMESTAMP
 * values are relative to.
 */
record StripeFooter(List<Stream> streams, List<Encoding> encodings, Optional<String> writerTimezone, boolean encrypted)
{
    StripeFooter
    {
        streams = List.copyOf(streams);
        encodings = List.copyOf(encodings);
    }

    /**
     * One stream of a column.
     *
     * @param kind ORC's {@code Stream.Kind} number
     */
    record Stream(int kind, int column, long length)
    {
        static final int PRESENT = 0;
        static final int DATA = 1;
        static final int LENGTH = 2;
        static final int DICTIONARY_DATA = 3;
        static final int SECONDARY = 5;
        static final int ROW_INDEX = 6;
        static final int BLOOM_FILTER = 7;
        static final int BLOOM_FILTER_UTF8 = 8;

        boolean isIndex()
        {
            // row index, bloom filters and the encrypted index: before the data streams
            return kind == ROW_INDEX || kind == BLOOM_FILTER || kind == BLOOM_FILTER_UTF8 || kind == 9;
        }
    }

    /**
     * How a column is encoded in the stripe.
     */
    record Encoding(Kind kind, long dictionarySize)
    {
        enum Kind
        {
            DIRECT, DICTIONARY, DIRECT_V2, DICTIONARY_V2;

            boolean isV2()
            {
                return this == DIRECT_V2 || this == DICTIONARY_V2;
            }

            boolean isDictionary()
            {
                return this == DICTIONARY || this == DICTIONARY_V2;
            }
        }
    }

    static StripeFooter parse(ProtobufReader message)
    {
        List<Stream> streams = new ArrayList<>();
        List<Encoding> encodings = new ArrayList<>();
        String timezone = null;
        boolean encrypted = false;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> streams.add(parseStream(message.readMessage()));
                case 2 -> encodings.add(parseEncoding(message.readMessage()));
                case 3 -> timezone = message.readString();
                case 4 -> {
                    encrypted = true;
                    message.skip();
                }
                default -> message.skip();
            }
        }
        return new StripeFooter(streams, encodings, Optional.ofNullable(timezone).filter(zone -> !zone.isEmpty()), encrypted);
    }

    private static Stream parseStream(ProtobufReader message)
    {
        int kind = -1;
        int column = 0;
        long length = 0;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> kind = message.readUnsignedInt();
                case 2 -> column = message.readUnsignedInt();
                case 3 -> length = message.readUnsigned();
                default -> message.skip();
            }
        }
        return new Stream(kind, column, length);
    }

    private static Encoding parseEncoding(ProtobufReader message)
    {
        // DIRECT is the proto default
        long kind = 0;
        long dictionarySize = 0;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> kind = message.readUnsigned();
                case 2 -> dictionarySize = message.readUnsigned();
                default -> message.skip();
            }
        }
        if (kind >= Encoding.Kind.values().length) {
            throw new CorruptDataException("Column encoding " + kind + " is unknown");
        }
        return new Encoding(Encoding.Kind.values()[(int) kind], dictionarySize);
    }
}
