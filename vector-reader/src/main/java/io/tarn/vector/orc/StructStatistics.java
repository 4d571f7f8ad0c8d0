package io.tarn.vector.orc;

/**
 * The statistics of a struct column (and of the root): only how many of its values are not null,
 * which orc-core records for a struct as for any column.
 */
final class StructStatistics
        extends StatisticsBuilder
{
    void addValue()
    {
        count++;
    }

    @Override
    StatisticsBuilder empty()
    {
        return new StructStatistics();
    }

    @Override
    void mergeValues(StatisticsBuilder other) {}

    @Override
    void serializeValues(ProtobufWriter message) {}
}
