package io.tarn.storage.sort;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What {@link SortCompaction} rewrites and how.
 *
 * @param strategy how rows are ordered
 * @param columns the sort columns by name, in order
 * @param partitions partition specs (column name to value as written in partition paths, e.g.
 * {@code dt -> 2024-01-01}); a partition is rewritten if any spec matches all its entries. Empty:
 * every partition.
 * @param memoryBudgetBytes rows buffered in memory before a sorted run is spilled to disk
 * @param spillDirectory where sorted runs are spilled; empty: the system's temporary directory
 */
public record SortCompactRequest(SortStrategy strategy, List<String> columns, List<Map<String, String>> partitions, long memoryBudgetBytes, Optional<Path> spillDirectory)
{
    public static final long DEFAULT_MEMORY_BUDGET = 128L << 20;

    public SortCompactRequest
    {
        requireNonNull(strategy, "strategy is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        partitions = requireNonNull(partitions, "partitions is null").stream().map(Map::copyOf).toList();
        requireNonNull(spillDirectory, "spillDirectory is null");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("Sort-compact needs at least one sort column");
        }
        if (strategy == SortStrategy.HILBERT && columns.size() < 2) {
            throw new IllegalArgumentException("Hilbert order needs at least two sort columns");
        }
        if (memoryBudgetBytes <= 0) {
            throw new IllegalArgumentException("memoryBudgetBytes must be positive: " + memoryBudgetBytes);
        }
    }

    public static SortCompactRequest of(SortStrategy strategy, List<String> columns)
    {
        return new SortCompactRequest(strategy, columns, List.of(), DEFAULT_MEMORY_BUDGET, Optional.empty());
    }

    public SortCompactRequest withPartitions(List<Map<String, String>> partitions)
    {
        return new SortCompactRequest(strategy, columns, partitions, memoryBudgetBytes, spillDirectory);
    }

    public SortCompactRequest withMemoryBudget(long bytes)
    {
        return new SortCompactRequest(strategy, columns, partitions, bytes, spillDirectory);
    }

    public SortCompactRequest withSpillDirectory(Path directory)
    {
        return new SortCompactRequest(strategy, columns, partitions, memoryBudgetBytes, Optional.of(directory));
    }
}
