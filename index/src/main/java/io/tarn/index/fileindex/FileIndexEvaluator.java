package io.tarn.index.fileindex;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicate.AlwaysFalse;
import io.tarn.index.predicate.Predicate.And;
import io.tarn.index.predicate.Predicate.Comparison;
import io.tarn.index.predicate.Predicate.In;
import io.tarn.index.predicate.Predicate.InRanges;
import io.tarn.index.predicate.Predicate.IsNotNull;
import io.tarn.index.predicate.Predicate.IsNull;
import io.tarn.index.predicate.Predicate.Not;
import io.tarn.index.predicate.Predicate.Or;
import io.tarn.index.predicate.Predicates;
import io.tarn.index.predicate.SqlComparison;
import io.tarn.types.AtomicType;
import io.tarn.types.DataType;
import io.tarn.types.Timestamp;
import io.tarn.types.TypeRoot;
import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Evaluates a filter against the file indexes of one data file. Bloom filters answer {@code =}
 * and {@code IN} with keep or skip; bitmap indexes answer {@code =}, {@code <>}, {@code IN},
 * {@code NOT IN}, {@code IS NULL} and {@code IS NOT NULL} with the rows that can match (SQL
 * semantics: {@code <>} and {@code NOT IN} never match a null); AND intersects, OR unites, and
 * everything else keeps every row. Several indexes on one column are all applied. FLOAT /
 * DOUBLE literals compare as SQL does ({@link io.tarn.index.predicate.SqlComparison}): the indexes
 * key values by their bits, so a zero literal is looked up as both 0.0 and -0.0, and a NaN literal,
 * which equals no value, is not looked up at all ({@code <>} and {@code NOT IN} then keep every
 * non-null row, NaN rows included). {@code <>} and {@code NOT IN} on timestamps of
 * precision above 6, or with a literal finer than the index keys (millis up to precision 3, else
 * micros), keep every row. Index types other than Bloom filter and bitmap (BSI, range bitmap) are not read, and are counted in {@link Evaluation#indexesIgnored()}.
 * An empty index (its writer saw no row) skips {@code =}, {@code IN} and {@code IS NOT NULL},
 * as Paimon's does.
 */
public final class FileIndexEvaluator
{
    // a Bloom filter larger than this per looked-up value is probed a byte per hash function
    // rather than read whole: on a local file, a handful of one-byte reads cost about what
    // copying this many bytes does
    static final int PROBED_PAYLOAD_BYTES_PER_VALUE = 64 * 1024;
    // an IN list longer than this (a join's dynamic filter) is not looked up value by value: per
    // file, that would cost more than reading the file's row groups it might save
    static final int MAX_LOOKED_UP_VALUES = 1024;

    private final FileIndexFile file;
    private final ColumnResolver columns;
    private final long rowCount;
    private final Map<FileIndexFile.Index, Object> readers = new HashMap<>();
    private int indexesUsed;
    private int indexesIgnored;

    /**
     * Where a filter column's indexes are in a file: the column name in the file's head
     * ({@code "c"} or {@code "m[key]"}) and the type of its values in the file.
     */
    public record IndexColumn(String name, DataType type)
    {
        public IndexColumn
        {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /**
     * Maps a filter column to its indexed column in the file; empty when the file's indexes may
     * not answer for it (the column is missing or changed in the file's schema).
     */
    public interface ColumnResolver
    {
        Optional<IndexColumn> column(FieldRef field);
    }

    /**
     * The result, how many indexes took part, and how many were not read because their type is
     * not supported.
     */
    public record Evaluation(FileIndexResult result, int indexesUsed, int indexesIgnored)
    {
        public Evaluation
        {
            requireNonNull(result, "result is null");
        }
    }

    private FileIndexEvaluator(FileIndexFile file, ColumnResolver columns, long rowCount)
    {
        this.file = file;
        this.columns = columns;
        this.rowCount = rowCount;
    }

    /**
     * Evaluates {@code filter} for a data file of {@code rowCount} rows.
     *
     * @throws CorruptIndexException if an index the filter needs is corrupt or disagrees with the
     * row count; the caller should then ignore the file's indexes
     * @throws IOException if the payload of an index the filter needs cannot be read
     */
    public static Evaluation evaluate(FileIndexFile file, Predicate filter, ColumnResolver columns, long rowCount)
            throws IOException
    {
        requireNonNull(file, "file is null");
        requireNonNull(filter, "filter is null");
        requireNonNull(columns, "columns is null");
        FileIndexEvaluator evaluator = new FileIndexEvaluator(file, columns, rowCount);
        FileIndexResult result = evaluator.visit(Predicates.pushNotDown(filter));
        return new Evaluation(result, evaluator.indexesUsed, evaluator.indexesIgnored);
    }

    private FileIndexResult visit(Predicate predicate)
            throws IOException
    {
        if (predicate instanceof And and) {
            FileIndexResult result = null;
            for (Predicate child : and.children()) {
                FileIndexResult childResult = visit(child);
                result = result == null ? childResult : result.and(childResult);
                if (result.skip()) {
                    return result;
                }
            }
            return result == null ? FileIndexResult.REMAIN : result;
        }
        if (predicate instanceof Or or) {
            FileIndexResult result = FileIndexResult.SKIP;
            for (Predicate child : or.children()) {
                result = result.or(visit(child));
                if (result instanceof FileIndexResult.Remain) {
                    return result;
                }
            }
            return result;
        }
        if (predicate instanceof AlwaysFalse) {
            return FileIndexResult.SKIP;
        }
        FieldRef field = leafField(predicate);
        if (field == null) {
            return FileIndexResult.REMAIN;
        }
        Optional<IndexColumn> column = columns.column(field);
        if (column.isEmpty()) {
            return FileIndexResult.REMAIN;
        }
        FileIndexResult result = FileIndexResult.REMAIN;
        for (FileIndexFile.Index index : file.indexes(column.get().name())) {
            result = result.narrow(leaf(predicate, index, column.get().type()));
            if (result.skip()) {
                return result;
            }
        }
        return result;
    }

    private FileIndexResult leaf(Predicate predicate, FileIndexFile.Index index, DataType type)
            throws IOException
    {
        boolean known = index.type().equals(BloomFilterIndex.TYPE) || index.type().equals(BitmapIndex.TYPE);
        if (!known) {
            indexesIgnored++;
            return FileIndexResult.REMAIN;
        }
        if (index.empty()) {
            indexesUsed++;
            boolean skips = predicate instanceof IsNotNull
                    || predicate instanceof In
                    || predicate instanceof InRanges
                    || (predicate instanceof Comparison comparison && comparison.op() == Comparison.Operator.EQUAL);
            return skips ? FileIndexResult.SKIP : FileIndexResult.REMAIN;
        }
        if (predicate instanceof InRanges || (predicate instanceof In in && in.literals().size() > MAX_LOOKED_UP_VALUES)
                || (predicate instanceof Not not && not.predicate() instanceof In in && in.literals().size() > MAX_LOOKED_UP_VALUES)) {
            // not looked up: the index is not even read
            return FileIndexResult.REMAIN;
        }
        if (index.type().equals(BloomFilterIndex.TYPE)) {
            return bloom(predicate, index, type);
        }
        if (negation(predicate) && !exactKeys(predicate, type)) {
            // a timestamp key drops digits: removing the rows of a key would remove other values too
            return FileIndexResult.REMAIN;
        }
        return bitmap(predicate, bitmapReader(index, type), valueEqualityIsKeyEquality(type) && exactKeys(predicate, type));
    }

    private BitmapIndex bitmapReader(FileIndexFile.Index index, DataType type)
            throws IOException
    {
        BitmapIndex bitmap = (BitmapIndex) readers.get(index);
        if (bitmap == null) {
            bitmap = BitmapIndex.read(type, file.payload(index));
            if (bitmap.rowCount() != rowCount) {
                throw new CorruptIndexException("Bitmap index of column " + index.column() + " covers " + bitmap.rowCount() + " rows, but the data file has " + rowCount);
            }
            readers.put(index, bitmap);
        }
        return bitmap;
    }

    private FileIndexResult bloom(Predicate predicate, FileIndexFile.Index index, DataType type)
            throws IOException
    {
        List<Object> values;
        if (predicate instanceof Comparison comparison && comparison.op() == Comparison.Operator.EQUAL) {
            values = List.of(comparison.literal());
        }
        else if (predicate instanceof In in && in.literals().size() <= MAX_LOOKED_UP_VALUES) {
            values = in.literals();
        }
        else {
            return FileIndexResult.REMAIN;
        }
        values = lookedUp(values);
        if (values.isEmpty()) {
            // only NaN literals, which no value equals
            indexesUsed++;
            return FileIndexResult.SKIP;
        }
        BloomFilterIndex bloom = (BloomFilterIndex) readers.get(index);
        if (bloom == null) {
            // a probe reads one byte per hash function: cheaper than the whole bit set while the
            // set is much larger than the bytes probed plus the cost of a read each
            bloom = index.length() >= (long) values.size() * PROBED_PAYLOAD_BYTES_PER_VALUE
                    ? BloomFilterIndex.probing(type, file, index)
                    : BloomFilterIndex.read(type, file.payload(index));
            readers.put(index, bloom);
        }
        indexesUsed++;
        for (Object value : values) {
            if (bloom.mightContain(value)) {
                return FileIndexResult.REMAIN;
            }
        }
        return FileIndexResult.SKIP;
    }

    /**
     * @param exact whether the rows of the predicate's keys are exactly the rows the predicate
     *         selects, so the result needs no second test
     */
    private FileIndexResult bitmap(Predicate predicate, BitmapIndex bitmap, boolean exact)
            throws CorruptIndexException
    {
        if (predicate instanceof Comparison comparison) {
            return switch (comparison.op()) {
                case EQUAL -> used(FileIndexResult.rows(union(bitmap, List.of(comparison.literal())), exact));
                case NOT_EQUAL -> used(FileIndexResult.rows(nonNullRowsWithout(bitmap, union(bitmap, List.of(comparison.literal()))), exact));
                default -> FileIndexResult.REMAIN;
            };
        }
        if (predicate instanceof In in && in.literals().size() <= MAX_LOOKED_UP_VALUES) {
            return used(FileIndexResult.rows(union(bitmap, in.literals()), exact));
        }
        if (predicate instanceof Not not && not.predicate() instanceof In in && in.literals().size() <= MAX_LOOKED_UP_VALUES) {
            return used(FileIndexResult.rows(nonNullRowsWithout(bitmap, union(bitmap, in.literals())), exact));
        }
        if (predicate instanceof IsNull) {
            return used(FileIndexResult.rows(bitmap.nullRows(), true));
        }
        if (predicate instanceof IsNotNull) {
            return used(FileIndexResult.rows(nonNullRowsWithout(bitmap, new RoaringBitmap()), true));
        }
        return FileIndexResult.REMAIN;
    }

    /**
     * Whether the rows of the keys {@link #lookedUp} gives for a literal are exactly the rows whose
     * values equal it. Not for decimals (a literal of another scale) and timestamps (keys drop
     * digits): there a bitmap result is only a superset.
     */
    private static boolean valueEqualityIsKeyEquality(DataType type)
    {
        return switch (type.root()) {
            case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, DATE, CHAR, VARCHAR, BINARY, VARBINARY, FLOAT, DOUBLE -> true;
            default -> false;
        };
    }

    private FileIndexResult used(FileIndexResult result)
    {
        indexesUsed++;
        return result;
    }

    private static RoaringBitmap union(BitmapIndex bitmap, List<Object> values)
            throws CorruptIndexException
    {
        RoaringBitmap rows = new RoaringBitmap();
        for (Object value : lookedUp(values)) {
            rows.or(bitmap.rows(value));
        }
        return rows;
    }

    private static RoaringBitmap nonNullRowsWithout(BitmapIndex bitmap, RoaringBitmap excluded)
            throws CorruptIndexException
    {
        RoaringBitmap rows = RoaringBitmap.bitmapOfRange(0, bitmap.rowCount());
        rows.andNot(excluded);
        rows.andNot(bitmap.nullRows());
        return rows;
    }

    private static boolean negation(Predicate predicate)
    {
        return predicate instanceof Not || (predicate instanceof Comparison comparison && comparison.op() == Comparison.Operator.NOT_EQUAL);
    }

    /**
     * Whether the bitmap keys of the predicate's literals stand for those values alone: always,
     * except for timestamps, whose keys are epoch millis (precision up to 3) or micros.
     */
    private static boolean exactKeys(Predicate predicate, DataType type)
    {
        if (type.root() != TypeRoot.TIMESTAMP && type.root() != TypeRoot.TIMESTAMP_LTZ) {
            return true;
        }
        int precision = ((AtomicType) type).precision();
        if (precision > 6) {
            return false;
        }
        List<Object> literals = predicate instanceof Comparison comparison ? List.of(comparison.literal()) : ((In) ((Not) predicate).predicate()).literals();
        int unit = precision <= 3 ? 1_000_000 : 1_000;
        return literals.stream().allMatch(literal -> ((Timestamp) literal).nanoOfMillisecond() % unit == 0);
    }

    private static FieldRef leafField(Predicate predicate)
    {
        if (predicate instanceof Comparison comparison) {
            return comparison.field();
        }
        if (predicate instanceof In in) {
            return in.field();
        }
        if (predicate instanceof Not not && not.predicate() instanceof In in) {
            return in.field();
        }
        if (predicate instanceof InRanges inRanges) {
            // only an empty index decides it: ranges are not looked up in Bloom filters or bitmaps
            return inRanges.field();
        }
        if (predicate instanceof IsNull isNull) {
            return isNull.field();
        }
        if (predicate instanceof IsNotNull isNotNull) {
            return isNotNull.field();
        }
        return null;
    }

    /**
     * The values whose index entries hold the rows equal to {@code literals} under SQL: a
     * floating-point zero stands for both zeros, which the indexes keep apart by their bits, and
     * NaN for nothing.
     */
    private static List<Object> lookedUp(List<Object> literals)
    {
        List<Object> values = new ArrayList<>(literals.size());
        for (Object literal : literals) {
            if (SqlComparison.isNaN(literal)) {
                continue;
            }
            values.add(literal);
            if (SqlComparison.isZero(literal)) {
                values.add(SqlComparison.otherZero(literal));
            }
        }
        return values;
    }
}
