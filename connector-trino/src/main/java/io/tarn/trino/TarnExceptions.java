package io.tarn.trino;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.tarn.trino.TarnErrorCode.TARN_COMMIT_CONFLICT;
import static io.tarn.trino.TarnErrorCode.TARN_CORRUPT_FILE;
import static io.tarn.trino.TarnErrorCode.TARN_FILESYSTEM_ERROR;
import static io.tarn.trino.TarnErrorCode.TARN_INVALID_METADATA;
import static io.tarn.trino.TarnErrorCode.TARN_INVALID_NAME;
import static io.tarn.trino.TarnErrorCode.TARN_MISSING_FILE;
import static io.tarn.trino.TarnErrorCode.TARN_UNKNOWN_SNAPSHOT;
import static io.tarn.trino.TarnErrorCode.TARN_UNSUPPORTED_FEATURE;
import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;

/**
 * The one place where Tarn's library exceptions become {@link TrinoException}s. The library's
 * messages already name the table and file; the context ("Reading table x") is prepended when it
 * adds something.
 */
final class TarnExceptions
{
    private static final Pattern TABLE_PREFIX = Pattern.compile("Table ([^\\s:]+): ");

    private TarnExceptions() {}

    static TrinoException translate(String context, Throwable failure)
    {
        if (failure instanceof TrinoException trinoException) {
            return trinoException;
        }
        if (failure instanceof UncheckedIOException unchecked && unchecked.getCause() != null) {
            return translate(context, unchecked.getCause());
        }
        ErrorCodeSupplier code = switch (failure) {
            case CorruptFileException _ -> TARN_CORRUPT_FILE;
            case MissingFileException _ -> TARN_MISSING_FILE;
            case NoSuchFileException _ -> TARN_MISSING_FILE;
            case FileNotFoundException _ -> TARN_MISSING_FILE;
            case SnapshotNotFoundException _ -> TARN_UNKNOWN_SNAPSHOT;
            case UnsupportedTableFeatureException _ -> TARN_UNSUPPORTED_FEATURE;
            case CommitConflictException _ -> TARN_COMMIT_CONFLICT;
            case InvalidNameException _ -> TARN_INVALID_NAME;
            case IOException _ -> TARN_FILESYSTEM_ERROR;
            case IllegalArgumentException _ -> TARN_INVALID_METADATA;
            // anything else is a bug in Tarn, which Trino reports as an internal error
            default -> GENERIC_INTERNAL_ERROR;
        };
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return new TrinoException(code, context + ": " + withoutTableNamedIn(context, message), failure);
    }

    /**
     * The library's message without its leading {@code "Table db.t: "} when the context already
     * names that table, so that a message names its table once.
     */
    static String withoutTableNamedIn(String context, String message)
    {
        Matcher matcher = TABLE_PREFIX.matcher(message);
        if (matcher.lookingAt() && Pattern.compile("\\b[Tt]able " + Pattern.quote(matcher.group(1)) + "(\\s|:|$)").matcher(context).find()) {
            return message.substring(matcher.end());
        }
        return message;
    }
}
