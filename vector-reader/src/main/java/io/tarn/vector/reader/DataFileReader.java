package io.tarn.vector.reader;

import io.tarn.index.predicate.Predicate;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.filter.LeafMatches;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one data file, whatever its format (Parquet, ORC, Avro), into Arrow batches of the
 * {@link ReadOptions}' columns, matched to the file's columns by Paimon field id.
 * <p>
 * Contract every format keeps, so that the table layer (deletion vectors, late materialization,
 * merge-on-read) works on any of them:
 * <ul>
 * <li>batches hold file rows in file order; with a row selection only the selected positions;</li>
 * <li>{@link #batchPositions(int[])} tells the file position of each row of the current batch;</li>
 * <li>the options' filter only skips stretches of rows whose statistics or indexes prove no row
 * matches; it never removes a single row and never a row that may match;</li>
 * <li>a column the file lacks (added to the table later) reads as nulls;</li>
 * <li>a broken file fails with a {@link DataFileCorruptionException}, a feature the reader lacks
 * with a {@link DataFileUnsupportedException}, each naming the file;</li>
 * <li>the reader allocates only from a child of the allocator it was given, which
 * {@link #close()} releases.</li>
 * </ul>
 * Optional capabilities (page-level filter verdicts, dictionary ids, carried columns) are
 * answered with empty results by formats without them; callers then evaluate the decoded values.
 */
public interface DataFileReader
        extends AutoCloseable
{
    /**
     * The batch of the last successful {@link #nextBatch()}: owned by the reader, valid until
     * the next call to {@code nextBatch()} or {@code close()}; its buffers are reused.
     */
    VectorSchemaRoot root();

    /**
     * Rows in the file according to its own metadata, before any skipping.
     */
    long fileRowCount();

    /**
     * Fills {@link #root()} with the next batch of between 1 and the options' batch size rows, in
     * file order; false (and an empty root) at the end of the file. A failure leaves the reader
     * unusable except for {@link #close()}.
     */
    boolean nextBatch()
            throws IOException;

    /**
     * Writes the positions in the file of the current batch's rows, ascending, into
     * {@code positions[0, root().getRowCount())}.
     */
    void batchPositions(int[] positions)
            throws IOException;

    /**
     * The heap this reader holds between batches, beyond its Arrow memory.
     */
    long retainedHeapBytes();

    /**
     * A snapshot of the counters so far.
     */
    ReaderMetrics metrics();

    /**
     * The verdicts of the filter's equality tests that this batch answered without decoding
     * (see {@link ReadOptions}) or without comparing every row (once per dictionary entry), keyed
     * by the filter's leaves (compare by identity). A leaf missing here is tested on the decoded
     * values by the caller; formats that have neither shortcut return an empty map.
     */
    Map<Predicate, LeafMatches> filterMatches();

    /**
     * The dictionary ids of output column {@code column} in the current batch, when the options
     * ask for them and the format kept them; empty otherwise.
     */
    Optional<DictionaryIds> dictionaryIds(int column);

    /**
     * A new reader of the same file with other options, on the file metadata this reader already
     * read. The columns whose field ids are keys of {@code carried} may take their values from
     * there (the values of exactly the rows the options select, which a filter pass collected)
     * instead of from the file; a format that decodes them again gives the same values. The
     * reader does not close the carried columns; the two readers are independent.
     */
    DataFileReader reopen(ReadOptions options, BufferAllocator allocator, Map<Integer, CarriedColumn> carried)
            throws IOException;

    /**
     * {@link #reopen(ReadOptions, BufferAllocator, Map)} without carried columns.
     */
    default DataFileReader reopen(ReadOptions options, BufferAllocator allocator)
            throws IOException
    {
        return reopen(options, allocator, Map.of());
    }

    /**
     * Releases the batch and the reader's allocator; idempotent.
     */
    @Override
    void close();
}
