package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Scenario;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.orc.FileOrcDataSource;
import io.trino.orc.OrcColumn;
import io.trino.orc.OrcDataSource;
import io.trino.orc.OrcPredicate;
import io.trino.orc.OrcReader;
import io.trino.orc.OrcReaderOptions;
import io.trino.orc.OrcRecordReader;
import io.trino.orc.TupleDomainOrcPredicate;
import io.trino.orc.metadata.CompressionKind;
import io.trino.spi.block.Block;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.DateType;
import io.trino.spi.type.Type;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.joda.time.DateTimeZone;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.tarn.benchmarks.BenchmarkScan.KINDS;
import static io.tarn.benchmarks.BenchmarkScan.SHIPDATE;
import static io.tarn.benchmarks.BenchmarkScan.arrowChecksum;
import static io.tarn.benchmarks.BenchmarkScan.columns;
import static io.tarn.benchmarks.BenchmarkScan.filterEpochDay;
import static io.tarn.benchmarks.BenchmarkScan.intValue;
import static io.tarn.benchmarks.BenchmarkScan.trinoChecksum;
import static io.tarn.benchmarks.BenchmarkScan.trinoType;

/**
 * Scans the scan benchmark's lineitem-like rows ({@link ScanTableGenerator}), written by Apache
 * Paimon's own writer as ORC with ZSTD ({@code file.format=orc}, {@code file.compression=zstd}),
 * on one thread with three readers of the same files: Tarn's ORC reader through
 * {@link TableRead} (plan, then a {@code SplitReader} per split), Apache Paimon's own table read
 * (its ORC reader), and Trino's ORC reader ({@code trino-orc}: {@code OrcReader} and
 * {@code OrcRecordReader} over each data file).
 *
 * <p>Every reader touches every value it returns, folding it (or a string's byte length) into the
 * same checksum as {@link BenchmarkScan}. In the filter scenario each reader is given the filter
 * {@code shipdate < }{@link BenchmarkScan#filterDate()} its own way: Tarn as its predicate (pruning
 * and row filtering inside the reader), Paimon as a {@code Predicate} on its read builder (which
 * prunes stripes and row groups only, so each row it returns is tested), Trino as a
 * {@link TupleDomainOrcPredicate} (pruning only; the benchmark loads the {@code shipdate} block,
 * selects positions, then loads the other blocks). {@code shipdate} is not correlated with the
 * write order, so no stripe or row group can be skipped: every reader decodes the column in full.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {
        "-Xms4g",
        "-Xmx4g",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow",
        "--enable-native-access=ALL-UNNAMED",
        "--add-modules=jdk.incubator.vector"})
public class BenchmarkOrc
{
    public enum Engine
    {
        TARN("Tarn"),
        PAIMON("Paimon " + paimonVersion() + " ORC reader"),
        TRINO("Trino " + trinoVersion() + " ORC reader");

        private final String label;

        Engine(String label)
        {
            this.label = label;
        }

        public String label()
        {
            return label;
        }
    }

    /**
     * The table options of the benchmark table besides {@link ScanTableGenerator}'s defaults.
     */
    public static final Map<String, String> TABLE_OPTIONS = Map.of("file.format", "orc", "file.compression", "zstd");

    static {
        // airlift's SizeOf asks JOL for object layouts, and JOL first tries to attach HotSpot's
        // serviceability agent in a child process, which takes some 40 s and then fails anyway
        if (System.getProperty("jol.skipHotspotSAAttach") == null) {
            System.setProperty("jol.skipHotspotSAAttach", "true");
        }
    }

    @Param("10000000")
    public long rows;

    // the directory caching generated tables; empty means the tarn.bench.orc.data system property or target/orc-data
    @Param("")
    public String dataDirectory;

    private Path warehouse;
    private PaimonTable tarnTable;
    private Table paimonTable;
    private List<Path> dataFiles;
    private long stripes;
    private long matchingRows;
    private BufferAllocator allocator;

    @Setup(Level.Trial)
    @SuppressWarnings("try") // Catalog.close() declares Exception; setup() passes it on
    public void setup()
            throws Exception
    {
        warehouse = CachedWarehouse.ensure(dataDirectory().resolve("rows-" + rows), rows, location -> ScanTableGenerator.generate(location, rows, TABLE_OPTIONS));
        tarnTable = PaimonTable.load(
                new FileSystemCatalog(new LocalFileIO(), warehouse.toString()),
                io.tarn.storage.catalog.Identifier.parse(ScanTableGenerator.tableName()));
        try (Catalog catalog = PlanningTableGenerator.openCatalog(warehouse)) {
            paimonTable = catalog.getTable(org.apache.paimon.catalog.Identifier.fromString(ScanTableGenerator.tableName()));
        }
        List<Path> files = new ArrayList<>();
        for (DataSplit split : tarnPlan(false).splits()) {
            for (PlannedFile file : split.files()) {
                files.add(localPath(tarnTable.dataFilePath(split.partition(), split.bucket(), file.file(), file.file().fileName())));
            }
        }
        dataFiles = List.copyOf(files);
        long stripeCount = 0;
        for (Path file : dataFiles) {
            try (OrcDataSource source = new FileOrcDataSource(file.toFile(), new OrcReaderOptions())) {
                OrcReader reader = OrcReader.createOrcReader(source, new OrcReaderOptions())
                        .orElseThrow(() -> new IllegalStateException("Data file " + file + " is empty"));
                if (reader.getCompressionKind() != CompressionKind.ZSTD) {
                    throw new IllegalStateException("Data file " + file + " is compressed with " + reader.getCompressionKind() + ", not ZSTD");
                }
                stripeCount += reader.getFooter().getStripes().size();
            }
        }
        stripes = stripeCount;
        matchingRows = countMatchingRows();
        allocator = new RootAllocator();
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }

    private Path dataDirectory()
    {
        if (!dataDirectory.isEmpty()) {
            return Path.of(dataDirectory);
        }
        return Path.of(System.getProperty("tarn.bench.orc.data", "target/orc-data"));
    }

    /**
     * The release of Apache Paimon on the class path, from its bundle's manifest.
     */
    static String paimonVersion()
    {
        return version(Table.class, "1.4.2");
    }

    /**
     * The release of Trino's ORC reader on the class path, from its jar's manifest.
     */
    static String trinoVersion()
    {
        return version(OrcReader.class, "483");
    }

    private static String version(Class<?> type, String expected)
    {
        String version = type.getPackage().getImplementationVersion();
        return version == null ? expected : version;
    }

    public Path warehouse()
    {
        return warehouse;
    }

    public List<Path> dataFiles()
    {
        return dataFiles;
    }

    public long stripes()
    {
        return stripes;
    }

    public long dataBytes()
    {
        long bytes = 0;
        for (Path file : dataFiles) {
            try {
                bytes += Files.size(file);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return bytes;
    }

    /**
     * The rows a scan of {@code scenario} must return: the table's rows, or for the filter those
     * whose {@code shipdate} Paimon reads (without any filter given to it) are before the filter date.
     */
    public long expectedRows(Scenario scenario)
    {
        return scenario == Scenario.FILTER ? matchingRows : rows;
    }

    private long countMatchingRows()
            throws IOException
    {
        int filterDay = filterEpochDay();
        ReadBuilder builder = paimonTable.newReadBuilder().withProjection(new int[] {SHIPDATE});
        long[] counts = new long[2];
        PaimonReads.scan(builder, builder.newScan().plan().splits(), null, row -> {
            counts[0]++;
            if (!row.isNullAt(0) && row.getInt(0) < filterDay) {
                counts[1]++;
            }
            return 0;
        });
        if (counts[0] != rows) {
            throw new IllegalStateException("Table " + warehouse + " holds " + counts[0] + " rows, not " + rows);
        }
        return counts[1];
    }

    public static String describe(Scenario scenario)
    {
        return BenchmarkScan.describe(scenario);
    }

    // ---- JMH entry points: one per engine and scenario

    @Benchmark
    public ScanResult tarnAllColumns()
    {
        return scan(Engine.TARN, Scenario.ALL_COLUMNS);
    }

    @Benchmark
    public ScanResult tarnTwoColumns()
    {
        return scan(Engine.TARN, Scenario.TWO_COLUMNS);
    }

    @Benchmark
    public ScanResult tarnFilter()
    {
        return scan(Engine.TARN, Scenario.FILTER);
    }

    @Benchmark
    public ScanResult paimonAllColumns()
    {
        return scan(Engine.PAIMON, Scenario.ALL_COLUMNS);
    }

    @Benchmark
    public ScanResult paimonTwoColumns()
    {
        return scan(Engine.PAIMON, Scenario.TWO_COLUMNS);
    }

    @Benchmark
    public ScanResult paimonFilter()
    {
        return scan(Engine.PAIMON, Scenario.FILTER);
    }

    @Benchmark
    public ScanResult trinoAllColumns()
    {
        return scan(Engine.TRINO, Scenario.ALL_COLUMNS);
    }

    @Benchmark
    public ScanResult trinoTwoColumns()
    {
        return scan(Engine.TRINO, Scenario.TWO_COLUMNS);
    }

    @Benchmark
    public ScanResult trinoFilter()
    {
        return scan(Engine.TRINO, Scenario.FILTER);
    }

    public ScanResult scan(Engine engine, Scenario scenario)
    {
        return scan(engine, columns(scenario), scenario == Scenario.FILTER);
    }

    /**
     * Scans {@code columns} (indexes into {@link ScanTableGenerator#COLUMNS}, in table order when
     * {@code filter} is set) with {@code engine}, all rows or those passing the filter.
     */
    public ScanResult scan(Engine engine, int[] columns, boolean filter)
    {
        try {
            return switch (engine) {
                case TARN -> tarnScan(columns, filter);
                case PAIMON -> paimonScan(columns, filter);
                case TRINO -> trinoScan(columns, filter);
            };
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- Tarn

    private ScanPlan tarnPlan(boolean filter)
            throws IOException
    {
        ScanPlanner planner = new ScanPlanner(tarnTable);
        if (filter) {
            planner = planner.withFilter(tarnShipdateFilter());
        }
        return planner.plan(tarnTable.snapshot(new ScanVersion.Latest()));
    }

    private io.tarn.index.predicate.Predicate tarnShipdateFilter()
    {
        return Predicates.lessThan(FieldRef.of(tarnField(SHIPDATE)), filterEpochDay());
    }

    private DataField tarnField(int column)
    {
        String name = ScanTableGenerator.COLUMNS.get(column);
        return tarnTable.schema().rowType().field(name)
                .orElseThrow(() -> new IllegalStateException("Table " + tarnTable.name() + " has no column " + name));
    }

    private ScanResult tarnScan(int[] columns, boolean filter)
            throws IOException
    {
        List<DataField> fields = new ArrayList<>();
        for (int column : columns) {
            fields.add(tarnField(column));
        }
        ReadRequest request = ReadRequest.of(fields);
        if (filter) {
            request = request.withFilter(tarnShipdateFilter());
        }
        long[] totals = new long[2];
        TableRead.forEachBatch(tarnTable, tarnPlan(filter), request, allocator, batch -> {
            int batchRows = batch.getRowCount();
            totals[0] += batchRows;
            for (int i = 0; i < columns.length; i++) {
                totals[1] += arrowChecksum(batch.getVector(i), batchRows, KINDS.get(columns[i]));
            }
        });
        return new ScanResult(totals[0], totals[1]);
    }

    // ---- Paimon

    private ScanResult paimonScan(int[] columns, boolean filter)
            throws IOException
    {
        ReadBuilder builder = paimonTable.newReadBuilder().withProjection(columns);
        org.apache.paimon.predicate.Predicate predicate = null;
        if (filter) {
            // the filter scenario reads every column in table order, so the predicate's indexes hold for the rows read
            predicate = new PredicateBuilder(paimonTable.rowType()).lessThan(SHIPDATE, filterEpochDay());
            builder = builder.withFilter(predicate);
        }
        List<Split> splits = builder.newScan().plan().splits();
        return PaimonReads.scan(builder, splits, predicate, (InternalRow row) -> BenchmarkScan.paimonChecksum(row, columns));
    }

    // ---- Trino

    private ScanResult trinoScan(int[] columns, boolean filter)
            throws IOException
    {
        OrcReaderOptions options = new OrcReaderOptions();
        int filterDay = filterEpochDay();
        long count = 0;
        long checksum = 0;
        int[] selected = new int[OrcReader.MAX_BATCH_SIZE];
        for (Path file : dataFiles) {
            try (OrcDataSource source = new FileOrcDataSource(file.toFile(), options);
                    OrcRecordReader reader = trinoReader(file, source, columns, filter, options)) {
                SourcePage page;
                while ((page = reader.nextPage()) != null) {
                    int positions = page.getPositionCount();
                    if (selected.length < positions) {
                        selected = new int[positions];
                    }
                    int selectedCount;
                    if (filter) {
                        // load the filter column first; Trino's reader decodes the others only when asked
                        Block shipdates = page.getBlock(SHIPDATE);
                        selectedCount = 0;
                        for (int position = 0; position < positions; position++) {
                            if (!shipdates.isNull(position) && intValue(shipdates, position) < filterDay) {
                                selected[selectedCount++] = position;
                            }
                        }
                        if (selectedCount == 0) {
                            continue;
                        }
                    }
                    else {
                        for (int position = 0; position < positions; position++) {
                            selected[position] = position;
                        }
                        selectedCount = positions;
                    }
                    count += selectedCount;
                    for (int i = 0; i < columns.length; i++) {
                        checksum += trinoChecksum(page.getBlock(i), selected, selectedCount, KINDS.get(columns[i]));
                    }
                }
            }
        }
        return new ScanResult(count, checksum);
    }

    private static OrcRecordReader trinoReader(Path file, OrcDataSource source, int[] columns, boolean filter, OrcReaderOptions options)
            throws IOException
    {
        OrcReader reader = OrcReader.createOrcReader(source, options)
                .orElseThrow(() -> new IllegalStateException("Data file " + file + " is empty"));
        List<OrcColumn> fileColumns = reader.getRootColumn().getNestedColumns();
        List<OrcColumn> readColumns = new ArrayList<>();
        List<Type> readTypes = new ArrayList<>();
        for (int column : columns) {
            readColumns.add(column(file, fileColumns, ScanTableGenerator.COLUMNS.get(column)));
            readTypes.add(trinoType(KINDS.get(column)));
        }
        OrcPredicate predicate = OrcPredicate.TRUE;
        if (filter) {
            OrcColumn shipdate = column(file, fileColumns, ScanTableGenerator.COLUMNS.get(SHIPDATE));
            predicate = TupleDomainOrcPredicate.builder()
                    .addColumn(shipdate.getColumnId(), Domain.create(ValueSet.ofRanges(Range.lessThan(DateType.DATE, (long) filterEpochDay())), false))
                    .build();
        }
        return reader.createRecordReader(
                readColumns,
                readTypes,
                false,
                predicate,
                DateTimeZone.UTC,
                AggregatedMemoryContext.newSimpleAggregatedMemoryContext(),
                OrcReader.INITIAL_BATCH_SIZE,
                exception -> new IllegalStateException("Trino cannot read " + file, exception));
    }

    private static OrcColumn column(Path file, List<OrcColumn> fileColumns, String name)
    {
        for (OrcColumn column : fileColumns) {
            if (column.getColumnName().equals(name)) {
                return column;
            }
        }
        throw new IllegalStateException("Data file " + file + " has no column " + name);
    }

    // ---- helpers

    private static Path localPath(String location)
    {
        if (location.startsWith("file:")) {
            return Path.of(URI.create(location));
        }
        return Path.of(location);
    }
}
