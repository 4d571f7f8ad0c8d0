package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.sort.SortCompactRequest;
import io.tarn.storage.sort.SortCompactResult;
import io.tarn.storage.sort.SortCompaction;
import io.tarn.storage.sort.SortStrategy;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static io.tarn.benchmarks.Medians.median;

/**
 * The z-order part of the skipping benchmark: a table of random points (x, y uniform over
 * [0, 1,000,000), with an id, a double and a short string) written unsorted by Apache Paimon's own
 * writer, then rewritten by Tarn's sort-compact in z-order of (x, y) into files of
 * {@value #TARGET_FILE_SIZE}. A range {@code x BETWEEN a AND b AND y BETWEEN c AND d} of 1%
 * selectivity is timed against a full scan of the same table, for Tarn (planner and reader both
 * given the filter) and for Paimon's reader (given the filter to skip files, then testing each
 * row). Both tables are generated once from a fixed seed and cached.
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
        "--enable-native-access=ALL-UNNAMED"})
public class BenchmarkZOrder
{
    public enum Query
    {
        FULL_SCAN,
        ZORDER_RANGE,
    }

    public enum Engine
    {
        TARN("Tarn"),
        PAIMON("Paimon 1.3.1 reader");

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

    public record QueryResult(long rows, long checksum) {}

    static final String DATABASE = "bench";
    static final String TABLE = "points";
    static final String TARGET_FILE_SIZE = "2mb";
    static final int DOMAIN = 1_000_000;
    // x and y each in a tenth of the domain: 1% of the rows
    static final int X_LOW = 420_000;
    static final int Y_LOW = 170_000;
    static final int RANGE = DOMAIN / 10;

    private static final long SEED = 5_20261129L;
    private static final int COMMITS = 4;
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"};

    @Param("10000000")
    public long rows;

    // the directory caching generated tables; empty means the tarn.bench.zorder.data system property or target/zorder-data
    @Param("")
    public String dataDirectory;

    private Path warehouse;
    private PaimonTable tarnTable;
    private Table paimonTable;
    private BufferAllocator allocator;
    private SortCompactResult sortCompaction;
    private double sortSeconds;

    @Setup(Level.Trial)
    @SuppressWarnings("try") // Catalog.close() declares Exception; setup() passes it on
    public void setup()
            throws Exception
    {
        allocator = new RootAllocator();
        warehouse = cachedWarehouse();
        tarnTable = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse.toString()), io.tarn.storage.catalog.Identifier.parse(DATABASE + "." + TABLE));
        try (Catalog catalog = PlanningTableGenerator.openCatalog(warehouse)) {
            paimonTable = catalog.getTable(Identifier.create(DATABASE, TABLE));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }

    @Benchmark
    public QueryResult tarnFullScan()
    {
        return run(Engine.TARN, Query.FULL_SCAN);
    }

    @Benchmark
    public QueryResult tarnZOrderRange()
    {
        return run(Engine.TARN, Query.ZORDER_RANGE);
    }

    @Benchmark
    public QueryResult paimonFullScan()
    {
        return run(Engine.PAIMON, Query.FULL_SCAN);
    }

    @Benchmark
    public QueryResult paimonZOrderRange()
    {
        return run(Engine.PAIMON, Query.ZORDER_RANGE);
    }

    public QueryResult run(Engine engine, Query query)
    {
        try {
            return engine == Engine.TARN ? tarn(query) : paimon(query);
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Files Tarn's planner keeps for the query, and the table's files.
     */
    public int[] tarnFiles(Query query)
            throws IOException
    {
        return new int[] {tarnPlan(query).files().size(), tarnPlan(Query.FULL_SCAN).files().size()};
    }

    /**
     * The sort-compact of this run, if the table was generated in this run.
     */
    public String sortCompactionSummary()
    {
        if (sortCompaction == null) {
            return "cached from an earlier run";
        }
        return String.format(Locale.ROOT, "%.1f s, %d files read, %d written, %d spilled runs", sortSeconds, sortCompaction.filesRead(), sortCompaction.filesWritten(), sortCompaction.spilledRuns());
    }

    private ScanPlan tarnPlan(Query query)
            throws IOException
    {
        ScanPlanner planner = new ScanPlanner(tarnTable);
        if (query == Query.ZORDER_RANGE) {
            planner = planner.withFilter(tarnRange());
        }
        return planner.plan(tarnTable.snapshot(new ScanVersion.Latest()));
    }

    private io.tarn.index.predicate.Predicate tarnRange()
    {
        FieldRef x = FieldRef.of(field("x"));
        FieldRef y = FieldRef.of(field("y"));
        return Predicates.and(
                Predicates.greaterOrEqual(x, X_LOW),
                Predicates.lessOrEqual(x, X_LOW + RANGE - 1),
                Predicates.greaterOrEqual(y, Y_LOW),
                Predicates.lessOrEqual(y, Y_LOW + RANGE - 1));
    }

    private DataField field(String name)
    {
        return tarnTable.schema().rowType().field(name).orElseThrow(() -> new IllegalStateException("Table " + tarnTable.name() + " has no column " + name));
    }

    private QueryResult tarn(Query query)
            throws IOException
    {
        ReadRequest request = ReadRequest.of(tarnTable.schema().fields());
        if (query == Query.ZORDER_RANGE) {
            request = request.withFilter(tarnRange());
        }
        ScanPlan plan = tarnPlan(query);
        long count = 0;
        long checksum = 0;
        for (DataSplit split : plan.splits()) {
            try (SplitReader reader = SplitReaders.open(tarnTable, plan.readSchema(), split, request, allocator)) {
                while (reader.nextBatch()) {
                    VectorSchemaRoot root = reader.root();
                    IntVector x = (IntVector) root.getVector(0);
                    IntVector y = (IntVector) root.getVector(1);
                    for (int row = 0; row < root.getRowCount(); row++) {
                        checksum += x.get(row) * 31L + y.get(row);
                    }
                    count += root.getRowCount();
                }
            }
        }
        return new QueryResult(count, checksum);
    }

    private QueryResult paimon(Query query)
            throws IOException
    {
        ReadBuilder builder = paimonTable.newReadBuilder();
        Predicate filter = null;
        if (query == Query.ZORDER_RANGE) {
            PredicateBuilder predicates = new PredicateBuilder(paimonTable.rowType());
            filter = PredicateBuilder.and(
                    predicates.between(0, X_LOW, X_LOW + RANGE - 1),
                    predicates.between(1, Y_LOW, Y_LOW + RANGE - 1));
            builder = builder.withFilter(filter);
        }
        ScanResult result = PaimonReads.scan(builder, builder.newScan().plan().splits(), filter, row -> row.getInt(0) * 31L + row.getInt(1));
        return new QueryResult(result.rows(), result.checksum());
    }

    private Path cachedWarehouse()
            throws Exception
    {
        Path directory = dataDirectory.isEmpty() ? Path.of(System.getProperty("tarn.bench.zorder.data", "target/zorder-data")) : Path.of(dataDirectory);
        return CachedWarehouse.ensure(directory.resolve("rows-" + rows), rows, location -> {
            generate(location);
            PaimonTable table = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), location.toString()), io.tarn.storage.catalog.Identifier.parse(DATABASE + "." + TABLE));
            long start = System.nanoTime();
            sortCompaction = SortCompaction.run(table, SortCompactRequest.of(SortStrategy.ZORDER, List.of("x", "y")), allocator);
            sortSeconds = (System.nanoTime() - start) / 1e9;
        });
    }

    @SuppressWarnings("try") // Paimon's close() declares Exception
    private void generate(Path location)
            throws Exception
    {
        try (Catalog catalog = PlanningTableGenerator.openCatalog(location)) {
            catalog.createDatabase(DATABASE, true);
            Identifier identifier = Identifier.create(DATABASE, TABLE);
            catalog.createTable(identifier, Schema.newBuilder()
                    .column("x", DataTypes.INT())
                    .column("y", DataTypes.INT())
                    .column("id", DataTypes.BIGINT())
                    .column("value", DataTypes.DOUBLE())
                    .column("note", DataTypes.STRING())
                    .option("bucket", "-1")
                    .option("target-file-size", TARGET_FILE_SIZE)
                    .build(), false);
            Table table = catalog.getTable(identifier);
            SplittableRandom random = new SplittableRandom(SEED);
            long written = 0;
            for (int commit = 0; commit < COMMITS; commit++) {
                long end = rows * (commit + 1) / COMMITS;
                BatchWriteBuilder builder = table.newBatchWriteBuilder();
                List<CommitMessage> messages;
                try (BatchTableWrite write = builder.newWrite()) {
                    for (long id = written; id < end; id++) {
                        write.write(GenericRow.of(random.nextInt(DOMAIN), random.nextInt(DOMAIN), id, random.nextDouble(),
                                BinaryString.fromString(WORDS[random.nextInt(WORDS.length)] + "-" + random.nextInt(1000))));
                    }
                    messages = write.prepareCommit();
                }
                try (BatchTableCommit tableCommit = builder.newCommit()) {
                    tableCommit.commit(messages);
                }
                written = end;
            }
        }
    }

    static void report(Path results, long rows, int warmupRounds, int rounds)
            throws Exception
    {
        String loadBefore = MachineInfo.loadAverage();
        BenchmarkZOrder state = new BenchmarkZOrder();
        state.rows = rows;
        state.dataDirectory = "";
        long setupStart = System.nanoTime();
        state.setup();
        double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
        try {
            Map<Engine, Map<Query, double[]>> seconds = new EnumMap<>(Engine.class);
            Map<Query, Long> rowsReturned = new EnumMap<>(Query.class);
            List<String> turns = List.of("TARN FULL_SCAN", "TARN ZORDER_RANGE", "PAIMON FULL_SCAN", "PAIMON ZORDER_RANGE");
            for (Engine engine : Engine.values()) {
                Map<Query, double[]> perQuery = new EnumMap<>(Query.class);
                for (Query query : Query.values()) {
                    perQuery.put(query, new double[rounds]);
                }
                seconds.put(engine, perQuery);
            }
            for (int round = -warmupRounds; round < rounds; round++) {
                for (int turn = 0; turn < turns.size(); turn++) {
                    String[] parts = turns.get(Math.floorMod(round + turn, turns.size())).split(" ");
                    Engine engine = Engine.valueOf(parts[0]);
                    Query query = Query.valueOf(parts[1]);
                    TimedTurn<QueryResult> turnTimed = TimedTurn.run(() -> state.run(engine, query), () -> {});
                    QueryResult result = turnTimed.lastResult();
                    double elapsed = turnTimed.secondsPerRun();
                    Long expected = rowsReturned.putIfAbsent(query, result.rows());
                    if (expected != null && expected != result.rows()) {
                        throw new IllegalStateException(engine.label() + " returned " + result.rows() + " rows for " + query + ", another engine " + expected);
                    }
                    if (round >= 0) {
                        seconds.get(engine).get(query)[round] = elapsed;
                    }
                }
            }
            int[] files = state.tarnFiles(Query.ZORDER_RANGE);
            double tarnFull = median(seconds.get(Engine.TARN).get(Query.FULL_SCAN));
            double tarnRange = median(seconds.get(Engine.TARN).get(Query.ZORDER_RANGE));
            double paimonFull = median(seconds.get(Engine.PAIMON).get(Query.FULL_SCAN));
            double paimonRange = median(seconds.get(Engine.PAIMON).get(Query.ZORDER_RANGE));
            StringBuilder out = new StringBuilder();
            out.append("# Z-order benchmark: a 1% range on (x, y) after Tarn's sort-compact, against a full scan, Tarn vs Apache Paimon 1.3.1's reader\n\n");
            out.append("Run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
            out.append(String.format(Locale.ROOT, "Table: append table `%s.%s`, %,d rows (x, y INT uniform in [0, %,d); id BIGINT; value DOUBLE; note STRING), "
                    + "written unsorted by Paimon's writer in %d commits, then sort-compacted by Tarn (`--zorder x,y`) into files of target-file-size %s: %d files. "
                    + "Sort-compact: %s. Set-up of this run: %.1f s.%n%n",
                    DATABASE, TABLE, rows, DOMAIN, COMMITS, TARGET_FILE_SIZE, files[1], state.sortCompactionSummary(), setupSeconds));
            out.append(String.format(Locale.ROOT, "Query: all columns where `x BETWEEN %d AND %d AND y BETWEEN %d AND %d` (%,d rows, %.2f%%); Tarn's planner keeps %d of %d files by min/max statistics.%n%n",
                    X_LOW, X_LOW + RANGE - 1, Y_LOW, Y_LOW + RANGE - 1, rowsReturned.get(Query.ZORDER_RANGE), 100.0 * rowsReturned.get(Query.ZORDER_RANGE) / rows, files[0], files[1]));
            out.append(String.format(Locale.ROOT, "One thread, one JVM; %d warm-up and %d measured rounds, engines and queries rotating within each round; "
                    + "in each turn the query runs back to back for at least %.1f s and the turn counts the mean run (as a JMH iteration does), so short queries are timed warm; medians over the rounds. "
                    + "Load average before the run: %s; %d cores.%n%n",
                    warmupRounds, rounds, TimedTurn.MINIMUM_SECONDS, loadBefore, Runtime.getRuntime().availableProcessors()));
            out.append("| engine | full scan (s) | 1% z-order range (s) | full scan / range |\n|---|---:|---:|---:|\n");
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.1f× |%n", Engine.TARN.label(), tarnFull, tarnRange, tarnFull / tarnRange));
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.1f× |%n%n", Engine.PAIMON.label(), paimonFull, paimonRange, paimonFull / paimonRange));
            out.append(String.format(Locale.ROOT, "Targets: the range ≥ 10× faster than Tarn's own full scan: %.1f× (%s); ≥ 5× faster than Paimon's reader on the same range: %.1f× (%s).%n",
                    tarnFull / tarnRange, tarnFull / tarnRange >= 10 ? "met" : "not met", paimonRange / tarnRange, paimonRange / tarnRange >= 5 ? "met" : "not met"));
            Files.createDirectories(results);
            Files.writeString(results.resolve("zorder.md"), out.toString());
            System.out.println(out);
            System.out.println("Wrote " + results.resolve("zorder.md"));
        }
        finally {
            state.tearDown();
        }
    }
}
