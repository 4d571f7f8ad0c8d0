package io.tarn.storage.grammar;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.snapshot.BranchManager;
import io.tarn.storage.snapshot.ScanVersion;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Locale;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Parses the one textual form of a table version that every front end shares: the C ABI's
 * {@code version} argument takes it whole, the command line's {@code --branch},
 * {@code --snapshot}, {@code --tag} and {@code --timestamp} options take one part each.
 *
 * <pre>
 * text      := ''                              the latest snapshot of branch main
 *            | branch                          the latest snapshot of the branch
 *            | branch '/' point
 *            | point                           on branch main
 * branch    := 'branch:' NAME                  NAME as BranchManager.validateBranchName accepts it
 * point     := 'snapshot:' ID                  ID a decimal number, at least 1
 *            | 'tag:' NAME                     NAME not blank
 *            | 'timestamp:' TIMESTAMP          the newest snapshot committed at or before it
 *            | VERSION                         Paimon's scan.version: the tag of that name if one
 *                                              exists, else the snapshot id if all digits; no ':'
 * TIMESTAMP := MILLIS                          epoch milliseconds, digits only
 *            | date 'T' time ('Z' | offset)    an instant: 2024-01-01T10:00:00Z, 2024-01-01T12:00+02:00
 *            | date 'T' time                   a local date-time: 2024-01-01T10:00[:00[.fraction]]
 *            | date                            a local date, meaning its midnight: 2024-01-01
 * </pre>
 * Examples: {@code snapshot:3}, {@code tag:release-1}, {@code timestamp:2024-01-01 10:00},
 * {@code branch:b1}, {@code branch:b1/snapshot:3}, {@code 3}.
 *
 * <p>A space may stand for the {@code T} of a timestamp. Local date-times and dates are in the
 * JVM's default time zone, as Paimon's {@code scan.timestamp} reads them. Kinds are lower case;
 * blanks around the whole text, an ID and a TIMESTAMP are ignored, names are taken as written.
 * The branch comes first and ends at the first {@code /}: no branch name may contain one, so the
 * split is never ambiguous, while a {@code ,} could be part of a branch name.
 */
public final class VersionParser
{
    private static final String BRANCH = "branch:";
    private static final String SNAPSHOT = "snapshot:";
    private static final String TAG = "tag:";
    private static final String TIMESTAMP = "timestamp:";
    private static final Pattern ZONED = Pattern.compile("T.*(Z|[+-]\\d\\d:\\d\\d)$");

    private VersionParser() {}

    /**
     * The branch and version {@code text} names, local timestamps in the JVM's default zone.
     *
     * @throws VersionSyntaxException if {@code text} does not follow the grammar
     */
    public static TableVersion parse(String text)
    {
        return parse(text, ZoneId.systemDefault());
    }

    static TableVersion parse(String text, ZoneId zone)
    {
        requireNonNull(text, "text is null");
        requireNonNull(zone, "zone is null");
        String trimmed = text.trim();
        if (trimmed.isEmpty()) {
            return TableVersion.latest();
        }
        if (!trimmed.startsWith(BRANCH)) {
            if (trimmed.contains("/" + BRANCH)) {
                throw new VersionSyntaxException("The branch comes first, as in branch:NAME/snapshot:ID", text);
            }
            return new TableVersion(BranchManager.MAIN_BRANCH, point(trimmed, text, zone));
        }
        int slash = trimmed.indexOf('/');
        if (slash < 0) {
            return new TableVersion(branchName(trimmed.substring(BRANCH.length()), text), ScanVersion.latest());
        }
        String branch = branchName(trimmed.substring(BRANCH.length(), slash), text);
        String point = trimmed.substring(slash + 1);
        if (point.isBlank()) {
            throw new VersionSyntaxException("Nothing follows '/'; expected snapshot:ID, tag:NAME, timestamp:TIMESTAMP or a version", text);
        }
        return new TableVersion(branch, point(point, text, zone));
    }

    /**
     * A snapshot id given alone ({@code --snapshot}): a decimal number, at least 1.
     *
     * @throws VersionSyntaxException if it is not
     */
    public static long snapshotId(String value)
    {
        return snapshotId(value, value);
    }

    /**
     * A tag name given alone ({@code --tag}), as written.
     *
     * @throws VersionSyntaxException if it is blank
     */
    public static String tagName(String value)
    {
        return tagName(value, value);
    }

    /**
     * A timestamp given alone ({@code --timestamp}) in epoch milliseconds, local forms in the
     * JVM's default zone.
     *
     * @throws VersionSyntaxException if it has none of the forms of the grammar's TIMESTAMP
     */
    public static long timestampMillis(String value)
    {
        return timestampMillis(value, ZoneId.systemDefault());
    }

    static long timestampMillis(String value, ZoneId zone)
    {
        return timestampMillis(value, value, zone);
    }

    /**
     * A branch name given alone ({@code --branch}), as written.
     *
     * @throws VersionSyntaxException if Paimon would not accept it as a branch name
     */
    public static String branchName(String value)
    {
        return branchName(value, value);
    }

    private static ScanVersion point(String point, String text, ZoneId zone)
    {
        if (point.startsWith(SNAPSHOT)) {
            return new ScanVersion.SnapshotId(snapshotId(point.substring(SNAPSHOT.length()), text));
        }
        if (point.startsWith(TAG)) {
            return new ScanVersion.TagName(tagName(point.substring(TAG.length()), text));
        }
        if (point.startsWith(TIMESTAMP)) {
            return new ScanVersion.TimestampMillis(timestampMillis(point.substring(TIMESTAMP.length()), text, zone));
        }
        if (point.startsWith(BRANCH)) {
            throw new VersionSyntaxException("A branch is given once, first, as in branch:NAME/snapshot:ID", text);
        }
        int colon = point.indexOf(':');
        if (colon >= 0) {
            throw new VersionSyntaxException("Unknown kind '%s'; expected branch:, snapshot:, tag:, timestamp: or a version without ':'".formatted(point.substring(0, colon)), text);
        }
        return new ScanVersion.Version(point);
    }

    private static long snapshotId(String value, String text)
    {
        requireNonNull(value, "value is null");
        long id;
        try {
            id = Long.parseLong(value.trim());
        }
        catch (NumberFormatException e) {
            throw new VersionSyntaxException("Not a snapshot id", text, e);
        }
        if (id < 1) {
            throw new VersionSyntaxException("Snapshot ids start at 1", text);
        }
        return id;
    }

    private static String tagName(String value, String text)
    {
        requireNonNull(value, "value is null");
        if (value.isBlank()) {
            throw new VersionSyntaxException("Tag name is blank", text);
        }
        return value;
    }

    private static long timestampMillis(String value, String text, ZoneId zone)
    {
        requireNonNull(value, "value is null");
        requireNonNull(zone, "zone is null");
        String timestamp = value.trim().replace(' ', 'T').toUpperCase(Locale.ROOT);
        try {
            if (!timestamp.isEmpty() && timestamp.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Long.parseLong(timestamp);
            }
            if (ZONED.matcher(timestamp).find()) {
                return OffsetDateTime.parse(timestamp).toInstant().toEpochMilli();
            }
            // a date is exactly yyyy-MM-dd; anything longer must be a date-time
            if (timestamp.length() == 10) {
                return LocalDate.parse(timestamp).atStartOfDay(zone).toInstant().toEpochMilli();
            }
            return LocalDateTime.parse(timestamp).atZone(zone).toInstant().toEpochMilli();
        }
        catch (NumberFormatException | DateTimeException | ArithmeticException e) {
            throw new VersionSyntaxException("Not a timestamp; expected epoch milliseconds, an instant such as 2024-01-01T10:00:00Z or 2024-01-01T12:00:00+02:00, " +
                    "or a local date-time or date such as 2024-01-01T10:00 or 2024-01-01", text, e);
        }
    }

    private static String branchName(String value, String text)
    {
        requireNonNull(value, "value is null");
        try {
            BranchManager.validateBranchName(value);
        }
        catch (InvalidNameException e) {
            throw new VersionSyntaxException(e.getMessage(), text, e);
        }
        return value;
    }
}
