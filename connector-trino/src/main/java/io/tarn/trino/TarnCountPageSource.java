package io.tarn.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.util.Optional;

/**
 * The single row of a {@code count(*)} answered from manifests; with a negative column count,
 * no row at all (a split a dynamic filter proved empty).
 */
final class TarnCountPageSource
        implements ConnectorPageSource
{
    private final long count;
    private final int columns;
    private boolean finished;

    TarnCountPageSource(long count, int columns)
    {
        this.count = count;
        this.columns = columns;
        this.finished = columns < 0;
    }

    @Override
    public SourcePage getNextSourcePage()
    {
        if (finished) {
            return null;
        }
        finished = true;
        Block[] blocks = new Block[columns];
        for (int i = 0; i < columns; i++) {
            blocks[i] = new LongArrayBlock(1, Optional.empty(), new long[] {count});
        }
        return SourcePage.create(new Page(1, blocks));
    }

    @Override
    public long getCompletedBytes()
    {
        return 0;
    }

    @Override
    public long getReadTimeNanos()
    {
        return 0;
    }

    @Override
    public boolean isFinished()
    {
        return finished;
    }

    @Override
    public void close() {}
}
