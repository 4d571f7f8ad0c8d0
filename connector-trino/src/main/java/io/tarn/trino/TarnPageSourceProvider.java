package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.scan.SplitCodec;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.table.PaimonTable;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableCredentials;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.connector.MemoryUsageReportingPageSource;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import org.apache.arrow.memory.BufferAllocator;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

final class TarnPageSourceProvider
        implements ConnectorPageSourceProvider
{
    /**
     * The rule for dynamic filters in the reader: a column's dynamic filter of at most this many
     * values or ranges is applied exactly (row groups, pages, rows); a larger one is reduced to
     * its envelope, the one range from its lowest to its highest value, which only prunes row
     * groups and pages by statistics and is never tested per row ({@link DynamicFilterParts}).
     * Rows are left to Trino, which filters them by dynamic filters itself (dynamic row
     * filtering) after the join's build side has finished; and planning
     * ({@link TarnSplitSource}) applies the whole filter once per query, to skip files. Why: the
     * exact predicate is rebuilt for every split (sorting 10^5 values took 25-160 ms per split),
     * and in TestTarnDynamicFilters a join with a 100,000-value filter ran in 3.2 s with the exact
     * filter in the reader, 1.7 s with the envelope and 1.2 s with no filter in the reader, so
     * an exact large filter only added work that Trino does anyway. 1,000 is Trino's own
     * domain-compaction threshold for its Hive and Iceberg readers.
     */
    static final int DYNAMIC_FILTER_COMPACTION_THRESHOLD = 1000;

    private final TarnTables tables;
    private final TarnTypes types;
    private final BufferAllocator allocator;
    private final FileReadLimiter fileReads;

    TarnPageSourceProvider(TarnTables tables, TarnTypes types, BufferAllocator allocator, FileReadLimiter fileReads)
    {
        this.fileReads = requireNonNull(fileReads, "fileReads is null");
        this.tables = requireNonNull(tables, "tables is null");
        this.types = requireNonNull(types, "types is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public ConnectorPageSource createPageSource(
            ConnectorTransactionHandle transaction,
            ConnectorSession session,
            ConnectorSplit connectorSplit,
            ConnectorTableHandle tableHandle,
            Optional<ConnectorTableCredentials> tableCredentials,
            List<ColumnHandle> columns,
            DynamicFilter dynamicFilter,
            MemoryContext memoryContext)
    {
        // Trino learns the memory a page source holds (its getMemoryUsage) through the memory context
        return new MemoryUsageReportingPageSource(tarnPageSource(session, connectorSplit, tableHandle, columns, dynamicFilter), memoryContext);
    }

    private ConnectorPageSource tarnPageSource(ConnectorSession session, ConnectorSplit connectorSplit, ConnectorTableHandle tableHandle, List<ColumnHandle> columns, DynamicFilter dynamicFilter)
    {
        TarnSplit split = (TarnSplit) connectorSplit;
        TarnTableHandle handle = (TarnTableHandle) tableHandle;
        List<TarnColumnHandle> columnHandles = columns.stream().map(TarnColumnHandle.class::cast).toList();
        if (split.count().isPresent()) {
            return new TarnCountPageSource(split.count().getAsLong(), columnHandles.size());
        }
        PaimonTable table = tables.load(handle.schemaTableName());
        TableSchema schema;
        try {
            schema = table.schema(handle.schemaId());
        }
        catch (IOException e) {
            throw TarnExceptions.translate("Cannot read schema " + handle.schemaId() + " of table " + table.name(), e);
        }
        DynamicFilterParts dynamic = DynamicFilterParts.of(dynamicFilter.getCurrentPredicate().transformKeys(TarnColumnHandle.class::cast));
        // the table's own filter stays exact: IN and IN RANGES cost O(log n) per row however long
        TupleDomain<TarnColumnHandle> filter = handle.filter().intersect(dynamic.rowTested());
        if (filter.isNone() || filter.intersect(dynamic.pruningOnly()).isNone()) {
            return new TarnCountPageSource(0, -1);
        }
        Optional<Predicate> predicate = TarnPredicates.toPredicate(filter, schema.fields());
        Optional<Predicate> pruning = TarnPredicates.toPredicate(dynamic.pruningOnly(), schema.fields());
        // a filter still being collected prunes what is left to read once it completes
        Optional<LateDynamicFilter> late = dynamicFilter.isComplete() ? Optional.empty() : Optional.of(new LateDynamicFilter(dynamicFilter, schema.fields()));
        return new TarnPageSource(table, types, schema, SplitCodec.decode(split.dataSplit()), columnHandles, predicate, pruning, late, dynamic.counters(), handle.limit(),
                TarnSessionProperties.isFileIndexEnabled(session), allocator, fileReads);
    }

    /**
     * A dynamic filter cut in two by the rule of {@link #DYNAMIC_FILTER_COMPACTION_THRESHOLD}: the
     * columns whose domain is small enough to test on every row exactly, and the envelopes of the
     * others, which only skip row groups and pages by statistics (never tested per row: one range
     * that spans most of a column keeps nearly every row, and Trino filters the rows itself).
     */
    record DynamicFilterParts(TupleDomain<TarnColumnHandle> rowTested, TupleDomain<TarnColumnHandle> pruningOnly)
    {
        DynamicFilterParts
        {
            requireNonNull(rowTested, "rowTested is null");
            requireNonNull(pruningOnly, "pruningOnly is null");
        }

        static DynamicFilterParts of(TupleDomain<TarnColumnHandle> dynamicFilter)
        {
            if (dynamicFilter.isNone() || dynamicFilter.isAll()) {
                return new DynamicFilterParts(dynamicFilter, TupleDomain.all());
            }
            Map<TarnColumnHandle, Domain> rowTested = new LinkedHashMap<>();
            Map<TarnColumnHandle, Domain> pruningOnly = new LinkedHashMap<>();
            dynamicFilter.getDomains().orElseThrow().forEach((column, domain) -> {
                Domain envelope = domain.simplify(DYNAMIC_FILTER_COMPACTION_THRESHOLD);
                if (envelope.equals(domain)) {
                    rowTested.put(column, domain);
                }
                else {
                    pruningOnly.put(column, envelope);
                }
            });
            return new DynamicFilterParts(TupleDomain.withColumnDomains(rowTested), TupleDomain.withColumnDomains(pruningOnly));
        }

        /**
         * The columns of each part, for the page source's metrics.
         */
        Map<String, Long> counters()
        {
            return Map.of(
                    "dynamic_filter_columns_row_tested", (long) rowTested.getDomains().map(Map::size).orElse(0),
                    "dynamic_filter_columns_pruning_only", (long) pruningOnly.getDomains().map(Map::size).orElse(0));
        }
    }
}
