package io.tarn.benchmarks;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Plans the same fabricated table ({@link PlanningTableGenerator}) with Tarn's single-threaded
 * planner and with Apache Paimon's, once with {@code scan.manifest.parallelism = 1} (the fair
 * comparison) and once with Paimon's default manifest parallelism (one thread per core). Caches are
 * off on both sides: Paimon's catalog caches, and Tarn's manifest cache (on by default in a catalog,
 * it would answer every plan after the first from memory). Each operation resolves the
 * latest snapshot and plans from it, as an engine does per query; loading the table's schema is
 * outside the measurement for both.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 1, jvmArgs = {
        "-Xms2g",
        "-Xmx2g",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow",
        "--enable-native-access=ALL-UNNAMED"})
public class BenchmarkPlanning
{
    /**
     * What a plan filters on; the same predicate is given to Tarn and to Paimon.
     */
    public enum Scenario
    {
        FULL,
        PARTITION,
        VALUE_STATS,
    }

    @Param("100")
    public int partitions;

    @Param("100")
    public int filesPerPartition;

    // an existing warehouse holding the generated table; empty generates one in a temporary directory
    @Param("")
    public String warehouse;

    private Path generatedWarehouse;
    private PaimonTable tarnTable;
    private FileStoreTable paimonSingleThread;
    private FileStoreTable paimonDefault;

    @Setup(Level.Trial)
    @SuppressWarnings("try") // Catalog.close() declares Exception; setup() passes it on
    public void setup()
            throws Exception
    {
        Path location;
        if (warehouse.isEmpty()) {
            generatedWarehouse = Files.createTempDirectory("tarn-bench-planning");
            PlanningTableGenerator.generate(generatedWarehouse, partitions, filesPerPartition);
            location = generatedWarehouse;
        }
        else {
            location = Path.of(warehouse);
        }
        tarnTable = PaimonTable.load(
                new FileSystemCatalog(new LocalFileIO(), location.toString(), 0),
                io.tarn.storage.catalog.Identifier.parse(PlanningTableGenerator.tableName()));
        try (Catalog catalog = PlanningTableGenerator.openCatalog(location)) {
            paimonDefault = (FileStoreTable) catalog.getTable(org.apache.paimon.catalog.Identifier.fromString(PlanningTableGenerator.tableName()));
        }
        paimonSingleThread = paimonDefault.copy(Map.of("scan.manifest.parallelism", "1"));
    }

    /**
     * The warehouse {@link #setup()} generated, for handing to the JMH runs.
     */
    public Path generatedWarehouseLocation()
    {
        if (generatedWarehouse == null) {
            throw new IllegalStateException("No generated warehouse: setup() has not run or was given one");
        }
        return generatedWarehouse;
    }

    @TearDown(Level.Trial)
    public void tearDown()
            throws IOException
    {
        if (generatedWarehouse != null) {
            try (Stream<Path> paths = Files.walk(generatedWarehouse)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
            generatedWarehouse = null;
        }
    }

    @Benchmark
    public int tarnFullPlan()
    {
        return tarnPlan(Scenario.FULL).files().size();
    }

    @Benchmark
    public int paimonFullPlan()
    {
        return countFiles(paimonPlan(paimonSingleThread, Scenario.FULL));
    }

    @Benchmark
    public int paimonDefaultParallelismFullPlan()
    {
        return countFiles(paimonPlan(paimonDefault, Scenario.FULL));
    }

    @Benchmark
    public int tarnPartitionFilter()
    {
        return tarnPlan(Scenario.PARTITION).files().size();
    }

    @Benchmark
    public int paimonPartitionFilter()
    {
        return countFiles(paimonPlan(paimonSingleThread, Scenario.PARTITION));
    }

    @Benchmark
    public int paimonDefaultParallelismPartitionFilter()
    {
        return countFiles(paimonPlan(paimonDefault, Scenario.PARTITION));
    }

    @Benchmark
    public int tarnValueStatsFilter()
    {
        return tarnPlan(Scenario.VALUE_STATS).files().size();
    }

    @Benchmark
    public int paimonValueStatsFilter()
    {
        return countFiles(paimonPlan(paimonSingleThread, Scenario.VALUE_STATS));
    }

    @Benchmark
    public int paimonDefaultParallelismValueStatsFilter()
    {
        return countFiles(paimonPlan(paimonDefault, Scenario.VALUE_STATS));
    }

    /**
     * The {@code dt} value the partition scenario keeps: one partition of all.
     */
    public String filteredPartition()
    {
        return PlanningTableGenerator.partitionValue(partitions * 37 / 100);
    }

    /**
     * The id the value-statistics scenario looks for: inside exactly one file, in the middle of the table.
     */
    public int filteredId()
    {
        return PlanningTableGenerator.firstId(partitions * filesPerPartition / 2) + 17;
    }

    public String describe(Scenario scenario)
    {
        return switch (scenario) {
            case FULL -> "full plan (no filter)";
            case PARTITION -> "partition filter `dt = '" + filteredPartition() + "'`";
            case VALUE_STATS -> "value-stats filter `id = " + filteredId() + "`";
        };
    }

    public ScanPlan tarnPlan(Scenario scenario)
    {
        ScanPlanner planner = new ScanPlanner(tarnTable);
        Optional<Predicate> filter = tarnFilter(scenario);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get());
        }
        try {
            return planner.plan(tarnTable.snapshot(new ScanVersion.Latest()));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<String> tarnFileNames(Scenario scenario)
    {
        return tarnPlan(scenario).files().stream()
                .map(PlannedFile::file)
                .map(io.tarn.storage.manifest.DataFileMeta::fileName)
                .sorted()
                .toList();
    }

    /**
     * What each benchmark measures: one Paimon plan, counting its files.
     */
    public int paimonFileCount(Scenario scenario, boolean defaultParallelism)
    {
        return countFiles(paimonPlan(defaultParallelism ? paimonDefault : paimonSingleThread, scenario));
    }

    public List<String> paimonFileNames(Scenario scenario, boolean defaultParallelism)
    {
        List<String> names = new ArrayList<>();
        for (Split split : paimonPlan(defaultParallelism ? paimonDefault : paimonSingleThread, scenario)) {
            for (DataFileMeta file : ((DataSplit) split).dataFiles()) {
                names.add(file.fileName());
            }
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    private Optional<Predicate> tarnFilter(Scenario scenario)
    {
        return switch (scenario) {
            case FULL -> Optional.empty();
            case PARTITION -> Optional.of(Predicates.equal(tarnField("dt"), filteredPartition()));
            case VALUE_STATS -> Optional.of(Predicates.equal(tarnField("id"), filteredId()));
        };
    }

    private FieldRef tarnField(String name)
    {
        DataField field = tarnTable.schema().rowType().field(name)
                .orElseThrow(() -> new IllegalStateException("Table " + tarnTable.name() + " has no column " + name));
        return FieldRef.of(field);
    }

    private List<Split> paimonPlan(FileStoreTable table, Scenario scenario)
    {
        ReadBuilder readBuilder = table.newReadBuilder();
        PredicateBuilder builder = new PredicateBuilder(table.rowType());
        switch (scenario) {
            case FULL -> { }
            case PARTITION -> readBuilder.withFilter(builder.equal(builder.indexOf("dt"), BinaryString.fromString(filteredPartition())));
            case VALUE_STATS -> readBuilder.withFilter(builder.equal(builder.indexOf("id"), filteredId()));
        }
        return readBuilder.newScan().plan().splits();
    }

    private static int countFiles(List<Split> splits)
    {
        int files = 0;
        for (Split split : splits) {
            files += ((DataSplit) split).dataFiles().size();
        }
        return files;
    }
}
