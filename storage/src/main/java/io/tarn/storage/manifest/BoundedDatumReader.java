package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.Decoder;

import java.io.IOException;

import static java.util.Objects.requireNonNull;

/**
 * Avro's generic reader of values of one schema from a {@link BoundedDecoder}, with fixed values
 * checked against the bytes left before they are allocated: their size comes from the writer
 * schema, which is as untrusted as the data.
 */
final class BoundedDatumReader
        extends GenericDatumReader<Object>
{
    private final BoundedDecoder decoder;

    BoundedDatumReader(Schema schema, BoundedDecoder decoder)
    {
        super(requireNonNull(schema, "schema is null"));
        this.decoder = requireNonNull(decoder, "decoder is null");
    }

    /** Reads the next value from the decoder this reader was made with. */
    Object read()
            throws IOException
    {
        return read(null, decoder);
    }

    @Override
    protected Object readFixed(Object old, Schema expected, Decoder in)
            throws IOException
    {
        if (expected.getFixedSize() > decoder.remaining()) {
            throw new CorruptFileException("Avro fixed value of " + expected.getFixedSize() + " bytes, but only " + decoder.remaining() + " bytes remain");
        }
        return super.readFixed(old, expected, in);
    }
}
