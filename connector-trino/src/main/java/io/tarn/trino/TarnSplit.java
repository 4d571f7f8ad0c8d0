package io.tarn.trino;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One unit of reading: an encoded {@code DataSplit} (see {@link io.tarn.storage.scan.SplitCodec}) with its size
 * and row count, or, for a {@code count(*)} answered from manifests, just the count.
 */
public record TarnSplit(
        @JsonProperty("dataSplit") byte[] dataSplit,
        @JsonProperty("sizeInBytes") long sizeInBytes,
        @JsonProperty("rowCount") long rowCount,
        @JsonProperty("weight") double weight,
        @JsonProperty("count") OptionalLong count)
        implements ConnectorSplit
{
    public TarnSplit
    {
        requireNonNull(dataSplit, "dataSplit is null");
        requireNonNull(count, "count is null");
    }

    static TarnSplit ofCount(long count)
    {
        return new TarnSplit(new byte[0], 0, 1, 0.01, OptionalLong.of(count));
    }

    @JsonIgnore
    @Override
    public SplitWeight getSplitWeight()
    {
        return SplitWeight.fromProportion(weight);
    }

    @JsonIgnore
    @Override
    public long getRetainedSizeInBytes()
    {
        return 64L + dataSplit.length;
    }
}
