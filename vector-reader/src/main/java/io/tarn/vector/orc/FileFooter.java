package io.tarn.vector.orc;

import java.util.ArrayList;
import java.util.List;

/**
 * The file footer: the stripes, the flattened type tree, the row count, the file-level column
 * statistics (one per type node) and the row index stride.
 *
 * @param writer the writer implementation's code (0 ORC Java, 1 ORC C++, ...)
 * @param encrypted whether the file has encrypted columns, which Tarn does not read
 * @param calendar ORC's {@code CalendarKind}: 0 unknown, 1 Julian-Gregorian, 2 proleptic Gregorian
 */
record FileFooter(long headerLength, long contentLength, List<StripeInformation> stripes, List<OrcType> types, long numberOfRows, List<ColumnStatistics> statistics,
                  int rowIndexStride, int writer, boolean encrypted, int calendar)
{
    static final int PROLEPTIC_GREGORIAN = 2;

    FileFooter
    {
        stripes = List.copyOf(stripes);
        types = List.copyOf(types);
        statistics = List.copyOf(statistics);
    }

    static FileFooter parse(ProtobufReader message)
    {
        long headerLength = 0;
        long contentLength = 0;
        List<StripeInformation> stripes = new ArrayList<>();
        List<OrcType> types = new ArrayList<>();
        long rows = 0;
        List<ColumnStatistics> statistics = new ArrayList<>();
        int stride = 0;
        int writer = 0;
        boolean encrypted = false;
        int calendar = 0;
        for (int field = message.nextField(); field >= 0; field = message.nextField()) {
            switch (field) {
                case 1 -> headerLength = message.readUnsigned();
                case 2 -> contentLength = message.readUnsigned();
                case 3 -> stripes.add(StripeInformation.parse(message.readMessage()));
                case 4 -> types.add(OrcType.parse(message.readMessage()));
                case 6 -> rows = message.readUnsigned();
                case 7 -> statistics.add(ColumnStatistics.parse(message.readMessage()));
                case 8 -> stride = message.readUnsignedInt();
                case 9 -> writer = message.readUnsignedInt();
                case 10 -> {
                    encrypted = true;
                    message.skip();
                }
                case 11 -> calendar = message.readUnsignedInt();
                default -> message.skip();
            }
        }
        return new FileFooter(headerLength, contentLength, stripes, types, rows, statistics, stride, writer, encrypted, calendar);
    }
}
