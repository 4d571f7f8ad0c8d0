package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.benchmarks.BenchmarkScan.Kind;
import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.DataFileMeta;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.scan.DataSplit;
import io.tarn.storage.scan.FileIndexFilter;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
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
import org.apache.paimon.table.source.Split;
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
import java.io.UncheckedIOException;
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
import java.util.stream.Stream;

import static io.tarn.benchmarks.Medians.median;

/**
 * The file-index part of the skipping benchmark: an append table written by Apache Paimon's own
 * writer with a Bloom-filter index on a random, UUID-like {@code token} and a bitmap index on a
 * {@code category} of {@value #CATEGORIES} values, rows in random order so that min/max statistics
 * cannot prune either column. A point lookup on {@code token} and an equality on {@code category}
 * (about 2% of the rows) are timed against a full scan, for Tarn (planner and reader given the
 * filter, so both use the file indexes) and for Paimon's reader (given the filter, which its
 * reader uses to skip files and rows, then testing each row). Every returned value is folded into
 * a checksum that is the same for both engines. The table is generated once from a fixed seed and
 * cached.
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
public class BenchmarkFileIndex
{
    public enum Query
    {
        FULL_SCAN("full scan"),
        POINT_LOOKUP("bloom point lookup"),
        BITMAP_EQUALITY("bitmap equality");

        private final String label;

        Query(String label)
        {
            this.label = label;
        }

        public String label()
        {
            return label;
        }
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

    /**
     * Where the file indexes of the table's data files live: embedded in the manifest entries or
     * in {@code .index} extra files.
     */
    public record IndexPlacement(int files, int embedded, int indexFiles, long indexFileBytes) {}

    static final String DATABASE = "bench";
    static final String TABLE = "indexed";
    static final String TARGET_FILE_SIZE = "4mb";
    static final int CATEGORIES = 50;
    // a file holds about 100,000 rows: the filter is sized for that at a 1% false-positive rate
    static final String BLOOM_ITEMS = "120000";
    static final String BLOOM_FPP = "0.01";
    static final String CATEGORY = "category-17";

    // id BIGINT, token STRING, category STRING, amount DOUBLE, note STRING
    private static final List<String> COLUMNS = List.of("id", "token", "category", "amount", "note");
    private static final List<Kind> KINDS = List.of(Kind.LONG, Kind.STRING, Kind.STRING, Kind.LONG, Kind.STRING);
    private static final long SEED = 7_20261129L;
    private static final int COMMITS = 4;
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"};

    @Param("10000000")
    public long rows;

    // the directory caching generated tables; empty means the tarn.bench.fileindex.data system property or target/file-index-data
    @Param("")
    public String dataDirectory;

    private Path warehouse;
    private PaimonTable tarnTable;
    private Table paimonTable;
    private BufferAllocator allocator;
    private double generationSeconds = -1;
    private Counters lastTarnReadMetrics = Counters.empty(Counter.Stage.READING);
    private Counters lastTarnScanMetrics;
    private int lastPaimonFilesPlanned;
    private long lastTarnPlanNanos;

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
    public QueryResult tarnPointLookup()
    {
        return run(Engine.TARN, Query.POINT_LOOKUP);
    }

    @Benchmark
    public QueryResult tarnBitmapEquality()
    {
        return run(Engine.TARN, Query.BITMAP_EQUALITY);
    }

    @Benchmark
    public QueryResult paimonFullScan()
    {
        return run(Engine.PAIMON, Query.FULL_SCAN);
    }

    @Benchmark
    public QueryResult paimonPointLookup()
    {
        return run(Engine.PAIMON, Query.POINT_LOOKUP);
    }

    @Benchmark
    public QueryResult paimonBitmapEquality()
    {
        return run(Engine.PAIMON, Query.BITMAP_EQUALITY);
    }

    public QueryResult run(Engine engine, Query query)
    {
        try {
            return engine == Engine.TARN ? tarn(query) : paimon(query);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The token of one row of the table: 32 hex digits of two bijective 64-bit mixes of the row's
     * id, so every row has its own and the values are spread uniformly over every file.
     */
    static String token(long id)
    {
        return String.format(Locale.ROOT, "%016x%016x", mix(id ^ SEED), mix(id + 0x2545F4914F6CDD1DL));
    }

    /**
     * The token the point lookup searches for: that of a row about a third into the table.
     */
    public String lookupToken()
    {
        return token(rows * 37 / 100);
    }

    /**
     * Tarn's read counters of the last query Tarn ran.
     */
    public Counters lastTarnReadMetrics()
    {
        return lastTarnReadMetrics;
    }

    /**
     * Tarn's planning counters of the last query Tarn ran.
     */
    public Counters lastTarnScanMetrics()
    {
        return lastTarnScanMetrics;
    }

    /**
     * The data files in the splits Paimon's scan planned for the last query Paimon ran (its reader
     * then skips some of them by their {@code .index} files, which it does not count).
     */
    public int lastPaimonFilesPlanned()
    {
        return lastPaimonFilesPlanned;
    }

    /**
     * How long Tarn's planning took in the last query Tarn ran.
     */
    public long lastTarnPlanNanos()
    {
        return lastTarnPlanNanos;
    }

    /**
     * How long evaluating the filter of a selective query on the file indexes of every planned
     * file takes on its own (reading each {@code .index} file and evaluating it), as the split
     * reader does before opening a file: the part of the query's time spent on indexes.
     */
    public long tarnIndexEvaluationNanos(Query query)
            throws IOException
    {
        ScanPlan plan = tarnPlan(query);
        FileIndexFilter filter = new FileIndexFilter(tarnTable, tarnFilter(query));
        long start = System.nanoTime();
        for (PlannedFile file : plan.files()) {
            filter.evaluate(file);
        }
        return System.nanoTime() - start;
    }

    public IndexPlacement indexPlacement()
            throws IOException
    {
        List<PlannedFile> files = tarnPlan(Query.FULL_SCAN).files();
        int embedded = 0;
        int indexFiles = 0;
        for (PlannedFile file : files) {
            DataFileMeta meta = file.file();
            if (meta.embeddedIndex() != null && meta.embeddedIndex().length > 0) {
                embedded++;
            }
            if (meta.extraFiles().stream().anyMatch(name -> name.endsWith(FileIndexFilter.INDEX_FILE_SUFFIX))) {
                indexFiles++;
            }
        }
        long indexFileBytes;
        try (Stream<Path> paths = Files.walk(warehouse)) {
            indexFileBytes = paths.filter(path -> path.getFileName().toString().endsWith(FileIndexFilter.INDEX_FILE_SUFFIX))
                    .mapToLong(path -> path.toFile().length())
                    .sum();
        }
        return new IndexPlacement(files.size(), embedded, indexFiles, indexFileBytes);
    }

    private ScanPlan tarnPlan(Query query)
            throws IOException
    {
        ScanPlanner planner = new ScanPlanner(tarnTable);
        if (query != Query.FULL_SCAN) {
            planner = planner.withFilter(tarnFilter(query));
        }
        return planner.plan(tarnTable.snapshot(new ScanVersion.Latest()));
    }

    private io.tarn.index.predicate.Predicate tarnFilter(Query query)
    {
        return query == Query.POINT_LOOKUP
                ? Predicates.equal(FieldRef.of(field("token")), lookupToken())
                : Predicates.equal(FieldRef.of(field("category")), CATEGORY);
    }

    private DataField field(String name)
    {
        return tarnTable.schema().rowType().field(name).orElseThrow(() -> new IllegalStateException("Table " + tarnTable.name() + " has no column " + name));
    }

    private QueryResult tarn(Query query)
            throws IOException
    {
        ReadRequest request = ReadRequest.of(tarnTable.schema().fields());
        if (query != Query.FULL_SCAN) {
            request = request.withFilter(tarnFilter(query));
        }
        long planStart = System.nanoTime();
        ScanPlan plan = tarnPlan(query);
        lastTarnPlanNanos = System.nanoTime() - planStart;
        Counters metrics = Counters.empty(Counter.Stage.READING);
        long count = 0;
        long checksum = 0;
        for (DataSplit split : plan.splits()) {
            try (SplitReader reader = SplitReaders.open(tarnTable, plan.readSchema(), split, request, allocator)) {
                while (reader.nextBatch()) {
                    VectorSchemaRoot root = reader.root();
                    int batchRows = root.getRowCount();
                    count += batchRows;
                    for (int i = 0; i < KINDS.size(); i++) {
                        checksum += BenchmarkScan.arrowChecksum(root.getVector(i), batchRows, KINDS.get(i));
                    }
                }
                metrics = metrics.plus(reader.metrics());
            }
        }
        lastTarnReadMetrics = metrics;
        lastTarnScanMetrics = plan.metrics();
        return new QueryResult(count, checksum);
    }

    private QueryResult paimon(Query query)
            throws IOException
    {
        ReadBuilder builder = paimonTable.newReadBuilder();
        Predicate filter = null;
        if (query != Query.FULL_SCAN) {
            PredicateBuilder predicates = new PredicateBuilder(paimonTable.rowType());
            filter = query == Query.POINT_LOOKUP
                    ? predicates.equal(COLUMNS.indexOf("token"), BinaryString.fromString(lookupToken()))
                    : predicates.equal(COLUMNS.indexOf("category"), BinaryString.fromString(CATEGORY));
            builder = builder.withFilter(filter);
        }
        List<Split> splits = builder.newScan().plan().splits();
        int files = 0;
        for (Split split : splits) {
            files += ((org.apache.paimon.table.source.DataSplit) split).dataFiles().size();
        }
        lastPaimonFilesPlanned = files;
        // the same values as Tarn's checksum: raw bits of numbers, byte lengths of strings
        ScanResult result = PaimonReads.scan(builder, splits, filter, row -> (row.getLong(0)
                + row.getString(1).getSizeInBytes()
                + row.getString(2).getSizeInBytes()
                + Double.doubleToRawLongBits(row.getDouble(3))
                + row.getString(4).getSizeInBytes()) * BenchmarkScan.MIX);
        return new QueryResult(result.rows(), result.checksum());
    }

    private Path cachedWarehouse()
            throws Exception
    {
        Path directory = dataDirectory.isEmpty() ? Path.of(System.getProperty("tarn.bench.fileindex.data", "target/file-index-data")) : Path.of(dataDirectory);
        return CachedWarehouse.ensure(directory.resolve("rows-" + rows), rows, location -> {
            long start = System.nanoTime();
            generate(location);
            generationSeconds = (System.nanoTime() - start) / 1e9;
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
                    .column("id", DataTypes.BIGINT())
                    .column("token", DataTypes.STRING())
                    .column("category", DataTypes.STRING())
                    .column("amount", DataTypes.DOUBLE())
                    .column("note", DataTypes.STRING())
                    .option("bucket", "-1")
                    .option("target-file-size", TARGET_FILE_SIZE)
                    .option("file-index.bloom-filter.columns", "token")
                    .option("file-index.bloom-filter.token.items", BLOOM_ITEMS)
                    .option("file-index.bloom-filter.token.fpp", BLOOM_FPP)
                    .option("file-index.bitmap.columns", "category")
                    .build(), false);
            Table table = catalog.getTable(identifier);
            SplittableRandom random = new SplittableRandom(SEED);
            String[] categories = new String[CATEGORIES];
            for (int i = 0; i < CATEGORIES; i++) {
                categories[i] = String.format(Locale.ROOT, "category-%02d", i);
            }
            long written = 0;
            for (int commit = 0; commit < COMMITS; commit++) {
                long end = rows * (commit + 1) / COMMITS;
                BatchWriteBuilder builder = table.newBatchWriteBuilder();
                List<CommitMessage> messages;
                try (BatchTableWrite write = builder.newWrite()) {
                    for (long id = written; id < end; id++) {
                        write.write(GenericRow.of(
                                id,
                                BinaryString.fromString(token(id)),
                                BinaryString.fromString(categories[random.nextInt(CATEGORIES)]),
                                random.nextDouble() * 1000,
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

    private static long mix(long value)
    {
        // SplitMix64's finalizer: a bijection on 64-bit values
        long z = value * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static void report(Path results, long rows, int warmupRounds, int rounds)
            throws Exception
    {
        String loadBefore = MachineInfo.loadAverage();
        BenchmarkFileIndex state = new BenchmarkFileIndex();
        state.rows = rows;
        state.dataDirectory = "";
        long setupStart = System.nanoTime();
        state.setup();
        double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
        try {
            Map<Engine, Map<Query, double[]>> seconds = new EnumMap<>(Engine.class);
            Map<Query, QueryResult> answers = new EnumMap<>(Query.class);
            Map<Query, Counters> tarnReads = new EnumMap<>(Query.class);
            Map<Query, Counters> tarnPlans = new EnumMap<>(Query.class);
            Map<Query, Integer> paimonFiles = new EnumMap<>(Query.class);
            Map<Query, double[]> planSeconds = new EnumMap<>(Query.class);
            for (Query query : Query.values()) {
                planSeconds.put(query, new double[rounds]);
            }
            for (Engine engine : Engine.values()) {
                Map<Query, double[]> perQuery = new EnumMap<>(Query.class);
                for (Query query : Query.values()) {
                    perQuery.put(query, new double[rounds]);
                }
                seconds.put(engine, perQuery);
            }
            int turns = Engine.values().length * Query.values().length;
            for (int round = -warmupRounds; round < rounds; round++) {
                for (int turn = 0; turn < turns; turn++) {
                    int index = Math.floorMod(round + turn, turns);
                    Engine engine = Engine.values()[index / Query.values().length];
                    Query query = Query.values()[index % Query.values().length];
                    double[] planNanos = new double[1];
                    TimedTurn<QueryResult> turnTimed = TimedTurn.run(() -> state.run(engine, query), () -> {
                        if (engine == Engine.TARN) {
                            planNanos[0] += state.lastTarnPlanNanos();
                        }
                    });
                    QueryResult result = turnTimed.lastResult();
                    double elapsed = turnTimed.secondsPerRun();
                    QueryResult expected = answers.putIfAbsent(query, result);
                    if (expected != null && !expected.equals(result)) {
                        throw new IllegalStateException(engine.label() + " returned " + result + " for " + query + ", another run " + expected);
                    }
                    if (engine == Engine.TARN) {
                        tarnReads.put(query, state.lastTarnReadMetrics());
                        tarnPlans.put(query, state.lastTarnScanMetrics());
                    }
                    else {
                        paimonFiles.put(query, state.lastPaimonFilesPlanned());
                    }
                    if (round >= 0) {
                        seconds.get(engine).get(query)[round] = elapsed;
                        if (engine == Engine.TARN) {
                            planSeconds.get(query)[round] = planNanos[0] / turnTimed.runs() / 1e9;
                        }
                    }
                }
            }
            IndexPlacement placement = state.indexPlacement();
            Map<Query, Double> indexSeconds = new EnumMap<>(Query.class);
            for (Query query : List.of(Query.POINT_LOOKUP, Query.BITMAP_EQUALITY)) {
                double[] times = new double[rounds];
                for (int round = 0; round < rounds; round++) {
                    times[round] = state.tarnIndexEvaluationNanos(query) / 1e9;
                }
                indexSeconds.put(query, median(times));
            }
            Map<Query, Double> planMedians = new EnumMap<>(Query.class);
            for (Query query : Query.values()) {
                planMedians.put(query, median(planSeconds.get(query)));
            }
            Map<Engine, Map<Query, Double>> medians = new EnumMap<>(Engine.class);
            for (Engine engine : Engine.values()) {
                Map<Query, Double> perQuery = new EnumMap<>(Query.class);
                for (Query query : Query.values()) {
                    perQuery.put(query, median(seconds.get(engine).get(query)));
                }
                medians.put(engine, perQuery);
            }
            String report = markdown(state, rows, setupSeconds, loadBefore, warmupRounds, rounds, placement, answers, medians, tarnReads, tarnPlans, paimonFiles, planMedians, indexSeconds);
            Files.createDirectories(results);
            Files.writeString(results.resolve("file-index.md"), report);
            Files.writeString(results.resolve("file-index.svg"), svg(rows, medians));
            System.out.println(report);
            System.out.println("Wrote " + results.resolve("file-index.md") + " and " + results.resolve("file-index.svg"));
        }
        finally {
            state.tearDown();
        }
    }

    private static String markdown(BenchmarkFileIndex state, long rows, double setupSeconds, String loadBefore, int warmupRounds, int rounds,
            IndexPlacement placement, Map<Query, QueryResult> answers, Map<Engine, Map<Query, Double>> medians,
            Map<Query, Counters> tarnReads, Map<Query, Counters> tarnPlans, Map<Query, Integer> paimonFiles,
            Map<Query, Double> planMedians, Map<Query, Double> indexSeconds)
    {
        StringBuilder out = new StringBuilder();
        out.append("# File-index benchmark: a Bloom-filter point lookup and a bitmap equality against a full scan, Tarn vs Apache Paimon 1.3.1's reader\n\n");
        out.append("Run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
        out.append(String.format(Locale.ROOT, "Table: append table `%s.%s`, %,d rows (id BIGINT; token STRING, 32 random hex digits, unique; category STRING, %d values drawn at random; "
                        + "amount DOUBLE; note STRING), written by Paimon's writer in %d commits into files of target-file-size %s: %d files. "
                        + "Table options `file-index.bloom-filter.columns=token` (items %s, fpp %s) and `file-index.bitmap.columns=category`, so Paimon's writer built the indexes: "
                        + "%d files have an index embedded in the manifest entry, %d a `.index` extra file (each file's index is larger than `file-index.in-manifest-threshold`, 500 bytes). "
                        + "Rows are in random order of token and category, so min/max statistics cannot prune on either. %s Set-up of this run: %.1f s.%n%n",
                DATABASE, TABLE, rows, CATEGORIES, COMMITS, TARGET_FILE_SIZE, placement.files(), BLOOM_ITEMS, BLOOM_FPP, placement.embedded(), placement.indexFiles(),
                state.generationSeconds < 0 ? "Table cached from an earlier run." : String.format(Locale.ROOT, "Generation by Paimon: %.1f s.", state.generationSeconds),
                setupSeconds));
        out.append("Queries (all columns; both engines return the same rows and the same checksum of every value):\n\n");
        out.append("- full scan: no filter\n");
        out.append(String.format(Locale.ROOT, "- bloom point lookup: `token = '%s'` (%,d row)%n", state.lookupToken(), answers.get(Query.POINT_LOOKUP).rows()));
        QueryResult bitmap = answers.get(Query.BITMAP_EQUALITY);
        out.append(String.format(Locale.ROOT, "- bitmap equality: `category = '%s'` (%,d rows, %.2f%%)%n%n", CATEGORY, bitmap.rows(), 100.0 * bitmap.rows() / rows));
        out.append(String.format(Locale.ROOT, "One thread, one JVM; %d warm-up and %d measured rounds, engines and queries rotating within each round; "
                + "in each turn the query runs back to back for at least %.1f s and the turn counts the mean run (as a JMH iteration does), so short queries are timed warm; medians over the rounds. "
                + "Load average before the run: %s; %d cores.%n%n",
                warmupRounds, rounds, TimedTurn.MINIMUM_SECONDS, loadBefore, Runtime.getRuntime().availableProcessors()));
        out.append("| engine | full scan (s) | bloom point lookup (s) | bitmap equality (s) | full scan / lookup | full scan / bitmap |\n|---|---:|---:|---:|---:|---:|\n");
        for (Engine engine : Engine.values()) {
            Map<Query, Double> times = medians.get(engine);
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.1f× | %.1f× |%n", engine.label(),
                    times.get(Query.FULL_SCAN), times.get(Query.POINT_LOOKUP), times.get(Query.BITMAP_EQUALITY),
                    times.get(Query.FULL_SCAN) / times.get(Query.POINT_LOOKUP), times.get(Query.FULL_SCAN) / times.get(Query.BITMAP_EQUALITY)));
        }
        out.append("\nTargets: each selective query ≥ 10× faster than Tarn's own full scan, and ≥ 5× faster than Paimon's reader on the same query.\n\n");
        out.append("| query | Tarn full scan / query | ≥ 10× | Paimon / Tarn on the query | ≥ 5× |\n|---|---:|---|---:|---|\n");
        Map<Query, Double> tarn = medians.get(Engine.TARN);
        Map<Query, Double> paimon = medians.get(Engine.PAIMON);
        for (Query query : List.of(Query.POINT_LOOKUP, Query.BITMAP_EQUALITY)) {
            double own = tarn.get(Query.FULL_SCAN) / tarn.get(query);
            double versus = paimon.get(query) / tarn.get(query);
            out.append(String.format(Locale.ROOT, "| %s | %.1f× | %s | %.1f× | %s |%n", query.label(), own, own >= 10 ? "met" : "not met", versus, versus >= 5 ? "met" : "not met"));
        }
        out.append("\nCounters of the last measured run of each query:\n\n");
        out.append("| query | Tarn: files planned | Tarn: files skipped by embedded index (plan) | Tarn: files skipped by `.index` file (read) | Tarn: files opened "
                + "| Tarn: rows selected by bitmap | Tarn: rows decoded | Tarn: pages skipped | Tarn: bytes read from data files | Paimon: files in its splits |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Query query : Query.values()) {
            Counters read = tarnReads.get(query);
            Counters plan = tarnPlans.get(query);
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %,d | %,d | %,d | %,d | %d |%n", query.label(), plan.get(Counter.FILES_PLANNED), plan.get(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX),
                    read.get(Counter.FILES_SKIPPED_BY_INDEX), read.get(Counter.FILES_READ), read.get(Counter.ROWS_SELECTED_BY_INDEX), read.get(Counter.ROWS_READ), read.get(Counter.PAGES_SKIPPED), read.get(Counter.BYTES_READ), paimonFiles.get(query)));
        }
        out.append("\nWhere Tarn's time goes (medians; planning timed inside each measured run, index evaluation timed on its own after the rounds: "
                + "reading every planned file's `.index` file and evaluating the filter on it, as the split reader does before opening the file):\n\n");
        out.append("| query | total (s) | planning (s) | index evaluation (s) | rest: opening and decoding data files (s) |\n|---|---:|---:|---:|---:|\n");
        for (Query query : Query.values()) {
            double total = tarn.get(query);
            double planning = planMedians.get(query);
            double index = indexSeconds.getOrDefault(query, 0.0);
            out.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f |%n", query.label(), total, planning, index, Math.max(0, total - planning - index)));
        }
        Counters bitmapRead = tarnReads.get(Query.BITMAP_EQUALITY);
        if (bitmapRead.get(Counter.PAGES_SKIPPED) == 0) {
            out.append(String.format(Locale.ROOT, "%nThe bitmap equality selects %,d of %,d rows, spread at random: every page of every column holds a selected row (pages skipped: 0), "
                            + "so Tarn still reads (%,d bytes, the full scan %,d) and decompresses every page and walks past the unselected values; the bitmap saves only "
                            + "materializing them.",
                    bitmapRead.get(Counter.ROWS_SELECTED_BY_INDEX), rows, bitmapRead.get(Counter.BYTES_READ), tarnReads.get(Query.FULL_SCAN).get(Counter.BYTES_READ)));
            out.append(bitmapRead.get(Counter.ROWS_READ) == bitmapRead.get(Counter.ROWS_SELECTED_BY_INDEX)
                    ? " The bitmap's answer is exact, so the filter is not tested again: each selected row is decoded once, with all columns.\n"
                    : String.format(Locale.ROOT, " The filter is tested again on the selected rows (%,d rows decoded).%n", bitmapRead.get(Counter.ROWS_READ)));
        }
        out.append(String.format(Locale.ROOT, "%nThe point lookup spends %.3f s of %.3f s in planning and index evaluation. Each planned file's `.index` file is opened once: "
                        + "its head is read, then, as the Bloom filter is much larger than what one lookup needs, one byte per hash function "
                        + "(the %d `.index` files hold %,d bytes in all).%n",
                planMedians.get(Query.POINT_LOOKUP) + indexSeconds.get(Query.POINT_LOOKUP), tarn.get(Query.POINT_LOOKUP), placement.indexFiles(), placement.indexFileBytes()));
        out.append("\nPaimon's scan plans every file (its indexes are in `.index` files, which only its reader consults); how many files its reader then skips is not exposed.\n\n");
        out.append("![median seconds](file-index.svg)\n\n");
        out.append("Reproduce: `./tarn bench file-index` (or `mvn -B -q -pl benchmarks -am -DskipTests -Dtarn.bench.run -Dtarn.bench=file-index test-compile`).\n");
        return out.toString();
    }

    private static String svg(long rows, Map<Engine, Map<Query, Double>> medians)
    {
        int width = 760;
        int barHeight = 22;
        int left = 330;
        double max = 0;
        for (Engine engine : Engine.values()) {
            for (Query query : Query.values()) {
                max = Math.max(max, medians.get(engine).get(query));
            }
        }
        StringBuilder out = new StringBuilder();
        int bars = Engine.values().length * Query.values().length;
        int height = 40 + bars * (barHeight + 8);
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">%n", width, height));
        out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"20\">Median seconds per query, %,d-row indexed table (shorter is better)</text>%n", rows));
        int bar = 0;
        for (Query query : Query.values()) {
            for (Engine engine : Engine.values()) {
                double seconds = medians.get(engine).get(query);
                int y = 35 + bar * (barHeight + 8);
                int length = (int) Math.round((width - left - 80) * seconds / max);
                String color = engine == Engine.TARN ? "#2b6cb0" : "#a0aec0";
                out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">%s, %s</text>%n", y + 16, query.label(), engine.label()));
                out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n", left, y, Math.max(1, length), barHeight, color));
                out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%.3f s</text>%n", left + length + 6, y + 16, seconds));
                bar++;
            }
        }
        out.append("</svg>\n");
        return out.toString();
    }
}
