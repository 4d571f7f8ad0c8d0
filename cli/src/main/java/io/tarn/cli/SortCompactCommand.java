package io.tarn.cli;

import io.tarn.storage.sort.SortCompactRequest;
import io.tarn.storage.sort.SortCompactResult;
import io.tarn.storage.sort.SortCompaction;
import io.tarn.storage.sort.SortStrategy;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * {@code tarn sort-compact}: rewrites partitions of an append table sorted by z-order, Hilbert
 * order or plain order of some columns, as one OVERWRITE snapshot. {@code --partition} may be
 * given several times; each is {@code col=value[,col=value...]}.
 */
final class SortCompactCommand
{
    static final String USAGE = "  sort-compact --warehouse DIR [--conf KEY=VALUE]... [--branch B] (--zorder a,b | --hilbert a,b | --order a,b) [--partition p=v[,q=w]]... [--memory SIZE] [--spill-directory DIR] DB.TABLE\n"
            + "      rewrites the chosen partitions (default: all) of an append table sorted by the columns into files of target-file-size,\n"
            + "      as one OVERWRITE snapshot; --memory bounds the sort buffer (default 128mb), beyond which sorted runs spill to disk\n"
            + "      under --spill-directory (default <tmpdir>/tarn-spill; what killed runs left there is removed at start)";

    private static final Set<String> OPTIONS = Set.of("warehouse", "branch", "zorder", "hilbert", "order", "memory", "spill-directory", CommandLine.CONFIGURATION);
    private static final String PARTITION = "--partition";

    private final PrintStream out;

    SortCompactCommand(PrintStream out)
    {
        this.out = requireNonNull(out, "out is null");
    }

    void run(List<String> arguments)
            throws IOException
    {
        List<String> rest = new ArrayList<>();
        List<Map<String, String>> partitions = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (argument.equals(PARTITION)) {
                if (i + 1 >= arguments.size()) {
                    throw new UsageException("Option --partition needs a value");
                }
                partitions.add(partitionSpec(arguments.get(++i)));
            }
            else if (argument.startsWith(PARTITION + "=")) {
                partitions.add(partitionSpec(argument.substring(PARTITION.length() + 1)));
            }
            else {
                rest.add(argument);
            }
        }
        CommandLine commandLine = CommandLine.parse(rest, OPTIONS);
        List<SortStrategy> strategies = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        for (SortStrategy strategy : SortStrategy.values()) {
            Optional<String> value = commandLine.option(strategy.name().toLowerCase(Locale.ROOT));
            if (value.isPresent()) {
                strategies.add(strategy);
                columns = columns(value.get());
            }
        }
        if (strategies.size() != 1) {
            throw new UsageException("Give exactly one of --zorder, --hilbert and --order with the sort columns");
        }
        PaimonTable table = TableArguments.loadTable(commandLine);
        SortCompactRequest request = SortCompactRequest.of(strategies.get(0), columns).withPartitions(partitions);
        if (commandLine.option("memory").isPresent()) {
            request = request.withMemoryBudget(TableOptions.parseMemorySize("--memory", commandLine.option("memory").get(), table.name()));
        }
        if (commandLine.option("spill-directory").isPresent()) {
            request = request.withSpillDirectory(Path.of(commandLine.option("spill-directory").get()));
        }
        SortCompactResult result;
        try (BufferAllocator allocator = new RootAllocator()) {
            result = SortCompaction.run(table, request, allocator);
        }
        out.println("snapshot=" + result.snapshot().map(snapshot -> Long.toString(snapshot.id())).orElse("none")
                + " kind=" + result.snapshot().map(Snapshot::commitKind).map(Enum::name).orElse("none")
                + " partitions=" + result.partitions()
                + " files_read=" + result.filesRead()
                + " files_written=" + result.filesWritten()
                + " rows=" + result.rows()
                + " spilled_runs=" + result.spilledRuns());
    }

    private static List<String> columns(String text)
    {
        List<String> columns = new ArrayList<>();
        for (String column : text.split(",")) {
            if (column.isBlank()) {
                throw new UsageException("Empty column name in sort columns '" + text + "'");
            }
            columns.add(column.trim());
        }
        return columns;
    }

    private static Map<String, String> partitionSpec(String text)
    {
        Map<String, String> spec = new LinkedHashMap<>();
        for (String entry : text.split(",")) {
            int equals = entry.indexOf('=');
            if (equals <= 0) {
                throw new UsageException("A --partition is col=value[,col=value...]: '" + text + "'");
            }
            if (spec.put(entry.substring(0, equals).trim(), entry.substring(equals + 1)) != null) {
                throw new UsageException("Partition column " + entry.substring(0, equals).trim() + " is given twice in --partition " + text);
            }
        }
        return spec;
    }
}
