package io.tarn.cli;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.binary.PartitionPath;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.storage.grammar.FilterSyntaxException;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.scan.DeletionFile;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.RowTrackingFields;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.Tag;
import io.tarn.storage.sort.SpillDirectory;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;
import io.tarn.vector.rows.CanonicalRowFormatter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code tarn} command. Results go to standard output; counters and errors to standard error.
 * Exit codes: 0 success, 1 a failure reading the table, 2 a command line that cannot be run.
 */
public final class TarnCli
{
    private static final String USAGE = """
            Usage: tarn COMMAND [OPTIONS] DB.TABLE
              --warehouse is a local directory or an object-store location (s3://bucket/path, s3a://, oss://);
              --conf KEY=VALUE (repeatable) sets how to reach the store: s3.endpoint, s3.region, s3.path-style-access,
              s3.aws-access-key, s3.aws-secret-key (else the AWS default credential chain); on failures
              s3.max-error-retries (10), s3.retry-base-delay (100ms), s3.socket-timeout (30s); data files up to
              s3.small-object-threshold (3MB) are fetched whole in one request
              snapshots --warehouse DIR [--branch B] DB.TABLE
                  the table's snapshots and tags
              files --warehouse DIR [--branch B] [--snapshot N | --tag T | --timestamp ISO] DB.TABLE
                  the live data files a scan plans, one per line, and the planning counters
              dump --warehouse DIR [--branch B] [--snapshot N | --tag T | --timestamp ISO] [--where EXPR] [--columns a,b] [--spill-directory DIR] DB.TABLE
                  the rows in canonical form, sorted, with a last line rows=N sha256=H; the scan counters on standard error;
                  rows beyond an eighth of the heap are sorted in temporary files under --spill-directory (default <tmpdir>/tarn-spill), removed at exit
              scan (same options as dump)
                  reads the rows without printing them: time, rows per second and the scan counters
            """ + SortCompactCommand.USAGE + """

            --where: clauses joined by 'and': col = lit, col <> lit, col < lit, ..., col between lit and lit,
                     col in (lit, ...), col is [not] null; literals 42, 4.2, 'text', 2020-01-01, '2020-01-01T10:00:00', true""";

    private static final Set<String> READ_OPTIONS = union(TableArguments.OPTIONS, Set.of("where", "columns", "spill-directory"));
    // the canonical lines a dump sorts in memory before it spills them to a run file
    private static final int DUMP_HEAP_FRACTION = 8;

    private final PrintStream out;
    private final PrintStream err;

    TarnCli(PrintStream out, PrintStream err)
    {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args)
    {
        System.exit(new TarnCli(System.out, System.err).run(List.of(args)));
    }

    int run(List<String> args)
    {
        if (args.isEmpty() || args.get(0).equals("help") || args.get(0).equals("--help")) {
            out.println(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        List<String> rest = args.subList(1, args.size());
        try {
            switch (args.get(0)) {
                case "snapshots" -> snapshots(CommandLine.parse(rest, TableArguments.OPTIONS));
                case "files" -> files(CommandLine.parse(rest, TableArguments.OPTIONS));
                case "dump" -> read(CommandLine.parse(rest, READ_OPTIONS), true);
                case "scan" -> read(CommandLine.parse(rest, READ_OPTIONS), false);
                case "sort-compact" -> new SortCompactCommand(out).run(rest);
                default -> throw new UsageException("Unknown command: " + args.get(0));
            }
            out.flush();
            return 0;
        }
        catch (UsageException | InvalidNameException | FilterSyntaxException e) {
            err.println("tarn: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        catch (IOException | RuntimeException e) {
            err.println("tarn: " + describe(e));
            return 1;
        }
    }

    private void snapshots(CommandLine commandLine)
            throws IOException
    {
        PaimonTable table = TableArguments.loadTable(commandLine);
        out.println("snapshot\tschema\tkind\ttime\ttotal_records\tdelta_records");
        for (long id : table.snapshotManager().listIds()) {
            Snapshot snapshot = table.snapshotManager().snapshot(id);
            out.println(String.join("\t", Long.toString(snapshot.id()), Long.toString(snapshot.schemaId()), snapshot.commitKind().name(),
                    Instant.ofEpochMilli(snapshot.timeMillis()).toString(),
                    snapshot.totalRecordCount().map(String::valueOf).orElse("-"), snapshot.deltaRecordCount().map(String::valueOf).orElse("-")));
        }
        out.println();
        out.println("tag\tsnapshot");
        for (String name : table.tagManager().tagNames()) {
            Optional<Tag> tag = table.tagManager().tag(name);
            out.println(name + "\t" + tag.map(value -> Long.toString(value.snapshot().id())).orElse("?"));
        }
    }

    private void files(CommandLine commandLine)
            throws IOException
    {
        PaimonTable table = TableArguments.loadTable(commandLine);
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(TableArguments.version(commandLine)));
        TableOptions options = new TableOptions(table.name(), plan.readSchema().options());
        out.println("partition\tbucket\tlevel\trows\tbytes\tschema\tfile\tdeletion_vector");
        for (PlannedFile file : plan.files()) {
            String partition = plan.readSchema().partitionKeys().isEmpty()
                    ? "-"
                    : PartitionPath.of(file.partition(), plan.readSchema().partitionType(), options.partitionDefaultName(), options.partitionLegacyName());
            out.println(String.join("\t", partition, Integer.toString(file.bucket()), Integer.toString(file.file().level()),
                    Long.toString(file.file().rowCount()), Long.toString(file.file().fileSize()), Long.toString(file.file().schemaId()),
                    file.file().fileName(), file.deletionFile().map(TarnCli::describe).orElse("-")));
        }
        err.println(counters(plan.snapshot().map(Snapshot::id), plan.metrics().asMap()));
    }

    private void read(CommandLine commandLine, boolean printRows)
            throws IOException
    {
        PaimonTable table = TableArguments.loadTable(commandLine);
        Optional<Snapshot> snapshot = table.snapshot(TableArguments.version(commandLine));
        TableSchema schema = snapshot.isPresent() ? table.schema(snapshot.get().schemaId()) : table.schema();
        List<DataField> columns = columns(commandLine, table.name(), schema);
        Optional<Predicate> filter = commandLine.option("where").map(text -> FilterParser.parse(text, schema.rowType()));
        ScanPlanner planner = new ScanPlanner(table);
        if (filter.isPresent()) {
            planner = planner.withFilter(filter.get());
        }
        long start = System.nanoTime();
        ScanPlan plan = planner.plan(snapshot);
        ReadRequest request = filter.map(predicate -> ReadRequest.of(columns).withFilter(predicate)).orElse(ReadRequest.of(columns));
        SpillDirectory spillDirectory = SpillDirectory.open(commandLine.option("spill-directory").map(Path::of).orElse(SpillDirectory.defaultRoot()));
        List<String> lines = new ArrayList<>();
        Counters metrics;
        long elapsedNanos;
        // the sorted lines stream out; what does not fit the heap waits in sorted runs on disk
        try (ExternalLineSort sort = new ExternalLineSort(spillDirectory, Runtime.getRuntime().maxMemory() / DUMP_HEAP_FRACTION);
                BufferAllocator allocator = new RootAllocator()) {
            metrics = TableRead.forEachBatch(table, plan, request, allocator, batch -> {
                if (printRows) {
                    lines.clear();
                    CanonicalRowFormatter.appendLines(batch, columns, lines);
                    for (String line : lines) {
                        sort.add(line);
                    }
                }
            });
            elapsedNanos = System.nanoTime() - start;
            if (printRows) {
                out.flush();
                sort.writeTo(out);
            }
        }
        Map<String, Long> counters = new LinkedHashMap<>(plan.metrics().asMap());
        counters.putAll(metrics.asMap());
        if (!printRows) {
            double seconds = elapsedNanos / 1e9;
            out.printf(Locale.ROOT, "rows=%d seconds=%.3f rows_per_second=%.0f%n", metrics.get(Counter.ROWS_RETURNED), seconds, metrics.get(Counter.ROWS_RETURNED) / Math.max(seconds, 1e-9));
        }
        err.println(counters(plan.snapshot().map(Snapshot::id), counters));
    }

    /**
     * The columns {@code --columns} names, among the table's and, for a table that tracks rows,
     * {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}; all the table's columns by default.
     */
    private static List<DataField> columns(CommandLine commandLine, String tableName, TableSchema schema)
    {
        if (commandLine.option("columns").isEmpty()) {
            return schema.fields();
        }
        List<DataField> known = new ArrayList<>(schema.fields());
        known.addAll(RowTrackingFields.of(tableName, schema));
        List<DataField> columns = new ArrayList<>();
        for (String name : commandLine.option("columns").get().split(",")) {
            String trimmed = name.trim();
            columns.add(known.stream().filter(field -> field.name().equals(trimmed)).findFirst().orElseThrow(() -> new UsageException(
                    "Unknown column '" + trimmed + "' in --columns; the columns are " + String.join(", ", known.stream().map(DataField::name).toList()))));
        }
        return columns;
    }

    static String counters(Optional<Long> snapshotId, Map<String, Long> metrics)
    {
        return "# scan snapshot=" + snapshotId.map(String::valueOf).orElse("none") + " "
                + metrics.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(" "));
    }

    private static Set<String> union(Set<String> left, Set<String> right)
    {
        Set<String> union = new HashSet<>(left);
        union.addAll(right);
        return Set.copyOf(union);
    }

    private static String describe(DeletionFile file)
    {
        return file.indexFileName() + "@" + file.offset() + "+" + file.length() + (file.cardinality().isPresent() ? " (" + file.cardinality().getAsLong() + " deleted)" : "");
    }

    private static String describe(Throwable e)
    {
        StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
                message.append(": ").append(cause.getMessage());
            }
        }
        return message.toString();
    }
}
