package io.tarn.trino;

import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.session.PropertyMetadata;

import java.util.List;

import static io.trino.plugin.base.session.PropertyMetadataUtil.dataSizeProperty;
import static io.trino.plugin.base.session.PropertyMetadataUtil.durationProperty;
import static io.trino.spi.StandardErrorCode.INVALID_SESSION_PROPERTY;
import static io.trino.spi.session.PropertyMetadata.booleanProperty;
import static java.util.Objects.requireNonNull;

/**
 * Session properties. Those named after a catalog property override it for the query; their
 * defaults are the catalog's values.
 */
final class TarnSessionProperties
{
    static final String INSERT_OVERWRITE = "insert_overwrite";
    static final String PROJECTION_PUSHDOWN_ENABLED = "projection_pushdown_enabled";
    static final String SPLIT_TARGET_SIZE = "split_target_size";
    static final String DYNAMIC_FILTERING_WAIT_TIMEOUT = "dynamic_filtering_wait_timeout";
    static final String DYNAMIC_FILTERING_SMALL_SCAN_SIZE = "dynamic_filtering_small_scan_size";
    static final String FILE_INDEX_ENABLED = "file_index_enabled";
    static final String COLLECT_STATISTICS_ON_WRITE = "collect_statistics_on_write";

    // the bounds of tarn.split-target-size
    private static final DataSize MIN_SPLIT_TARGET_SIZE = DataSize.of(1, DataSize.Unit.MEGABYTE);
    private static final DataSize MAX_SPLIT_TARGET_SIZE = DataSize.of(8, DataSize.Unit.GIGABYTE);
    // the bound of tarn.dynamic-filtering.wait-timeout
    private static final Duration MAX_DYNAMIC_FILTERING_WAIT_TIMEOUT = Duration.valueOf("1h");

    private final List<PropertyMetadata<?>> properties;

    TarnSessionProperties(TarnConfig config)
    {
        requireNonNull(config, "config is null");
        properties = List.of(
                booleanProperty(
                        INSERT_OVERWRITE,
                        "INSERT replaces the partitions it writes to (dynamic partition overwrite) instead of appending",
                        false,
                        false),
                booleanProperty(
                        PROJECTION_PUSHDOWN_ENABLED,
                        "Push ROW field dereferences into the scan, so that page sources return only the fields a query uses (tarn.projection-pushdown-enabled)",
                        config.isProjectionPushdownEnabled(),
                        false),
                dataSizeProperty(
                        SPLIT_TARGET_SIZE,
                        "Target size of the data in one split (tarn.split-target-size)",
                        config.getSplitTargetSize(),
                        TarnSessionProperties::checkSplitTargetSize,
                        false),
                durationProperty(
                        DYNAMIC_FILTERING_WAIT_TIMEOUT,
                        "How long split enumeration waits for dynamic filters (tarn.dynamic-filtering.wait-timeout)",
                        config.getDynamicFilteringWaitTimeout(),
                        TarnSessionProperties::checkDynamicFilteringWaitTimeout,
                        false),
                dataSizeProperty(
                        DYNAMIC_FILTERING_SMALL_SCAN_SIZE,
                        "A scan of at most this much data does not wait for dynamic filters (tarn.dynamic-filtering.small-scan-size)",
                        config.getDynamicFilteringSmallScanSize(),
                        _ -> {},
                        false),
                booleanProperty(
                        FILE_INDEX_ENABLED,
                        "Use Bloom-filter and bitmap file indexes to skip files and rows (tarn.file-index.enabled)",
                        config.isFileIndexEnabled(),
                        false),
                booleanProperty(
                        COLLECT_STATISTICS_ON_WRITE,
                        "CREATE TABLE AS computes the statistics ANALYZE would and commits them with the table (tarn.collect-statistics-on-write)",
                        config.isCollectStatisticsOnWrite(),
                        false));
    }

    List<PropertyMetadata<?>> properties()
    {
        return properties;
    }

    private static void checkSplitTargetSize(DataSize size)
    {
        if (size.compareTo(MIN_SPLIT_TARGET_SIZE) < 0 || size.compareTo(MAX_SPLIT_TARGET_SIZE) > 0) {
            throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be between %s and %s: %s".formatted(SPLIT_TARGET_SIZE, MIN_SPLIT_TARGET_SIZE, MAX_SPLIT_TARGET_SIZE, size));
        }
    }

    private static void checkDynamicFilteringWaitTimeout(Duration timeout)
    {
        if (timeout.compareTo(MAX_DYNAMIC_FILTERING_WAIT_TIMEOUT) > 0) {
            throw new TrinoException(INVALID_SESSION_PROPERTY, "%s must be at most %s: %s".formatted(DYNAMIC_FILTERING_WAIT_TIMEOUT, MAX_DYNAMIC_FILTERING_WAIT_TIMEOUT, timeout));
        }
    }

    static boolean isInsertOverwrite(ConnectorSession session)
    {
        return session.getProperty(INSERT_OVERWRITE, Boolean.class);
    }

    static boolean isProjectionPushdownEnabled(ConnectorSession session)
    {
        return session.getProperty(PROJECTION_PUSHDOWN_ENABLED, Boolean.class);
    }

    static boolean isFileIndexEnabled(ConnectorSession session)
    {
        return session.getProperty(FILE_INDEX_ENABLED, Boolean.class);
    }

    static boolean isCollectStatisticsOnWrite(ConnectorSession session)
    {
        return session.getProperty(COLLECT_STATISTICS_ON_WRITE, Boolean.class);
    }

    /**
     * The catalog's settings with this session's overrides, for planning a scan.
     */
    static TarnConfig scanConfig(TarnConfig catalog, ConnectorSession session)
    {
        return catalog.copy()
                .setSplitTargetSize(session.getProperty(SPLIT_TARGET_SIZE, DataSize.class))
                .setDynamicFilteringWaitTimeout(session.getProperty(DYNAMIC_FILTERING_WAIT_TIMEOUT, Duration.class))
                .setDynamicFilteringSmallScanSize(session.getProperty(DYNAMIC_FILTERING_SMALL_SCAN_SIZE, DataSize.class))
                .setFileIndexEnabled(isFileIndexEnabled(session));
    }
}
