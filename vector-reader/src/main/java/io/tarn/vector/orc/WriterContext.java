package io.tarn.vector.orc;

import java.util.TimeZone;

import static java.util.Objects.requireNonNull;

/**
 * What the column writers of one file share: the file's compression, its block size, and the
 * writer's time zone (the JVM's default when the file was started, as orc-core takes it).
 *
 * @param compressor null when the file is not compressed
 */
record WriterContext(ChunkCompressor compressor, int blockSize, TimeZone timeZone)
{
    WriterContext
    {
        requireNonNull(timeZone, "timeZone is null");
    }

    OrcOutputBuffer newBuffer()
    {
        return new OrcOutputBuffer(compressor, blockSize);
    }
}
