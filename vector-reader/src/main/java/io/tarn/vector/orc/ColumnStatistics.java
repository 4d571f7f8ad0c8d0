package io.tarn.vector.orc;

/**
 * The statistics ORC keeps of one column over a file, a stripe or a row group, as stored: every
 * component is null when the writer left it out. Only what pruning uses is kept. String bounds
 * are the stored UTF-8 bytes ({@code lowerBound} / {@code upperBound} replace minimum / maximum
 * when those were too long to keep); timestamp bounds are the milliseconds ORC-135 writers keep
 * ({@code minimumUtc} / {@code maximumUtc}: a wall clock as if in UTC for TIMESTAMP, an instant
 * for TIMESTAMP_INSTANT).
 *
 * @param numberOfValues the non-null values (-1 when absent)
 * @param trueCount for booleans, how many values are true
 */
record ColumnStatistics(
        long numberOfValues,
        Boolean hasNull,
        Long integerMinimum,
        Long integerMaximum,
        Double doubleMinimum,
        Double doubleMaximum,
        Double doubleSum,
        byte[] stringMinimum,
        byte[] stringMaximum,
        byte[] stringLowerBound,
        byte[] stringUpperBound,
        Long trueCount,
        String decimalMinimum,
        String decimalMaximum,
        Integer dateMinimum,
        Integer dateMaximum,
        Long timestampMinimumUtc,
        Long timestampMaximumUtc)
{
    static final ColumnStatistics EMPTY = new ColumnStatistics(-1, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

    static ColumnStatistics parse(ProtobufReader message)
    {
        long numberOfValues = -1;
        Boolean hasNull = null;
        Long integerMinimum = null;
        Long integerMaximum = null;
        Double doubleMinimum = null;
        Double doubleMaximum = null;
        Double doubleSum = null;
        byte[] stringMinimum = null;
        byte[] stringMaximum = null;
        byte[] stringLowerBound = null;
        byte[] stringUpperBound = null;
        Long trueCount = null;
        String decimalMinimum = null;
        String decimalMaximum = null;
        Integer dateMinimum = null;
        Integer dateMaximum = null;
        Long timestampMinimumUtc = null;
        Long timestampMaximumUtc = null;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> numberOfValues = message.readUnsigned();
                case 2 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        switch (inner) {
                            case 1 -> integerMinimum = stats.readSigned();
                            case 2 -> integerMaximum = stats.readSigned();
                            default -> stats.skip();
                        }
                    }
                }
                case 3 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        switch (inner) {
                            case 1 -> doubleMinimum = stats.readDouble();
                            case 2 -> doubleMaximum = stats.readDouble();
                            case 3 -> doubleSum = stats.readDouble();
                            default -> stats.skip();
                        }
                    }
                }
                case 4 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        switch (inner) {
                            case 1 -> stringMinimum = stats.readBytes();
                            case 2 -> stringMaximum = stats.readBytes();
                            case 4 -> stringLowerBound = stats.readBytes();
                            case 5 -> stringUpperBound = stats.readBytes();
                            default -> stats.skip();
                        }
                    }
                }
                case 5 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        if (inner == 1 && trueCount == null) {
                            LongList counts = new LongList();
                            stats.readUnsignedRepeated(counts);
                            if (counts.size() > 0) {
                                trueCount = counts.toArray()[0];
                            }
                        }
                        else {
                            stats.skip();
                        }
                    }
                }
                case 6 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        switch (inner) {
                            case 1 -> decimalMinimum = stats.readString();
                            case 2 -> decimalMaximum = stats.readString();
                            default -> stats.skip();
                        }
                    }
                }
                case 7 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        switch (inner) {
                            case 1 -> dateMinimum = intOrNull(stats.readSigned());
                            case 2 -> dateMaximum = intOrNull(stats.readSigned());
                            default -> stats.skip();
                        }
                    }
                }
                case 9 -> {
                    ProtobufReader stats = message.readMessage();
                    for (int inner = stats.nextField(); inner >= 0; inner = stats.nextField()) {
                        switch (inner) {
                            case 3 -> timestampMinimumUtc = stats.readSigned();
                            case 4 -> timestampMaximumUtc = stats.readSigned();
                            default -> stats.skip();
                        }
                    }
                }
                case 10 -> hasNull = message.readBoolean();
                default -> message.skip();
            }
        }
        return new ColumnStatistics(numberOfValues, hasNull, integerMinimum, integerMaximum, doubleMinimum, doubleMaximum, doubleSum,
                stringMinimum, stringMaximum, stringLowerBound, stringUpperBound, trueCount, decimalMinimum, decimalMaximum,
                dateMinimum, dateMaximum, timestampMinimumUtc, timestampMaximumUtc);
    }

    private static Integer intOrNull(long value)
    {
        // a sint32 out of range is a broken bound: unknown
        return value == (int) value ? (int) value : null;
    }
}
