package io.tarn.storage.sort;

import java.util.Locale;

/**
 * How sort-compact orders the rows of a partition by its sort columns: plainly (by the first
 * column, ties by the next), by z-value, or by Hilbert value. Z-order and Hilbert order keep rows
 * that are close in every sort column close in the files, so a range on any of the columns skips
 * files; plain order mainly helps the first column.
 */
public enum SortStrategy
{
    ORDER,
    ZORDER,
    HILBERT;

    /**
     * The strategy Paimon names {@code order}, {@code zorder} or {@code hilbert}.
     */
    public static SortStrategy fromName(String name)
    {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "order" -> ORDER;
            case "zorder" -> ZORDER;
            case "hilbert" -> HILBERT;
            default -> throw new IllegalArgumentException("Unknown sort strategy '" + name + "'; expected order, zorder or hilbert");
        };
    }
}
