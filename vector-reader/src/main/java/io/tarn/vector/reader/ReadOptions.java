package io.tarn.vector.reader;

import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;
import org.roaringbitmap.RoaringBitmap;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * What a data file reader returns: {@code columns} in output order, matched to file columns
 * by field id; batches of at most {@code batchSize} rows, and fewer where that many would decode
 * to more than about {@code maxBatchBytes} (a batch holds at least one row); only the row positions in
 * {@code rowSelection} when present; {@code filter} only prunes row groups and pages by
 * statistics and never removes single rows.
 * <p>
 * With {@code matchFilterColumns}, the caller reads the columns only to evaluate
 * {@code filter}: a string or binary column that the filter tests in one place, by {@code =},
 * {@code <>} or {@code IN}, is then compared in the encoded pages and not decoded. Its vector
 * holds only nulls, and {@link DataFileReader#filterMatches()} gives that test's verdicts.
 * <p>
 * With {@code dictionaryIds}, string and binary columns also give the dictionary ids of their
 * values ({@link DataFileReader#dictionaryIds(int)}), for consumers that keep dictionary-encoded
 * data encoded.
 * <p>
 * The columns in {@code valuesAsDictionaryIds} (by field id) give their dictionary ids too, and
 * the caller takes their values from {@link DataFileReader#dictionaryIds(int)} wherever it is
 * present: a Parquet batch whose values of such a column all come from dictionary-encoded pages
 * holds them only as those ids, its vector only nulls. Decoding them would be wasted on a
 * consumer that hands the ids on (Trino's dictionary blocks). A column that {@code filter}
 * tests is decoded as usual.
 * <p>
 * {@code latePruning} is a filter that may arrive while the file is read (a join's dynamic
 * filter that was not complete when the read began): asked before each row group, and once it
 * answers, its answer must stay; from then on it prunes row groups by statistics, as
 * {@code filter} does. Row groups read before it arrived are read whole.
 */
public record ReadOptions(List<DataField> columns, int batchSize, Optional<RoaringBitmap> rowSelection, Optional<Predicate> filter, boolean matchFilterColumns,
                                 boolean dictionaryIds, Set<Integer> valuesAsDictionaryIds, long maxBatchBytes, Supplier<Optional<Predicate>> latePruning)
{
    private static final Supplier<Optional<Predicate>> NO_LATE_PRUNING = Optional::empty;

    public static final int DEFAULT_BATCH_SIZE = 4096;
    // a batch of long strings is cut short of the batch size here: what a split holds decoded
    public static final long DEFAULT_MAX_BATCH_BYTES = 4L << 20;

    public ReadOptions
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rowSelection, "rowSelection is null");
        requireNonNull(filter, "filter is null");
        requireNonNull(latePruning, "latePruning is null");
        valuesAsDictionaryIds = Set.copyOf(requireNonNull(valuesAsDictionaryIds, "valuesAsDictionaryIds is null"));
        if (batchSize <= 0) {
            throw new IllegalArgumentException("Batch size must be positive: " + batchSize);
        }
        if (maxBatchBytes <= 0) {
            throw new IllegalArgumentException("Maximum batch bytes must be positive: " + maxBatchBytes);
        }
        if (matchFilterColumns && filter.isEmpty()) {
            throw new IllegalArgumentException("Filter columns matched without a filter");
        }
    }

    public static ReadOptions of(List<DataField> columns)
    {
        return new ReadOptions(columns, DEFAULT_BATCH_SIZE, Optional.empty(), Optional.empty(), false, false, Set.of(), DEFAULT_MAX_BATCH_BYTES, NO_LATE_PRUNING);
    }

    public ReadOptions withBatchSize(int batchSize)
    {
        return new ReadOptions(columns, batchSize, rowSelection, filter, matchFilterColumns, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    public ReadOptions withRowSelection(RoaringBitmap rowSelection)
    {
        return new ReadOptions(columns, batchSize, Optional.of(rowSelection), filter, matchFilterColumns, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    public ReadOptions withFilter(Predicate filter)
    {
        return new ReadOptions(columns, batchSize, rowSelection, Optional.of(filter), matchFilterColumns, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    /**
     * These options for a read whose only purpose is to evaluate the filter (see the class
     * comment); the filter must be set.
     */
    public ReadOptions withFilterColumnsMatched()
    {
        return new ReadOptions(columns, batchSize, rowSelection, filter, true, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    /**
     * These options with dictionary ids of string and binary columns (see the class comment).
     */
    public ReadOptions withDictionaryIds()
    {
        return new ReadOptions(columns, batchSize, rowSelection, filter, matchFilterColumns, true, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    /**
     * These options with the values of columns {@code fieldIds} (string or binary columns, by
     * field id) left as dictionary ids where they can be (see the class comment).
     */
    public ReadOptions withValuesAsDictionaryIds(Set<Integer> fieldIds)
    {
        return new ReadOptions(columns, batchSize, rowSelection, filter, matchFilterColumns, dictionaryIds, fieldIds, maxBatchBytes, latePruning);
    }

    public ReadOptions withMaxBatchBytes(long maxBatchBytes)
    {
        return new ReadOptions(columns, batchSize, rowSelection, filter, matchFilterColumns, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    public ReadOptions withLatePruning(Supplier<Optional<Predicate>> latePruning)
    {
        return new ReadOptions(columns, batchSize, rowSelection, filter, matchFilterColumns, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, latePruning);
    }

    /**
     * These options without a filter, and without late pruning: every row of the selection is read.
     */
    public ReadOptions withoutFilter()
    {
        return new ReadOptions(columns, batchSize, rowSelection, Optional.empty(), false, dictionaryIds, valuesAsDictionaryIds, maxBatchBytes, NO_LATE_PRUNING);
    }
}
