package io.tarn.benchmarks;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.Column;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.ParquetTypeUtils;
import io.trino.parquet.metadata.BlockMetadata;
import io.trino.parquet.metadata.ParquetMetadata;
import io.trino.parquet.metadata.PrunedBlockMetadata;
import io.trino.parquet.reader.MetadataReader;
import io.trino.parquet.reader.ParquetReader;
import io.trino.parquet.reader.RowGroupInfo;
import io.trino.spi.block.Block;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ValueBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Scans the same Paimon-written append table ({@link ScanTableGenerator}) on one thread with four
 * readers: Tarn's {@link SplitReader}, Apache Paimon 1.3.1's own table read, Trino's Parquet reader
 * ({@code trino-parquet}) on the table's data files, and DuckDB's {@code read_parquet} on the same
 * files with {@code threads = 1}.
 *
 * <p>Every reader must touch every value it returns, so none can skip decoding: the JVM readers
 * fold each value (or, for strings, its byte length) into a checksum, and DuckDB aggregates a hash
 * of every numeric column and the byte length of every string column. In the filter scenario every
 * reader returns exactly the rows with {@code shipdate < }{@link #filterDate()}: Tarn filters in its
 * reader, Paimon's read (which uses the filter only to skip files and row groups) and Trino's
 * reader (which has no row filter) are followed by the same test on each row, DuckDB evaluates its
 * {@code WHERE}.
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
        // Trino 483's Parquet reader uses the Vector API
        "--add-modules=jdk.incubator.vector"})
public class BenchmarkScan
{
    public enum Scenario
    {
        ALL_COLUMNS,
        TWO_COLUMNS,
        FILTER,
    }

    public enum Engine
    {
        TARN("Tarn"),
        PAIMON("Paimon 1.3.1 reader"),
        TRINO("Trino 483 Parquet reader"),
        DUCKDB("DuckDB (threads=1)");

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
     * What one scan returned: its row count and a checksum of its values (engine-specific, so only
     * the counts compare across engines).
     */
    public record ScanResult(long rows, long checksum) {}

    enum Kind
    {
        LONG,
        INT,
        DATE,
        SHORT_DECIMAL,
        STRING,
    }

    static final List<Kind> KINDS = List.of(
            Kind.LONG, Kind.LONG, Kind.INT, Kind.INT,
            Kind.SHORT_DECIMAL, Kind.SHORT_DECIMAL, Kind.SHORT_DECIMAL, Kind.SHORT_DECIMAL,
            Kind.STRING, Kind.STRING, Kind.DATE, Kind.DATE, Kind.DATE,
            Kind.STRING, Kind.STRING, Kind.STRING);
    static final int SHIPDATE = ScanTableGenerator.COLUMNS.indexOf("shipdate");
    static final int[] ALL = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    static final int[] TWO = {ScanTableGenerator.COLUMNS.indexOf("extendedprice"), ScanTableGenerator.COLUMNS.indexOf("discount")};
    // 25 of the 2526 ship days: about 0.99% of the rows
    private static final int FILTER_DAYS = 25;
    static final long MIX = 0x9E3779B97F4A7C15L;

    static {
        // airlift's SizeOf asks JOL for object layouts, and JOL first tries to attach HotSpot's
        // serviceability agent in a child process, which takes some 40 s and then fails anyway
        if (System.getProperty("jol.skipHotspotSAAttach") == null) {
            System.setProperty("jol.skipHotspotSAAttach", "true");
        }
    }

    @Param("10000000")
    public long rows;

    // the directory caching generated tables; empty means the tarn.bench.scan.data system property or target/scan-data
    @Param("")
    public String dataDirectory;

    private Path warehouse;
    private PaimonTable tarnTable;
    private Table paimonTable;
    private List<Path> dataFiles;
    private BufferAllocator allocator;
    private Connection duckdb;

    @Setup(Level.Trial)
    @SuppressWarnings("try") // Catalog.close() declares Exception; setup() passes it on
    public void setup()
            throws Exception
    {
        warehouse = ScanTableGenerator.cachedWarehouse(dataDirectory(), rows);
        tarnTable = PaimonTable.load(
                new FileSystemCatalog(new LocalFileIO(), warehouse.toString()),
                io.tarn.storage.catalog.Identifier.parse(ScanTableGenerator.tableName()));
        try (Catalog catalog = PlanningTableGenerator.openCatalog(warehouse)) {
            paimonTable = catalog.getTable(org.apache.paimon.catalog.Identifier.fromString(ScanTableGenerator.tableName()));
        }
        List<Path> files = new ArrayList<>();
        for (DataSplit split : tarnPlan(Scenario.ALL_COLUMNS).splits()) {
            for (PlannedFile file : split.files()) {
                files.add(localPath(tarnTable.dataFilePath(split.partition(), split.bucket(), file.file(), file.file().fileName())));
            }
        }
        dataFiles = List.copyOf(files);
        allocator = new RootAllocator();
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("SET threads = 1");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
            throws SQLException
    {
        try {
            if (duckdb != null) {
                duckdb.close();
                duckdb = null;
            }
        }
        finally {
            if (allocator != null) {
                allocator.close();
                allocator = null;
            }
        }
    }

    private Path dataDirectory()
    {
        if (!dataDirectory.isEmpty()) {
            return Path.of(dataDirectory);
        }
        return Path.of(System.getProperty("tarn.bench.scan.data", "target/scan-data"));
    }

    public Path warehouse()
    {
        return warehouse;
    }

    public List<Path> dataFiles()
    {
        return dataFiles;
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
     * The filter scenario keeps rows with {@code shipdate} before this day.
     */
    public static LocalDate filterDate()
    {
        return ScanTableGenerator.FIRST_SHIP_DATE.plusDays(FILTER_DAYS);
    }

    public static String describe(Scenario scenario)
    {
        return switch (scenario) {
            case ALL_COLUMNS -> "all 16 columns";
            case TWO_COLUMNS -> "2 of 16 columns (`extendedprice`, `discount`)";
            case FILTER -> "all 16 columns where `shipdate < DATE '" + filterDate() + "'`";
        };
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

    @Benchmark
    public ScanResult duckdbAllColumns()
    {
        return scan(Engine.DUCKDB, Scenario.ALL_COLUMNS);
    }

    @Benchmark
    public ScanResult duckdbTwoColumns()
    {
        return scan(Engine.DUCKDB, Scenario.TWO_COLUMNS);
    }

    @Benchmark
    public ScanResult duckdbFilter()
    {
        return scan(Engine.DUCKDB, Scenario.FILTER);
    }

    public ScanResult scan(Engine engine, Scenario scenario)
    {
        try {
            return switch (engine) {
                case TARN -> tarnScan(scenario);
                case PAIMON -> paimonScan(scenario);
                case TRINO -> trinoScan(scenario);
                case DUCKDB -> duckdbScan(scenario);
            };
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (SQLException e) {
            throw new IllegalStateException("DuckDB scan failed", e);
        }
    }

    static int[] columns(Scenario scenario)
    {
        return scenario == Scenario.TWO_COLUMNS ? TWO : ALL;
    }

    static int filterEpochDay()
    {
        return (int) filterDate().toEpochDay();
    }

    // ---- Tarn

    private ScanPlan tarnPlan(Scenario scenario)
            throws IOException
    {
        ScanPlanner planner = new ScanPlanner(tarnTable);
        if (scenario == Scenario.FILTER) {
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

    private ScanResult tarnScan(Scenario scenario)
            throws IOException
    {
        int[] columns = columns(scenario);
        List<DataField> fields = new ArrayList<>();
        for (int column : columns) {
            fields.add(tarnField(column));
        }
        ReadRequest request = ReadRequest.of(fields);
        if (scenario == Scenario.FILTER) {
            request = request.withFilter(tarnShipdateFilter());
        }
        ScanPlan plan = tarnPlan(scenario);
        long count = 0;
        long checksum = 0;
        for (DataSplit split : plan.splits()) {
            try (SplitReader reader = SplitReaders.open(tarnTable, plan.readSchema(), split, request, allocator)) {
                while (reader.nextBatch()) {
                    VectorSchemaRoot root = reader.root();
                    int batchRows = root.getRowCount();
                    count += batchRows;
                    for (int i = 0; i < columns.length; i++) {
                        checksum += arrowChecksum(root.getVector(i), batchRows, KINDS.get(columns[i]));
                    }
                }
            }
        }
        return new ScanResult(count, checksum);
    }

    static long arrowChecksum(FieldVector vector, int rows, Kind kind)
    {
        // reads through raw addresses (rows never exceeds the vector's value count), as an engine
        // consuming Arrow does in its hot loops, rather than paying ArrowBuf's bounds check per value
        long validity = vector.getValidityBuffer().memoryAddress();
        long sum = 0;
        switch (kind) {
            case LONG -> {
                long data = ((BaseFixedWidthVector) vector).getDataBuffer().memoryAddress();
                for (int i = 0; i < rows; i++) {
                    if (isSet(validity, i)) {
                        sum += MemoryUtil.getLong(data + (long) i * Long.BYTES) * MIX;
                    }
                }
            }
            case INT, DATE -> {
                long data = ((BaseFixedWidthVector) vector).getDataBuffer().memoryAddress();
                for (int i = 0; i < rows; i++) {
                    if (isSet(validity, i)) {
                        sum += MemoryUtil.getInt(data + (long) i * Integer.BYTES) * MIX;
                    }
                }
            }
            case SHORT_DECIMAL -> {
                // Arrow decimals are 128-bit little-endian; a DECIMAL(15, 2) lives in the low 64 bits
                long data = ((BaseFixedWidthVector) vector).getDataBuffer().memoryAddress();
                for (int i = 0; i < rows; i++) {
                    if (isSet(validity, i)) {
                        sum += MemoryUtil.getLong(data + (long) i * 16) * MIX;
                    }
                }
            }
            case STRING -> {
                long offsets = ((BaseVariableWidthVector) vector).getOffsetBuffer().memoryAddress();
                for (int i = 0; i < rows; i++) {
                    if (isSet(validity, i)) {
                        long at = offsets + (long) i * Integer.BYTES;
                        int length = MemoryUtil.getInt(at + Integer.BYTES) - MemoryUtil.getInt(at);
                        sum += length * MIX;
                    }
                }
            }
        }
        return sum;
    }

    private static boolean isSet(long validity, int index)
    {
        return ((MemoryUtil.getByte(validity + (index >>> 3)) >>> (index & 7)) & 1) != 0;
    }

    // ---- Paimon

    private ScanResult paimonScan(Scenario scenario)
            throws IOException
    {
        int[] columns = columns(scenario);
        ReadBuilder builder = paimonTable.newReadBuilder().withProjection(columns);
        org.apache.paimon.predicate.Predicate filter = null;
        if (scenario == Scenario.FILTER) {
            // the projection keeps every column in table order, so the predicate's indexes hold for the rows read
            filter = new PredicateBuilder(paimonTable.rowType()).lessThan(SHIPDATE, filterEpochDay());
            builder = builder.withFilter(filter);
        }
        List<Split> splits = builder.newScan().plan().splits();
        return PaimonReads.scan(builder, splits, filter, row -> paimonChecksum(row, columns));
    }

    /**
     * The checksum of one row Paimon read with the projection {@code columns}: the same sum of
     * values that {@link #arrowChecksum} and {@link #trinoChecksum} fold.
     */
    static long paimonChecksum(InternalRow row, int[] columns)
    {
        long checksum = 0;
        for (int i = 0; i < columns.length; i++) {
            if (row.isNullAt(i)) {
                continue;
            }
            long value = switch (KINDS.get(columns[i])) {
                case LONG -> row.getLong(i);
                case INT, DATE -> row.getInt(i);
                case SHORT_DECIMAL -> row.getDecimal(i, 15, 2).toUnscaledLong();
                case STRING -> row.getString(i).getSizeInBytes();
            };
            checksum += value * MIX;
        }
        return checksum;
    }

    // ---- Trino

    static Type trinoType(Kind kind)
    {
        return switch (kind) {
            case LONG -> BigintType.BIGINT;
            case INT -> IntegerType.INTEGER;
            case DATE -> DateType.DATE;
            case SHORT_DECIMAL -> DecimalType.createDecimalType(15, 2);
            case STRING -> VarcharType.VARCHAR;
        };
    }

    private ScanResult trinoScan(Scenario scenario)
            throws IOException
    {
        int[] columns = columns(scenario);
        ParquetReaderOptions options = ParquetReaderOptions.defaultOptions();
        int filterDay = filterEpochDay();
        long count = 0;
        long checksum = 0;
        int[] selected = new int[options.getMaxReadBlockRowCount()];
        for (Path file : dataFiles) {
            try (ParquetReader reader = trinoReader(file, columns, options)) {
                SourcePage page;
                while ((page = reader.nextPage()) != null) {
                    int positions = page.getPositionCount();
                    if (selected.length < positions) {
                        selected = new int[positions];
                    }
                    int selectedCount;
                    if (scenario == Scenario.FILTER) {
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

    private static ParquetReader trinoReader(Path file, int[] columns, ParquetReaderOptions options)
            throws IOException
    {
        LocalParquetDataSource source = LocalParquetDataSource.open(file, options);
        try {
            ParquetMetadata metadata = MetadataReader.readFooter(source, Optional.empty());
            MessageType schema = metadata.getFileMetaData().getSchema();
            MessageColumnIO columnIO = ParquetTypeUtils.getColumnIO(schema, schema);
            List<Column> fields = new ArrayList<>();
            for (int column : columns) {
                String name = ScanTableGenerator.COLUMNS.get(column);
                fields.add(new Column(name, ParquetTypeUtils.constructField(trinoType(KINDS.get(column)), ParquetTypeUtils.lookupColumnByName(columnIO, name))
                        .orElseThrow(() -> new IllegalStateException("File " + file + " has no column " + name))));
            }
            Map<List<String>, org.apache.parquet.column.ColumnDescriptor> descriptors = ParquetTypeUtils.getDescriptors(schema, schema);
            List<RowGroupInfo> rowGroups = new ArrayList<>();
            for (BlockMetadata block : metadata.getBlocks()) {
                rowGroups.add(new RowGroupInfo(PrunedBlockMetadata.createPrunedColumnsMetadata(block, source.getId(), descriptors), block.fileRowCountOffset(), Optional.empty()));
            }
            return new ParquetReader(
                    Optional.ofNullable(metadata.getFileMetaData().getCreatedBy()),
                    fields,
                    false,
                    rowGroups,
                    source,
                    DateTimeZone.UTC,
                    AggregatedMemoryContext.newSimpleAggregatedMemoryContext(),
                    options,
                    exception -> new IllegalStateException("Trino cannot read " + file, exception),
                    Optional.empty(),
                    Optional.empty(),
                    // no Parquet modular encryption
                    Optional.empty());
        }
        catch (IOException | RuntimeException e) {
            source.close();
            throw e;
        }
    }

    static int intValue(Block block, int position)
    {
        ValueBlock values = block.getUnderlyingValueBlock();
        return ((IntArrayBlock) values).getInt(block.getUnderlyingValuePosition(position));
    }

    static long trinoChecksum(Block block, int[] positions, int count, Kind kind)
    {
        ValueBlock values = block.getUnderlyingValueBlock();
        boolean flat = block == values;
        long sum = 0;
        switch (kind) {
            case LONG, SHORT_DECIMAL -> {
                LongArrayBlock longs = (LongArrayBlock) values;
                for (int i = 0; i < count; i++) {
                    int position = flat ? positions[i] : block.getUnderlyingValuePosition(positions[i]);
                    if (!longs.isNull(position)) {
                        sum += longs.getLong(position) * MIX;
                    }
                }
            }
            case INT, DATE -> {
                IntArrayBlock ints = (IntArrayBlock) values;
                for (int i = 0; i < count; i++) {
                    int position = flat ? positions[i] : block.getUnderlyingValuePosition(positions[i]);
                    if (!ints.isNull(position)) {
                        sum += ints.getInt(position) * MIX;
                    }
                }
            }
            case STRING -> {
                VariableWidthBlock strings = (VariableWidthBlock) values;
                for (int i = 0; i < count; i++) {
                    int position = flat ? positions[i] : block.getUnderlyingValuePosition(positions[i]);
                    if (!strings.isNull(position)) {
                        sum += strings.getSliceLength(position) * MIX;
                    }
                }
            }
        }
        return sum;
    }

    // ---- DuckDB

    /**
     * The query DuckDB runs: a hash of every numeric column and the byte length of every string
     * column, aggregated, so its Parquet reader must decode every value it returns.
     */
    public String duckdbQuery(Scenario scenario)
    {
        List<String> numeric = new ArrayList<>();
        List<String> aggregates = new ArrayList<>();
        aggregates.add("count(*)");
        for (int column : columns(scenario)) {
            String name = ScanTableGenerator.COLUMNS.get(column);
            if (KINDS.get(column) == Kind.STRING) {
                aggregates.add("sum(strlen(" + name + "))");
            }
            else {
                numeric.add(name);
            }
        }
        if (!numeric.isEmpty()) {
            aggregates.add("bit_xor(hash(" + String.join(", ", numeric) + "))");
        }
        String files = dataFiles.stream()
                .map(path -> "'" + path.toString().replace("'", "''") + "'")
                .collect(Collectors.joining(", ", "[", "]"));
        String query = "SELECT " + String.join(", ", aggregates) + " FROM read_parquet(" + files + ")";
        if (scenario == Scenario.FILTER) {
            query += " WHERE shipdate < DATE '" + filterDate() + "'";
        }
        return query;
    }

    private ScanResult duckdbScan(Scenario scenario)
            throws SQLException
    {
        try (Statement statement = duckdb.createStatement();
                ResultSet result = statement.executeQuery(duckdbQuery(scenario))) {
            if (!result.next()) {
                throw new IllegalStateException("DuckDB returned no row");
            }
            long count = result.getLong(1);
            long checksum = 0;
            for (int i = 2; i <= result.getMetaData().getColumnCount(); i++) {
                Object value = result.getObject(i);
                checksum = checksum * 31 + (value == null ? 0 : value.hashCode());
            }
            return new ScanResult(count, checksum);
        }
    }

    // ---- helpers

    private static Path localPath(String location)
    {
        if (location.startsWith("file:")) {
            return Path.of(URI.create(location));
        }
        return Path.of(location);
    }

    static void deleteRecursively(Path directory)
            throws IOException
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
