package io.tarn.benchmarks;

import io.trino.parquet.AbstractParquetDataSource;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.ParquetReaderOptions;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file for Trino's Parquet reader: trino-parquet ships the reader but leaves the file
 * system to the engine (Trino's own sources sit in its file-system modules), so the benchmark
 * gives it positional reads on a {@link FileChannel}.
 */
final class LocalParquetDataSource
        extends AbstractParquetDataSource
{
    private final Path path;
    private final FileChannel channel;

    private LocalParquetDataSource(Path path, FileChannel channel, ParquetReaderOptions options)
            throws IOException
    {
        super(new ParquetDataSourceId(path.toString()), channel.size(), options);
        this.path = path;
        this.channel = channel;
    }

    static LocalParquetDataSource open(Path path, ParquetReaderOptions options)
            throws IOException
    {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new LocalParquetDataSource(path, channel, options);
        }
        catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    protected void readInternal(long position, byte[] buffer, int bufferOffset, int bufferLength)
            throws IOException
    {
        ByteBuffer target = ByteBuffer.wrap(buffer, bufferOffset, bufferLength);
        long at = position;
        while (target.hasRemaining()) {
            int read = channel.read(target, at);
            if (read < 0) {
                throw new EOFException("Unexpected end of " + path + " at " + at);
            }
            at += read;
        }
    }

    @Override
    public void close()
            throws IOException
    {
        channel.close();
    }
}
