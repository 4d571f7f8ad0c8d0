package io.tarn.cli;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.binary.PartitionPath;
import io.tarn.storage.scan.DeletionFile;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.snapshot.Tag;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.table.TableOptions;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code tarn} command. Results go to standard output; counters and errors to standard error.
 * Exit codes: 0 success, 1 a failure reading the table, 2 a command line that cannot be run.
 */
public final class TarnCli
{
    private static final String USAGE = """
            Usage: tarn COMMAND [OPTIONS] DB.TABLE
              snapshots --warehouse DIR [--branch B] DB.TABLE
                  the table's snapshots and tags
              files --warehouse DIR [--branch B] [--snapshot N | --tag T | --timestamp ISO] DB.TABLE
                  the live data files a scan plans, one per line, and the planning counters""";

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
                default -> throw new UsageException("Unknown command: " + args.get(0));
            }
            out.flush();
            return 0;
        }
        catch (UsageException | InvalidNameException e) {
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
        ScanPlan plan = table.newScan().plan(table.snapshot(TableArguments.version(commandLine)));
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

    static String counters(Optional<Long> snapshotId, Map<String, Long> metrics)
    {
        return "# scan snapshot=" + snapshotId.map(String::valueOf).orElse("none") + " "
                + metrics.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(" "));
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
