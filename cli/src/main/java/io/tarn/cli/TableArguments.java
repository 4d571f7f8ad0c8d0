package io.tarn.cli;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The options every table command shares: {@code --warehouse DIR DB.TABLE}, an optional
 * {@code --branch}, and at most one of {@code --snapshot N}, {@code --tag T},
 * {@code --timestamp ISO}.
 */
final class TableArguments
{
    static final Set<String> OPTIONS = Set.of("warehouse", "branch", "snapshot", "tag", "timestamp");

    private TableArguments() {}

    static PaimonTable loadTable(CommandLine commandLine)
            throws IOException
    {
        String warehouse = Path.of(commandLine.requiredOption("warehouse")).toAbsolutePath().normalize().toString();
        Identifier identifier = Identifier.parse(commandLine.singlePositional("table name (DB.TABLE)"));
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse);
        return PaimonTable.load(catalog, identifier, commandLine.option("branch").orElse(PaimonTable.MAIN_BRANCH));
    }

    static ScanVersion version(CommandLine commandLine)
    {
        List<ScanVersion> versions = new ArrayList<>();
        commandLine.option("snapshot").ifPresent(value -> versions.add(new ScanVersion.SnapshotId(parseSnapshotId(value))));
        commandLine.option("tag").ifPresent(value -> versions.add(new ScanVersion.TagName(value)));
        commandLine.option("timestamp").ifPresent(value -> versions.add(new ScanVersion.TimestampMillis(parseTimestamp(value))));
        if (versions.size() > 1) {
            throw new UsageException("Give at most one of --snapshot, --tag and --timestamp");
        }
        return versions.isEmpty() ? new ScanVersion.Latest() : versions.get(0);
    }

    private static long parseSnapshotId(String value)
    {
        try {
            long id = Long.parseLong(value.trim());
            if (id <= 0) {
                throw new UsageException("Snapshot ids start at 1: --snapshot " + value);
            }
            return id;
        }
        catch (NumberFormatException e) {
            throw new UsageException("Not a snapshot id: --snapshot " + value);
        }
    }

    /**
     * An instant ({@code 2024-01-01T10:00:00Z}, with an offset) or, as Paimon's
     * {@code scan.timestamp} does, a local date-time or date in this machine's time zone.
     */
    static long parseTimestamp(String value)
    {
        String text = value.trim();
        try {
            if (text.endsWith("Z") || text.endsWith("z")) {
                return Instant.parse(text.toUpperCase(Locale.ROOT)).toEpochMilli();
            }
            if (text.matches(".*T.*[+-]\\d\\d:\\d\\d$")) {
                return OffsetDateTime.parse(text).toInstant().toEpochMilli();
            }
            if (text.length() == 10) {
                return LocalDate.parse(text).atStartOfDay(ZoneId.systemDefault()).toInstant().toEpochMilli();
            }
            return LocalDateTime.parse(text.replace(' ', 'T')).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        }
        catch (DateTimeParseException e) {
            throw new UsageException("Not an ISO timestamp: --timestamp " + value);
        }
    }
}
