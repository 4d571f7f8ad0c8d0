package io.tarn.vector.writer;

import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.Closeable;
import java.io.IOException;

/**
 * Writes Arrow batches of one schema into one data file, whatever its format. Batches stay owned
 * by the caller. {@link #finish()} completes the file; {@link #close()} releases the output,
 * finished or not (an unfinished file is left incomplete for the caller to delete).
 */
public interface DataFileWriter
        extends Closeable
{
    void write(VectorSchemaRoot batch)
            throws IOException;

    /**
     * The size the file has reached so far, written and still buffered, for rolling files at a
     * target size.
     */
    long bytesWritten();

    DataFileWriteResult finish()
            throws IOException;
}
