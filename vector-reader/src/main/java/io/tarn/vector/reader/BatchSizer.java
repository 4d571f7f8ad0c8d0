package io.tarn.vector.reader;

import org.apache.parquet.format.RowGroup;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Sizes the batches of a read: the batch size, or fewer rows where that many would pass the
 * options' {@code maxBatchBytes}, estimated from a row group's uncompressed column sizes for
 * its first batch and from the decoded size of each batch for the next one (dictionary-encoded
 * values decode larger than they are stored).
 */
final class BatchSizer
{
    private final int batchSize;
    private final long maxBatchBytes;
    // the file leaves the read decodes
    private final List<Integer> leaves;
    private int rows;

    BatchSizer(ReadOptions options, List<Integer> leaves)
    {
        this.batchSize = options.batchSize();
        this.maxBatchBytes = options.maxBatchBytes();
        this.leaves = requireNonNull(leaves, "leaves is null");
    }

    /**
     * The rows of the next batch.
     */
    int rows()
    {
        return rows;
    }

    /**
     * Sizes the first batch of a row group of {@code rowGroupRows} rows by the uncompressed size
     * per row of the columns read.
     */
    void startRowGroup(RowGroup rowGroup, long rowGroupRows)
    {
        long bytes = 0;
        for (int leaf : leaves) {
            bytes += Math.max(0, rowGroup.getColumns().get(leaf).getMeta_data().getTotal_uncompressed_size());
        }
        rows = fittingRows((double) bytes / Math.max(1, rowGroupRows));
    }

    /**
     * Sizes the next batch by the bytes per row of the {@code batchRows} rows just read into
     * {@code readers}.
     */
    void measure(ColumnReader[] readers, int batchRows)
    {
        long bytes = 0;
        for (int leaf : leaves) {
            bytes += readers[leaf].batchBytes();
        }
        rows = fittingRows((double) bytes / batchRows);
    }

    private int fittingRows(double bytesPerRow)
    {
        if (bytesPerRow <= 0) {
            return batchSize;
        }
        return (int) Math.max(1, Math.min(batchSize, maxBatchBytes / bytesPerRow));
    }
}
