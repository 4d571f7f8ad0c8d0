package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.Kind;
import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.tarn.benchmarks.BenchmarkScan.MIX;
import static io.tarn.benchmarks.Medians.median;
import static io.tarn.benchmarks.Medians.medianRatio;

/**
 * The primary-key benchmark: one thread reads the same final rows five ways, interleaved round by
 * round — Tarn and Paimon 1.3.1's reader on the deletion-vector table and on the merge-on-read
 * table ({@link PrimaryKeyTableGenerator}), and Tarn on an append table of the final rows — and
 * writes {@code primary-key.md} and {@code primary-key.svg}.
 */
final class PrimaryKeyReport
{
    private static final double DV_OVER_MOR_TARGET = 3.0;
    private static final double DV_OVERHEAD_TARGET = 0.15;
    private static final double PAIMON_TARGET = 3.0;
    private static final List<Kind> KINDS = List.of(Kind.LONG, Kind.INT, Kind.LONG, Kind.SHORT_DECIMAL, Kind.DATE, Kind.STRING, Kind.STRING);

    enum Reader
    {
        TARN_DV("Tarn, deletion vectors"),
        TARN_MOR("Tarn, merge-on-read"),
        PAIMON_DV("Paimon, deletion vectors"),
        PAIMON_MOR("Paimon, merge-on-read"),
        TARN_APPEND("Tarn, append table of the final rows");

        private final String label;

        Reader(String label)
        {
            this.label = label;
        }
    }

    private final Path warehouse;
    private final BufferAllocator allocator = new RootAllocator();
    private final Map<Reader, PaimonTable> tarnTables = new EnumMap<>(Reader.class);
    private final Map<Reader, Table> paimonTables = new EnumMap<>(Reader.class);
    private final Catalog paimonCatalog;

    private PrimaryKeyReport(Path warehouse)
            throws Exception
    {
        this.warehouse = warehouse;
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        tarnTables.put(Reader.TARN_DV, PaimonTable.load(catalog, Identifier.parse(PrimaryKeyTableGenerator.DATABASE + "." + PrimaryKeyTableGenerator.DV_TABLE)));
        tarnTables.put(Reader.TARN_MOR, PaimonTable.load(catalog, Identifier.parse(PrimaryKeyTableGenerator.DATABASE + "." + PrimaryKeyTableGenerator.MOR_TABLE)));
        tarnTables.put(Reader.TARN_APPEND, PaimonTable.load(catalog, Identifier.parse(PrimaryKeyTableGenerator.DATABASE + "." + PrimaryKeyTableGenerator.FINAL_TABLE)));
        this.paimonCatalog = PlanningTableGenerator.openCatalog(warehouse);
        paimonTables.put(Reader.PAIMON_DV, paimonCatalog.getTable(org.apache.paimon.catalog.Identifier.create(PrimaryKeyTableGenerator.DATABASE, PrimaryKeyTableGenerator.DV_TABLE)));
        paimonTables.put(Reader.PAIMON_MOR, paimonCatalog.getTable(org.apache.paimon.catalog.Identifier.create(PrimaryKeyTableGenerator.DATABASE, PrimaryKeyTableGenerator.MOR_TABLE)));
    }

    static void run(Path results, long rows, Path dataDirectory, int warmupRounds, int rounds)
            throws Exception
    {
        String loadBefore = MachineInfo.loadAverage();
        long setupStart = System.nanoTime();
        Path warehouse = PrimaryKeyTableGenerator.cachedWarehouse(dataDirectory, rows);
        double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
        PrimaryKeyReport report = new PrimaryKeyReport(warehouse);
        try {
            Map<Reader, long[]> nanos = new EnumMap<>(Reader.class);
            Map<Reader, ScanResult> answers = new EnumMap<>(Reader.class);
            Reader[] readers = Reader.values();
            for (Reader reader : readers) {
                nanos.put(reader, new long[rounds]);
            }
            for (int round = -warmupRounds; round < rounds; round++) {
                for (int turn = 0; turn < readers.length; turn++) {
                    Reader reader = readers[Math.floorMod(round + turn, readers.length)];
                    long start = System.nanoTime();
                    ScanResult result = report.scan(reader);
                    long elapsed = System.nanoTime() - start;
                    ScanResult previous = answers.putIfAbsent(reader, result);
                    if (previous != null && !previous.equals(result)) {
                        throw new IllegalStateException(reader + " answered differently across rounds: " + previous + " and " + result);
                    }
                    if (round >= 0) {
                        nanos.get(reader)[round] = elapsed;
                    }
                    System.out.printf(Locale.ROOT, "round %d %s: %.2f s, %,d rows%n", round, reader.label, elapsed / 1e9, result.rows());
                }
            }
            String loadAfter = MachineInfo.loadAverage();
            report.checkAnswers(answers);
            Counters dvMetrics = report.tarnMetrics(Reader.TARN_DV);
            String markdown = report.markdown(rows, setupSeconds, warmupRounds, rounds, nanos, answers, dvMetrics, loadBefore + "; after: " + loadAfter);
            Files.createDirectories(results);
            Files.writeString(results.resolve("primary-key.md"), markdown);
            Files.writeString(results.resolve("primary-key.svg"), svg(rows, nanos));
            System.out.println(markdown);
            System.out.println("Wrote " + results.resolve("primary-key.md") + " and " + results.resolve("primary-key.svg"));
        }
        finally {
            report.close();
        }
    }

    /**
     * Every reader must return the same rows: the same count, and Tarn's checksum equal to
     * Paimon's on each table and to the append table's.
     */
    private void checkAnswers(Map<Reader, ScanResult> answers)
    {
        ScanResult expected = answers.get(Reader.TARN_APPEND);
        for (Map.Entry<Reader, ScanResult> answer : answers.entrySet()) {
            if (!answer.getValue().equals(expected)) {
                throw new IllegalStateException(answer.getKey().label + " read " + answer.getValue() + ", but the final rows are " + expected);
            }
        }
    }

    private ScanResult scan(Reader reader)
            throws IOException
    {
        return switch (reader) {
            case TARN_DV, TARN_MOR, TARN_APPEND -> tarnScan(tarnTables.get(reader)).result();
            case PAIMON_DV, PAIMON_MOR -> paimonScan(paimonTables.get(reader));
        };
    }

    private Counters tarnMetrics(Reader reader)
            throws IOException
    {
        return tarnScan(tarnTables.get(reader)).metrics();
    }

    private record TarnScan(ScanResult result, Counters metrics) {}

    private TarnScan tarnScan(PaimonTable table)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        long[] count = new long[1];
        long[] checksum = new long[1];
        Counters metrics = TableRead.forEachBatch(table, plan, request, allocator, batch -> {
            int batchRows = batch.getRowCount();
            count[0] += batchRows;
            checksum[0] += checksum(batch, batchRows);
        });
        return new TarnScan(new ScanResult(count[0], checksum[0]), metrics);
    }

    private static long checksum(VectorSchemaRoot batch, int rows)
    {
        long sum = 0;
        for (int i = 0; i < KINDS.size(); i++) {
            sum += BenchmarkScan.arrowChecksum(batch.getVector(i), rows, KINDS.get(i));
        }
        return sum;
    }

    private static ScanResult paimonScan(Table table)
            throws IOException
    {
        ReadBuilder builder = table.newReadBuilder();
        return PaimonReads.scan(builder, builder.newScan().plan().splits(), null, row -> {
            long checksum = row.getLong(0) * MIX;
            checksum += row.isNullAt(1) ? 0 : row.getInt(1) * MIX;
            checksum += row.isNullAt(2) ? 0 : Double.doubleToRawLongBits(row.getDouble(2)) * MIX;
            checksum += row.isNullAt(3) ? 0 : row.getDecimal(3, 15, 2).toUnscaledLong() * MIX;
            checksum += row.isNullAt(4) ? 0 : row.getInt(4) * MIX;
            checksum += row.isNullAt(5) ? 0 : row.getString(5).getSizeInBytes() * MIX;
            checksum += row.isNullAt(6) ? 0 : row.getString(6).getSizeInBytes() * MIX;
            return checksum;
        });
    }

    private String markdown(long rows, double setupSeconds, int warmupRounds, int rounds, Map<Reader, long[]> nanos, Map<Reader, ScanResult> answers,
            Counters dvMetrics, String loadBefore)
            throws IOException
    {
        long finalRows = answers.get(Reader.TARN_APPEND).rows();
        double dvOverMor = medianRatio(nanos.get(Reader.TARN_MOR), nanos.get(Reader.TARN_DV));
        double dvOverhead = medianRatio(nanos.get(Reader.TARN_DV), nanos.get(Reader.TARN_APPEND)) - 1;
        double paimonDv = medianRatio(nanos.get(Reader.PAIMON_DV), nanos.get(Reader.TARN_DV));
        double paimonMor = medianRatio(nanos.get(Reader.PAIMON_MOR), nanos.get(Reader.TARN_MOR));
        StringBuilder out = new StringBuilder();
        out.append("# Primary-key benchmark: deletion vectors vs merge-on-read, Tarn vs Apache Paimon 1.3.1, one thread\n\n");
        out.append("Run: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append("\n\n");
        out.append(String.format(Locale.ROOT,
                "Data: %,d keys (`id BIGINT` primary key, `k INT`, `v DOUBLE`, `amount DECIMAL(15,2)`, `day DATE`, `flag STRING`, `comment STRING` of 2–5 words), "
                        + "then 10%% of the keys updated and 2%% deleted: %,d final rows. Written by Apache Paimon 1.3.1 into %d fixed buckets, three ways "
                        + "(`./tarn bench primary-key`; cached in `%s`, set-up %.1f s):%n%n",
                rows, finalRows, PrimaryKeyTableGenerator.BUCKETS, warehouse, setupSeconds));
        out.append(String.format(Locale.ROOT,
                "- `pk_dv`: `deletion-vectors.enabled=true`; the base fully compacted, then the updates and deletes compacted into the upper level, "
                        + "leaving deletion vectors on the base files (%,d rows removed by deletion vectors in Tarn's read, %,d data files read).%n",
                dvMetrics.get(Counter.ROWS_DELETED), dvMetrics.get(Counter.FILES_READ)));
        out.append("- `pk_mor`: `write-only=true`, no compaction: per bucket three overlapping sorted runs (base, updates, deletes) merged at read time.\n");
        out.append("- `pk_final`: an append table holding the final rows, the floor for any primary-key read.\n\n");
        out.append("Every read returns every column of every final row and folds each value into a checksum; all five readers must agree on the count and the checksum. ");
        out.append(String.format(Locale.ROOT, "Each round runs the five readers once, rotating who goes first; %d warm-up round(s), then the median of %d rounds. "
                + "Ratios are medians of per-round time ratios.%n%n", warmupRounds, rounds));
        out.append("| Reader | Median (s) | M rows/s |\n|---|---:|---:|\n");
        for (Reader reader : Reader.values()) {
            double seconds = median(nanos.get(reader)) / 1e9;
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f |%n", reader.label, seconds, finalRows / seconds / 1e6));
        }
        out.append("\n| Target | Measured | Met |\n|---|---:|---|\n");
        out.append(String.format(Locale.ROOT, "| Tarn DV ≥ %.0f× Tarn merge-on-read | %.2f× | %s |%n", DV_OVER_MOR_TARGET, dvOverMor, met(dvOverMor >= DV_OVER_MOR_TARGET)));
        out.append(String.format(Locale.ROOT, "| Tarn DV overhead over the append table ≤ %.0f%% | %+.0f%% | %s |%n", DV_OVERHEAD_TARGET * 100, dvOverhead * 100,
                met(dvOverhead <= DV_OVERHEAD_TARGET)));
        out.append(String.format(Locale.ROOT, "| Tarn ≥ %.0f× Paimon, DV table | %.2f× | %s |%n", PAIMON_TARGET, paimonDv, met(paimonDv >= PAIMON_TARGET)));
        out.append(String.format(Locale.ROOT, "| Tarn ≥ %.0f× Paimon, merge-on-read table | %.2f× | %s |%n", PAIMON_TARGET, paimonMor, met(paimonMor >= PAIMON_TARGET)));
        out.append(String.format(Locale.ROOT, "%nMachine: %s, %d cores, %s, %s; load average before the run: %s.%n",
                MachineInfo.cpuModel(), Runtime.getRuntime().availableProcessors(), MachineInfo.memory(), Runtime.version(), loadBefore));
        out.append(PROFILE_NOTES);
        return out.toString();
    }

    // from JFR execution samples of Tarn's reads (session 4) and a harness timing the raw file reads
    // with and without the deletion vectors' selection (session 5); see issue 4's notes
    private static final String PROFILE_NOTES = """

            ## Where the time goes (JFR, Tarn's reads)

            - Deletion vectors: over 90% of the samples are in the Parquet reader. The deleted rows are dropped while \
            decoding: dictionary ids are decoded for every row but values looked up only for kept rows, plain values and \
            strings copied only for kept rows, and pages with no kept row not decoded. The storage layer adds under 5%: \
            `_VALUE_KIND` is not read from files whose metadata counts no -U/-D row (Paimon drops retractions whenever it \
            compacts a table with deletion vectors), and no `_KEY_` column is read. What is left of the gap to the append \
            table is mostly not the selection: reading the four base files with no selection at all already costs \
            1.11-1.18x the append table (12% more stored rows, which must be decompressed and decoded past, and four files \
            to open instead of one), and 1.15-1.20x with it.
            - Merge-on-read: about a quarter finds the surviving row of each key from the key and sequence columns (`_VALUE_KIND` \
            only from files that hold retractions; an integral key compared as a `long`; a run of keys found in one file only \
            taken without the merge heap; files whose key range overlaps no other file's and that hold no retraction not opened \
            for keys at all); the rest reads the value columns of the survivors, with the same selected decoding as the \
            deletion-vector read. Because merge-on-read decodes values only for survivors, it costs one deletion-vector-like read \
            plus the key merge: Tarn DV / Tarn merge-on-read is about 1 + (key merge / value read), and 3x would need the key \
            merge to cost twice the value read.
            """;

    private static String met(boolean met)
    {
        return met ? "yes" : "**no**";
    }

    private static String svg(long rows, Map<Reader, long[]> nanos)
    {
        int width = 720;
        int barHeight = 28;
        int left = 290;
        Reader[] readers = Reader.values();
        double max = Arrays.stream(readers).mapToDouble(reader -> median(nanos.get(reader))).max().orElse(1);
        StringBuilder out = new StringBuilder();
        int height = 40 + readers.length * (barHeight + 10);
        out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">%n", width, height));
        out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"20\">Median seconds to read %,d-key primary-key table (shorter is better)</text>%n", rows));
        for (int i = 0; i < readers.length; i++) {
            double seconds = median(nanos.get(readers[i])) / 1e9;
            int y = 35 + i * (barHeight + 10);
            int length = (int) Math.round((width - left - 70) * median(nanos.get(readers[i])) / max);
            String color = readers[i].name().startsWith("TARN") ? "#2b6cb0" : "#a0aec0";
            out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">%s</text>%n", y + 18, readers[i].label));
            out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n", left, y, Math.max(1, length), barHeight, color));
            out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%.2f s</text>%n", left + length + 6, y + 18, seconds));
        }
        out.append("</svg>\n");
        return out.toString();
    }

    private void close()
            throws Exception
    {
        paimonCatalog.close();
        allocator.close();
    }
}
