package io.tarn.index.fileindex;

import org.roaringbitmap.RoaringBitmap;

import static java.util.Objects.requireNonNull;

/**
 * What file indexes say about the rows of one data file that can satisfy a filter:
 * {@link Remain} any row may, {@link Skip} none can, {@link Rows} only the rows (0-based
 * positions in the file) of a bitmap may. A result is always a superset of the matching rows.
 */
public sealed interface FileIndexResult
        permits FileIndexResult.Remain, FileIndexResult.Skip, FileIndexResult.Rows
{
    FileIndexResult REMAIN = new Remain();
    FileIndexResult SKIP = new Skip();

    /**
     * The result for a row set; an empty set skips the file.
     */
    static FileIndexResult rows(RoaringBitmap rows)
    {
        return rows.isEmpty() ? SKIP : new Rows(rows);
    }

    default boolean skip()
    {
        return this instanceof Skip;
    }

    /**
     * Rows that may satisfy both filters.
     */
    default FileIndexResult and(FileIndexResult other)
    {
        if (this instanceof Skip || other instanceof Remain) {
            return this;
        }
        if (this instanceof Remain || other instanceof Skip) {
            return other;
        }
        return rows(RoaringBitmap.and(((Rows) this).rows(), ((Rows) other).rows()));
    }

    /**
     * Rows that may satisfy either filter.
     */
    default FileIndexResult or(FileIndexResult other)
    {
        if (this instanceof Remain || other instanceof Skip) {
            return this;
        }
        if (this instanceof Skip || other instanceof Remain) {
            return other;
        }
        return rows(RoaringBitmap.or(((Rows) this).rows(), ((Rows) other).rows()));
    }

    record Remain()
            implements FileIndexResult {}

    record Skip()
            implements FileIndexResult {}

    /**
     * Only these rows may match. The bitmap is not empty and must not be changed.
     */
    record Rows(RoaringBitmap rows)
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
