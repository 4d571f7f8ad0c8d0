package io.tarn.vector.orc;

/**
 * The statistics of one ORC column over a row group, a stripe or a file, gathered as orc-core's
 * writer gathers them (its {@code ColumnStatisticsImpl}) so that readers pruning by them, and
 * Paimon taking a file's statistics from its footer, see what they would in a file of Paimon's
 * writer: a row group's statistics follow the values in order, a stripe's merge its row groups',
 * the file's merge its stripes'. Comparisons are ORC's: {@code <} on doubles (a NaN met first
 * stays minimum and maximum, NaN met later changes nothing), unsigned bytes on strings, whose
 * bounds longer than 1,024 bytes are kept truncated as lower and upper bounds.
 * <p>
 * Each kind of statistics orc-core keeps has its own subclass, which {@link #create} picks by
 * the column's ORC type; the column writers update the one of their kind directly.
 */
abstract class StatisticsBuilder
{
    long count;
    boolean hasNull;

    static StatisticsBuilder create(OrcType.Kind kind, int precision, int scale)
    {
        return switch (kind) {
            case BOOLEAN -> new BooleanStatistics();
            case BYTE, SHORT, INT, LONG -> new IntegerStatistics();
            case FLOAT, DOUBLE -> new DoubleStatistics();
            case STRING, VARCHAR, CHAR -> new StringStatistics();
            case BINARY -> new BinaryStatistics();
            case DECIMAL -> new DecimalStatistics(precision, scale);
            case DATE -> new DateStatistics();
            case TIMESTAMP, TIMESTAMP_INSTANT -> new TimestampStatistics();
            case LIST, MAP -> new CollectionStatistics();
            default -> new StructStatistics();
        };
    }

    /**
     * A new, empty builder of the same kind.
     */
    abstract StatisticsBuilder empty();

    void addNull()
    {
        hasNull = true;
    }

    /**
     * Adds the statistics of {@code other}, which is of the same kind.
     */
    void merge(StatisticsBuilder other)
    {
        count += other.count;
        hasNull |= other.hasNull;
        mergeValues(other);
    }

    abstract void mergeValues(StatisticsBuilder other);

    /**
     * The {@code ColumnStatistics} message.
     */
    final ProtobufWriter serialize()
    {
        ProtobufWriter message = new ProtobufWriter().writeUnsigned(1, count);
        serializeValues(message);
        return message.writeBoolean(10, hasNull);
    }

    abstract void serializeValues(ProtobufWriter message);

    void updateLong(long value)
    {
        throw new UnsupportedOperationException(getClass().getSimpleName());
    }
}
