package io.tarn.vector.orc;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What the column writers hand over when a stripe is complete: the row index stream of each
 * column (and its Bloom filters), the data streams, each column's encoding and statistics. Written as ORC lays a stripe
 * out: the index streams of all columns, then the data streams, each group in column order.
 */
final class StripeParts
{
    record Stream(int kind, int column, OrcOutputBuffer buffer) {}

    private final List<Stream> indexStreams = new ArrayList<>();
    private final List<Stream> dataStreams = new ArrayList<>();
    private final StripeFooter.Encoding.Kind[] encodings;
    private final StatisticsBuilder[] statistics;

    StripeParts(int columns)
    {
        this.encodings = new StripeFooter.Encoding.Kind[columns];
        this.statistics = new StatisticsBuilder[columns];
    }

    /**
     * Adds an index stream: a column's row index, then its Bloom filters if it has them, as
     * orc-core orders a stripe's index streams by column and then kind.
     */
    void addIndex(int kind, int column, OrcOutputBuffer buffer)
    {
        indexStreams.add(new Stream(kind, column, buffer));
    }

    void addData(int kind, int column, OrcOutputBuffer buffer)
    {
        dataStreams.add(new Stream(kind, column, buffer));
    }

    void setColumn(int column, StripeFooter.Encoding.Kind encoding, StatisticsBuilder stripeStatistics)
    {
        encodings[column] = encoding;
        statistics[column] = stripeStatistics;
    }

    StatisticsBuilder[] statistics()
    {
        return statistics;
    }

    long indexLength()
    {
        return length(indexStreams);
    }

    long dataLength()
    {
        return length(dataStreams);
    }

    private static long length(List<Stream> streams)
    {
        long length = 0;
        for (Stream stream : streams) {
            length += stream.buffer().storedSize();
        }
        return length;
    }

    void writeStreams(OutputStream out)
            throws IOException
    {
        for (Stream stream : indexStreams) {
            stream.buffer().writeTo(out);
        }
        for (Stream stream : dataStreams) {
            stream.buffer().writeTo(out);
        }
    }

    /**
     * The {@code StripeFooter} message: streams in the order written, one encoding per column,
     * and the writer's time zone when the file has timestamp columns.
     */
    ProtobufWriter footer(String writerTimeZone)
    {
        ProtobufWriter footer = new ProtobufWriter();
        for (List<Stream> streams : List.of(indexStreams, dataStreams)) {
            for (Stream stream : streams) {
                footer.writeMessage(1, new ProtobufWriter()
                        .writeUnsigned(1, stream.kind())
                        .writeUnsigned(2, stream.column())
                        .writeUnsigned(3, stream.buffer().storedSize()));
            }
        }
        for (StripeFooter.Encoding.Kind encoding : encodings) {
            footer.writeMessage(2, new ProtobufWriter().writeUnsigned(1, encoding.ordinal()));
        }
        if (writerTimeZone != null) {
            footer.writeString(3, writerTimeZone);
        }
        return footer;
    }
}
