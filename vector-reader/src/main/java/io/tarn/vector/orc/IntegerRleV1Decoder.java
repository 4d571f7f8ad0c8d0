package io.tarn.vector.orc;

/**
 * ORC's integer run-length encoding version 1: a control byte 0..127 starts a run of
 * {@code control + 3} values from a varint base with a fixed delta byte (-128..127); -128..-1
 * starts {@code -control} literal varints.
 */
final class IntegerRleV1Decoder
        extends IntegerDecoder
{
    IntegerRleV1Decoder(DecompressedStream input, boolean signed)
    {
        super(input, signed, 130);
    }

    @Override
    void readRun(long[] target, int at)
    {
        int control = input.readByte();
        if (control < 0x80) {
            size = control + 3;
            long delta = (byte) input.readByte();
            long value = decode(readVarint());
            for (int i = 0; i < size; i++) {
                target[at + i] = value;
                value += delta;
            }
        }
        else {
            size = 0x100 - control;
            for (int i = 0; i < size; i++) {
                target[at + i] = decode(readVarint());
            }
        }
    }
}
