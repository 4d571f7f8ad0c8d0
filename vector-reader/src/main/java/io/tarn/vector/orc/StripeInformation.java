package io.tarn.vector.orc;

/**
 * Where one stripe lies in the file: its index streams from {@code offset}, then its data
 * streams, then its footer; and how many rows it holds.
 */
record StripeInformation(long offset, long indexLength, long dataLength, long footerLength, long numberOfRows)
{
    static StripeInformation parse(ProtobufReader message)
    {
        long offset = 0;
        long indexLength = 0;
        long dataLength = 0;
        long footerLength = 0;
        long rows = 0;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> offset = message.readUnsigned();
                case 2 -> indexLength = message.readUnsigned();
                case 3 -> dataLength = message.readUnsigned();
                case 4 -> footerLength = message.readUnsigned();
                case 5 -> rows = message.readUnsigned();
                default -> message.skip();
            }
        }
        return new StripeInformation(offset, indexLength, dataLength, footerLength, rows);
    }

    /**
     * The end of the stripe in the file; the parts were checked not to overflow.
     */
    long end()
    {
        return offset + indexLength + dataLength + footerLength;
    }
}
