package io.tarn.vector.writer;

import io.tarn.types.RowType;
import org.apache.arrow.vector.FieldVector;

import java.util.List;

/**
 * The statistics of every top-level field of a file being written, gathered from the Arrow
 * batches as they are written, in any format.
 */
public final class FileStatistics
{
    private final List<StatisticsCollector> collectors;

    public FileStatistics(RowType schema)
    {
        this.collectors = schema.fields().stream().map(StatisticsCollector::new).toList();
    }

    /**
     * Adds the first {@code rows} values of each vector, one per top-level field in schema order.
     */
    public void update(List<FieldVector> vectors, int rows)
    {
        if (vectors.size() != collectors.size()) {
            throw new IllegalArgumentException("Expected " + collectors.size() + " vectors, got " + vectors.size());
        }
        for (int i = 0; i < vectors.size(); i++) {
            collectors.get(i).update(vectors.get(i), 0, rows);
        }
    }

    public List<ColumnStatistics> result()
    {
        return collectors.stream().map(StatisticsCollector::result).toList();
    }
}
