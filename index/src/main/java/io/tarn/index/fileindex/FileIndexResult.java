package io.tarn.index.fileindex;

import org.roaringbitmap.RoaringBitmap;

import static java.util.Objects.requireNonNull;

/**
 * What file indexes say about the rows of one data file that can satisfy a filter:
 * {@link Remain} any row may, {@link Skip} none can, {@link Rows} only the rows (0-based
 * positions in the file) of a bitmap may. A result is always a superset of the matching rows;
 * {@link #exact()} says when it is the matching rows themselves, so that the filter need not be
 * tested again on them.
 */
public sealed interface FileIndexResult
        permits FileIndexResult.Remain, FileIndexResult.Skip, FileIndexResult.Rows
{
    FileIndexResult REMAIN = new Remain();
    FileIndexResult SKIP = new Skip();

    /**
     * The result for a row set that may hold rows not matching the filter; an empty set skips
     * the file.
     */
    static FileIndexResult rows(RoaringBitmap rows)
    {
        return rows(rows, false);
    }

    /**
     * The result for a row set; {@code exact} when it holds only rows matching the filter. An
     * empty set skips the file.
     */
    static FileIndexResult rows(RoaringBitmap rows, boolean exact)
    {
        return rows.isEmpty() ? SKIP : new Rows(rows, exact);
    }

    default boolean skip()
    {
        return this instanceof Skip;
    }

    /**
     * Whether exactly the rows of this result match the filter (none, for {@link Skip}).
     */
    default boolean exact()
    {
        return this instanceof Skip || (this instanceof Rows rows && rows.exactRows());
    }

    /**
     * Rows that may satisfy both filters; exact when both results are.
     */
    default FileIndexResult and(FileIndexResult other)
    {
        if (this instanceof Skip || other instanceof Skip) {
            return SKIP;
        }
        if (this instanceof Remain) {
            return other.inexact();
        }
        if (other instanceof Remain) {
            return inexact();
        }
        return rows(RoaringBitmap.and(((Rows) this).rows(), ((Rows) other).rows()), exact() && other.exact());
    }

    /**
     * Rows that may satisfy either filter; exact when both results are.
     */
    default FileIndexResult or(FileIndexResult other)
    {
        if (this instanceof Remain || other instanceof Remain) {
            return REMAIN;
        }
        if (this instanceof Skip) {
            return other;
        }
        if (other instanceof Skip) {
            return this;
        }
        return rows(RoaringBitmap.or(((Rows) this).rows(), ((Rows) other).rows()), exact() && other.exact());
    }

    /**
     * Two evaluations of the same filter (by different indexes of a column): the rows both
     * allow, exact when either is, since each is a superset of the matching rows.
     */
    default FileIndexResult narrow(FileIndexResult other)
    {
        if (this instanceof Skip || other instanceof Skip) {
            return SKIP;
        }
        if (this instanceof Remain) {
            return other;
        }
        if (other instanceof Remain) {
            return this;
        }
        return rows(RoaringBitmap.and(((Rows) this).rows(), ((Rows) other).rows()), exact() || other.exact());
    }

    private FileIndexResult inexact()
    {
        return this instanceof Rows rows && rows.exactRows() ? new Rows(rows.rows(), false) : this;
    }

    record Remain()
            implements FileIndexResult {}

    record Skip()
            implements FileIndexResult {}

    /**
     * Only these rows may match; with {@code exactRows}, each of them does. The bitmap is not
     * empty and must not be changed.
     */
    record Rows(RoaringBitmap rows, boolean exactRows)
            implements FileIndexResult
    {
        public Rows
        {
            requireNonNull(rows, "rows is null");
            if (rows.isEmpty()) {
                throw new IllegalArgumentException("An empty row set skips the file; use FileIndexResult.rows");
            }
        }
    }
}
