package io.tarn.trino;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.airlift.units.MaxDataSize;
import io.airlift.units.MaxDuration;
import io.airlift.units.MinDataSize;
import io.airlift.units.MinDuration;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The catalog properties. {@code warehouse} and {@code metastore} are spelled as in the Paimon
 * connector's filesystem catalog so that its properties file works here with only
 * {@code connector.name} changed.
 */
public class TarnConfig
{
    /**
     * The metastores Paimon's connector knows; only the file system one is implemented.
     */
    static final String FILESYSTEM_METASTORE = "filesystem";

    private String warehouse;
    // absent means the file system catalog, as for the Paimon connector
    private String metastore;
    // absent means SpillDirectory.defaultRoot()
    private String spillDirectory;
    private DataSize splitTargetSize = DataSize.of(128, DataSize.Unit.MEGABYTE);
    private Duration dynamicFilteringWaitTimeout = new Duration(1, TimeUnit.SECONDS);
    private DataSize dynamicFilteringSmallScanSize = DataSize.of(32, DataSize.Unit.MEGABYTE);
    private boolean fileIndexEnabled = true;
    private boolean collectStatisticsOnWrite = true;
    private boolean projectionPushdownEnabled = true;
    private int fileIndexPlanningMaxFiles = 1000;
    private long metadataCacheSize = 1000;
    private Duration metadataCacheTtl = new Duration(1, TimeUnit.MINUTES);
    private DataSize manifestCacheSize = DataSize.of(64, DataSize.Unit.MEGABYTE);
    private int maxConcurrentFileReads = 64;
    // Arrow memory lies outside the heap, up to the JVM's direct memory limit (by default the
    // maximum heap): the readers take a quarter of that
    private DataSize readerMaxMemory = DataSize.ofBytes(Runtime.getRuntime().maxMemory() / 4).succinct();

    /**
     * A copy to change, such as with a session's overrides, leaving the catalog's settings as
     * they are.
     */
    TarnConfig copy()
    {
        TarnConfig copy = new TarnConfig();
        copy.warehouse = warehouse;
        copy.metastore = metastore;
        copy.spillDirectory = spillDirectory;
        copy.splitTargetSize = splitTargetSize;
        copy.dynamicFilteringWaitTimeout = dynamicFilteringWaitTimeout;
        copy.dynamicFilteringSmallScanSize = dynamicFilteringSmallScanSize;
        copy.fileIndexEnabled = fileIndexEnabled;
        copy.collectStatisticsOnWrite = collectStatisticsOnWrite;
        copy.projectionPushdownEnabled = projectionPushdownEnabled;
        copy.fileIndexPlanningMaxFiles = fileIndexPlanningMaxFiles;
        copy.metadataCacheSize = metadataCacheSize;
        copy.metadataCacheTtl = metadataCacheTtl;
        copy.manifestCacheSize = manifestCacheSize;
        copy.maxConcurrentFileReads = maxConcurrentFileReads;
        copy.readerMaxMemory = readerMaxMemory;
        return copy;
    }

    @NotNull(message = "warehouse is required: the directory of the Paimon warehouse")
    public String getWarehouse()
    {
        return warehouse;
    }

    @Config("warehouse")
    @ConfigDescription("Root of the Paimon warehouse: a local path, a file: URI or an object-store location (s3://bucket/path, s3a://, oss://)")
    public TarnConfig setWarehouse(String warehouse)
    {
        this.warehouse = warehouse;
        return this;
    }

    public String getMetastore()
    {
        return metastore;
    }

    @Config("metastore")
    @ConfigDescription("Paimon catalog kind; only 'filesystem' is supported")
    public TarnConfig setMetastore(String metastore)
    {
        this.metastore = metastore == null ? null : metastore.trim().toLowerCase(Locale.ROOT);
        return this;
    }

    @AssertTrue(message = "metastore must be 'filesystem': Tarn reads Paimon's file system catalog only; the 'hive', 'jdbc' and 'rest' metastores are not supported yet")
    public boolean isMetastoreSupported()
    {
        return metastore == null || metastore.equals(FILESYSTEM_METASTORE);
    }

    public String getSpillDirectory()
    {
        return spillDirectory;
    }

    @Config("tarn.spill-directory")
    @ConfigDescription("Local directory that sort_compact spills sorted runs into (default <java.io.tmpdir>/tarn-spill); what killed servers left there is removed at start-up")
    public TarnConfig setSpillDirectory(String spillDirectory)
    {
        this.spillDirectory = spillDirectory;
        return this;
    }

    @NotNull
    @MinDataSize("1MB")
    @MaxDataSize("8GB")
    public DataSize getSplitTargetSize()
    {
        return splitTargetSize;
    }

    @Config("tarn.split-target-size")
    @ConfigDescription("Target size of the data in one split")
    public TarnConfig setSplitTargetSize(DataSize splitTargetSize)
    {
        this.splitTargetSize = splitTargetSize;
        return this;
    }

    @NotNull
    @MinDuration("0ms")
    @MaxDuration("1h")
    public Duration getDynamicFilteringWaitTimeout()
    {
        return dynamicFilteringWaitTimeout;
    }

    @Config("tarn.dynamic-filtering.wait-timeout")
    @ConfigDescription("How long split enumeration waits for dynamic filters")
    public TarnConfig setDynamicFilteringWaitTimeout(Duration dynamicFilteringWaitTimeout)
    {
        this.dynamicFilteringWaitTimeout = dynamicFilteringWaitTimeout;
        return this;
    }

    @NotNull
    @MaxDataSize("1TB")
    public DataSize getDynamicFilteringSmallScanSize()
    {
        return dynamicFilteringSmallScanSize;
    }

    @Config("tarn.dynamic-filtering.small-scan-size")
    @ConfigDescription("A scan of at most this much data does not wait for dynamic filters: it costs less than the wait could save")
    public TarnConfig setDynamicFilteringSmallScanSize(DataSize dynamicFilteringSmallScanSize)
    {
        this.dynamicFilteringSmallScanSize = dynamicFilteringSmallScanSize;
        return this;
    }

    public boolean isFileIndexEnabled()
    {
        return fileIndexEnabled;
    }

    @Config("tarn.file-index.enabled")
    @ConfigDescription("Use Bloom-filter and bitmap file indexes to skip files and rows")
    public TarnConfig setFileIndexEnabled(boolean fileIndexEnabled)
    {
        this.fileIndexEnabled = fileIndexEnabled;
        return this;
    }

    public boolean isCollectStatisticsOnWrite()
    {
        return collectStatisticsOnWrite;
    }

    @Config("tarn.collect-statistics-on-write")
    @ConfigDescription("CREATE TABLE AS computes the statistics ANALYZE would and commits them with the table's first snapshot")
    public TarnConfig setCollectStatisticsOnWrite(boolean collectStatisticsOnWrite)
    {
        this.collectStatisticsOnWrite = collectStatisticsOnWrite;
        return this;
    }

    public boolean isProjectionPushdownEnabled()
    {
        return projectionPushdownEnabled;
    }

    @Config("tarn.projection-pushdown-enabled")
    @ConfigDescription("Push ROW field dereferences into the scan, so that page sources return only the fields a query uses")
    public TarnConfig setProjectionPushdownEnabled(boolean projectionPushdownEnabled)
    {
        this.projectionPushdownEnabled = projectionPushdownEnabled;
        return this;
    }

    @Min(0)
    @Max(1_000_000)
    public int getFileIndexPlanningMaxFiles()
    {
        return fileIndexPlanningMaxFiles;
    }

    @Config("tarn.file-index.planning-max-files")
    @ConfigDescription("Index files the coordinator opens while planning a scan, to skip files before they become splits; workers check the rest; 0 leaves all to the workers")
    public TarnConfig setFileIndexPlanningMaxFiles(int fileIndexPlanningMaxFiles)
    {
        this.fileIndexPlanningMaxFiles = fileIndexPlanningMaxFiles;
        return this;
    }

    @Min(0)
    @Max(1_000_000)
    public long getMetadataCacheSize()
    {
        return metadataCacheSize;
    }

    @Config("tarn.metadata-cache.size")
    @ConfigDescription("Tables whose schemas and snapshots are cached; 0 disables the cache")
    public TarnConfig setMetadataCacheSize(long metadataCacheSize)
    {
        this.metadataCacheSize = metadataCacheSize;
        return this;
    }

    @NotNull
    @MinDuration("0ms")
    public Duration getMetadataCacheTtl()
    {
        return metadataCacheTtl;
    }

    @Config("tarn.metadata-cache.ttl")
    @ConfigDescription("How long a cached table stays valid")
    public TarnConfig setMetadataCacheTtl(Duration metadataCacheTtl)
    {
        this.metadataCacheTtl = metadataCacheTtl;
        return this;
    }

    @NotNull
    @MaxDataSize("1GB")
    public DataSize getManifestCacheSize()
    {
        return manifestCacheSize;
    }

    @Config("tarn.manifest-cache.size")
    @ConfigDescription("Estimated memory of decoded manifest files kept for planning; 0B disables the cache")
    public TarnConfig setManifestCacheSize(DataSize manifestCacheSize)
    {
        this.manifestCacheSize = manifestCacheSize;
        return this;
    }

    @Min(1)
    @Max(10_000)
    public int getMaxConcurrentFileReads()
    {
        return maxConcurrentFileReads;
    }

    @Config("tarn.max-concurrent-file-reads")
    @ConfigDescription("Data files a worker reads at the same time")
    public TarnConfig setMaxConcurrentFileReads(int maxConcurrentFileReads)
    {
        this.maxConcurrentFileReads = maxConcurrentFileReads;
        return this;
    }

    @NotNull
    @MinDataSize("1MB")
    public DataSize getReaderMaxMemory()
    {
        return readerMaxMemory;
    }

    @Config("tarn.reader.max-memory")
    @ConfigDescription("Arrow (off-heap) memory all page sources of a worker may hold at once; a read past it fails with TARN_READER_MEMORY_EXHAUSTED. Default: a quarter of the maximum heap")
    public TarnConfig setReaderMaxMemory(DataSize readerMaxMemory)
    {
        this.readerMaxMemory = readerMaxMemory;
        return this;
    }
}
