package io.tarn.trino;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.scan.SplitCodec;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilterSnapshot;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import io.trino.spi.predicate.TupleDomain;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Plans the pinned snapshot once dynamic filters are complete or the wait timed out, then hands
 * out the splits. The wait is bounded by {@code tarn.dynamic-filtering.wait-timeout}, which
 * Trino waits at most before the first batch; the dynamic filter known by then joins the pushed-down filter in planning, so files are skipped
 * by partition, bucket, statistics and file index (embedded, and in up to
 * {@code tarn.file-index.planning-max-files} index files) before a worker sees them.
 */
final class TarnSplitSource
        implements ConnectorSplitSource
{
    // a query planned into fewer files than this gets one split per file: a table of few files is
    // still read by several drivers at once, instead of one thread working through its files
    // (most of them skipped by their indexes) one after the other
    static final int MIN_SPLITS = 32;
    // on an object store a split fetches up to 8 of its files at once (FetchAheadQueue), while
    // Trino runs only so many splits of a task at once (at first as many as it has worker
    // threads): a few small files to a split keep more requests in flight than one each (a lookup over 32 files of 1 MB with
    // 20 ms latency: 0.33 s with 32 splits, 0.20 s with 8, 0.20 s with 4)
    static final int MIN_SPLITS_ON_OBJECT_STORES = 8;
    // a larger file is read by several splits, each a range of its rows (Trino's Hive connector
    // starts with splits of 32 MB too): a table of one large file, such as TPC-H's lineitem as
    // one CREATE TABLE AS writes it (one 150 MB file at SF1), is then read by every core, not one
    static final long FILE_RANGE_SIZE = 32L * 1024 * 1024;

    private final PaimonTable table;
    private final TarnTableHandle handle;
    private final boolean useFileIndexes;
    private final int indexFilesToPlan;
    private final long targetSize;
    private final long waitTimeoutMillis;
    private final long smallScanBytes;

    // the plan without dynamic filters, made before the wait to learn the scan's size
    private List<TarnSplit> unfiltered;
    private boolean waitSkipped;
    private Iterator<TarnSplit> splits;
    private Metrics metrics = Metrics.EMPTY;

    /**
     * @param dynamicFilterExpected whether a join may hand this scan a dynamic filter
     */
    TarnSplitSource(PaimonTable table, TarnTableHandle handle, TarnConfig config, boolean dynamicFilterExpected)
    {
        this.table = requireNonNull(table, "table is null");
        this.handle = requireNonNull(handle, "handle is null");
        this.useFileIndexes = config.isFileIndexEnabled();
        this.indexFilesToPlan = config.getFileIndexPlanningMaxFiles();
        this.targetSize = config.getSplitTargetSize().toBytes();
        this.waitTimeoutMillis = dynamicFilterExpected ? config.getDynamicFilteringWaitTimeout().roundTo(TimeUnit.MILLISECONDS) : 0;
        this.smallScanBytes = config.getDynamicFilteringSmallScanSize().toBytes();
    }

    @Override
    public long getRequestedDynamicFilterWaitTimeoutMillis()
    {
        // Trino waits this long (or until the dynamic filters are complete) before the first
        // batch. The wait lets a join's dynamic filter skip files before they become splits, but
        // it holds the scan back until the join's build side is done and its filter has reached
        // the coordinator. A small scan costs less than that: TPC-H Q14's part table (0.4 MB
        // read, one split) waited 0.77 s for a filter that kept all its rows. So the table is
        // planned first, and a scan of at most tarn.dynamic-filtering.small-scan-size does not
        // wait (its page sources still take the filter as it is when they open).
        if (waitTimeoutMillis == 0) {
            return 0;
        }
        unfiltered = plan(TupleDomain.all());
        long bytes = unfiltered.stream().mapToLong(TarnSplit::sizeInBytes).sum();
        if (bytes <= smallScanBytes) {
            waitSkipped = true;
            return 0;
        }
        return waitTimeoutMillis;
    }

    @Override
    public CompletableFuture<List<ConnectorSplit>> getNextBatch(int maxSize, DynamicFilterSnapshot dynamicFilterSnapshot)
    {
        if (splits == null) {
            TupleDomain<ColumnHandle> dynamicFilter = dynamicFilterSnapshot.currentPredicate();
            // a plan made before the wait holds for as long as no filter has arrived
            splits = (unfiltered != null && dynamicFilter.isAll() ? unfiltered : plan(dynamicFilter)).iterator();
            unfiltered = null;
            if (waitSkipped) {
                metrics = withCounter(metrics, "dynamic_filter_wait_skipped_small_scan", 1);
            }
        }
        List<ConnectorSplit> batch = new ArrayList<>();
        while (batch.size() < maxSize && splits.hasNext()) {
            batch.add(splits.next());
        }
        return CompletableFuture.completedFuture(batch);
    }

    private List<TarnSplit> plan(TupleDomain<ColumnHandle> dynamicFilter)
    {
        Optional<Snapshot> snapshot = TarnSnapshots.pinned(table, handle);
        try {
            TableSchema schema = table.schema(handle.schemaId());
            TupleDomain<TarnColumnHandle> dynamic = dynamicFilter.transformKeys(TarnColumnHandle.class::cast);
            TupleDomain<TarnColumnHandle> filter = handle.filter().intersect(dynamic);
            if (filter.isNone()) {
                metrics = counters(Map.of("dynamic_filter_none", 1L));
                return List.of();
            }
            Optional<Predicate> predicate = TarnPredicates.toPredicate(filter, schema.fields());
            ScanPlanner planner = new ScanPlanner(table).withSplitTargetSize(targetSize).withMinSplits(table.fileIO().objectStore() ? MIN_SPLITS_ON_OBJECT_STORES : MIN_SPLITS).withRowRangeSplits(Math.min(FILE_RANGE_SIZE, targetSize));
            if (!useFileIndexes) {
                planner = planner.withoutFileIndexes();
            }
            else {
                // a file its index rules out becomes no split: no task, driver or page source
                planner = planner.withIndexFiles(indexFilesToPlan);
            }
            if (predicate.isPresent()) {
                planner = planner.withFilter(predicate.get());
            }
            ScanPlan plan = planner.plan(snapshot);
            Map<String, Long> counters = new LinkedHashMap<>();
            plan.metrics().asMap().forEach((key, value) -> counters.put("planning." + key, value));
            counters.put("planning.dynamic_filter_used", dynamic.isAll() ? 0L : 1L);
            List<TarnSplit> result = new ArrayList<>();
            long rowsPlanned = 0;
            for (DataSplit split : plan.splits()) {
                if (handle.limit().isPresent() && handle.filter().isAll() && rowsPlanned >= handle.limit().getAsLong()) {
                    counters.merge("planning.splits_skipped_limit", 1L, Long::sum);
                    continue;
                }
                rowsPlanned += guaranteedRows(schema, split);
                double weight = Math.min(1.0, Math.max(0.01, (double) split.sizeInBytes() / targetSize));
                result.add(new TarnSplit(SplitCodec.encode(split), split.sizeInBytes(), split.rowCount(), weight, OptionalLong.empty()));
            }
            counters.put("splits", (long) result.size());
            metrics = counters(counters);
            return result;
        }
        catch (IOException | RuntimeException e) {
            throw TarnExceptions.translate("Cannot plan table " + table.name() + " at " + handle, e);
        }
    }

    /**
     * Rows the split surely returns when nothing filters it: the live rows of an append table's
     * files; zero when unknown (primary-key files may hold retractions, merging removes rows).
     */
    private static long guaranteedRows(TableSchema schema, DataSplit split)
    {
        if (!schema.primaryKeys().isEmpty() || split.mergeRequired()) {
            return 0;
        }
        if (split.rowRange().isPresent()) {
            // a deletion vector's rows are not known by range
            return split.files().get(0).deletionFile().isPresent() ? 0 : split.rowRange().get().rows();
        }
        long rows = 0;
        for (PlannedFile file : split.files()) {
            Optional<Long> live = file.liveRowCount();
            if (live.isEmpty()) {
                return 0;
            }
            rows += live.get();
        }
        return rows;
    }

    private static Metrics withCounter(Metrics metrics, String name, long value)
    {
        Map<String, Metric<?>> all = new LinkedHashMap<>(metrics.getMetrics());
        all.put(name, new LongCount(value));
        return new Metrics(all);
    }

    static Metrics counters(Map<String, Long> counters)
    {
        Map<String, Metric<?>> metrics = new LinkedHashMap<>();
        counters.forEach((key, value) -> metrics.put(key, new LongCount(value)));
        return new Metrics(metrics);
    }

    @Override
    public Metrics getMetrics()
    {
        return metrics;
    }

    @Override
    public boolean isFinished()
    {
        return splits != null && !splits.hasNext();
    }

    @Override
    public void close() {}
}
