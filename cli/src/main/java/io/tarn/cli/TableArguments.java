package io.tarn.cli;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.catalog.Warehouse;
import io.tarn.storage.grammar.VersionParser;
import io.tarn.storage.grammar.VersionSyntaxException;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The options every table command shares: {@code --warehouse DIR DB.TABLE}, an optional
 * {@code --branch}, and at most one of {@code --snapshot N}, {@code --tag T},
 * {@code --timestamp ISO}. Each option value is one part of the version grammar every front end
 * shares ({@link VersionParser}).
 */
final class TableArguments
{
    static final Set<String> OPTIONS = Set.of("warehouse", "branch", "snapshot", "tag", "timestamp", CommandLine.CONFIGURATION);

    private TableArguments() {}

    static PaimonTable loadTable(CommandLine commandLine)
            throws IOException
    {
        Identifier identifier = Identifier.parse(commandLine.singlePositional("table name (DB.TABLE)"));
        FileSystemCatalog catalog = warehouse(commandLine).catalog();
        return PaimonTable.load(catalog, identifier, commandLine.option("branch").map(TableArguments::branchName).orElse(PaimonTable.MAIN_BRANCH));
    }

    /**
     * The warehouse of {@code --warehouse}, a local directory or an object-store location, reached
     * with the {@code --conf} settings.
     */
    static Warehouse warehouse(CommandLine commandLine)
    {
        try {
            return Warehouse.open(commandLine.requiredOption("warehouse"), commandLine.configuration());
        }
        catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), e);
        }
    }

    static ScanVersion version(CommandLine commandLine)
    {
        List<ScanVersion> versions = new ArrayList<>();
        commandLine.option("snapshot").ifPresent(value -> versions.add(new ScanVersion.SnapshotId(snapshotId(value))));
        commandLine.option("tag").ifPresent(value -> versions.add(new ScanVersion.TagName(tagName(value))));
        commandLine.option("timestamp").ifPresent(value -> versions.add(new ScanVersion.TimestampMillis(timestampMillis(value))));
        if (versions.size() > 1) {
            throw new UsageException("Give at most one of --snapshot, --tag and --timestamp");
        }
        return versions.isEmpty() ? new ScanVersion.Latest() : versions.get(0);
    }

    // each option is one part of the shared version grammar; the messages name the option as the user wrote it

    private static String branchName(String value)
    {
        try {
            return VersionParser.branchName(value);
        }
        catch (VersionSyntaxException e) {
            throw new UsageException(e.problem(), e);
        }
    }

    private static long snapshotId(String value)
    {
        try {
            return VersionParser.snapshotId(value);
        }
        catch (VersionSyntaxException e) {
            throw new UsageException(e.problem() + ": --snapshot " + value, e);
        }
    }

    private static String tagName(String value)
    {
        try {
            return VersionParser.tagName(value);
        }
        catch (VersionSyntaxException e) {
            throw new UsageException(e.problem() + ": --tag '" + value + "'", e);
        }
    }

    /**
     * Epoch milliseconds, an instant ({@code 2024-01-01T10:00:00Z}, or with an offset) or, as
     * Paimon's {@code scan.timestamp} does, a local date-time or date in this machine's time zone.
     */
    private static long timestampMillis(String value)
    {
        try {
            return VersionParser.timestampMillis(value);
        }
        catch (VersionSyntaxException e) {
            throw new UsageException("Not an ISO timestamp: --timestamp " + value, e);
        }
    }
}
