package io.tarn.trino;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.CorruptFileException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.trino.spi.TrinoException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

import static io.tarn.trino.TarnErrorCode.TARN_COMMIT_CONFLICT;
import static io.tarn.trino.TarnErrorCode.TARN_CORRUPT_FILE;
import static io.tarn.trino.TarnErrorCode.TARN_FILESYSTEM_ERROR;
import static io.tarn.trino.TarnErrorCode.TARN_INTERNAL_ERROR;
import static io.tarn.trino.TarnErrorCode.TARN_INVALID_NAME;
import static io.tarn.trino.TarnErrorCode.TARN_MISSING_FILE;
import static io.tarn.trino.TarnErrorCode.TARN_UNKNOWN_SNAPSHOT;
import static io.tarn.trino.TarnErrorCode.TARN_UNSUPPORTED_FEATURE;

/**
 * The one place where Tarn's library exceptions become {@link TrinoException}s. The library's
 * messages already name the table and file; the context ("Reading table x") is prepended when it
 * adds something.
 */
final class TarnExceptions
{
    private TarnExceptions() {}

    static TrinoException translate(String context, Throwable failure)
    {
        if (failure instanceof TrinoException trinoException) {
            return trinoException;
        }
        if (failure instanceof UncheckedIOException unchecked && unchecked.getCause() != null) {
            return translate(context, unchecked.getCause());
        }
        TarnErrorCode code = switch (failure) {
            case CorruptFileException _ -> TARN_CORRUPT_FILE;
            case MissingFileException _ -> TARN_MISSING_FILE;
            case NoSuchFileException _ -> TARN_MISSING_FILE;
            case FileNotFoundException _ -> TARN_MISSING_FILE;
            case SnapshotNotFoundException _ -> TARN_UNKNOWN_SNAPSHOT;
            case UnsupportedTableFeatureException _ -> TARN_UNSUPPORTED_FEATURE;
            case CommitConflictException _ -> TARN_COMMIT_CONFLICT;
            case InvalidNameException _ -> TARN_INVALID_NAME;
            case IOException _ -> TARN_FILESYSTEM_ERROR;
            default -> TARN_INTERNAL_ERROR;
        };
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return new TrinoException(code, context + ": " + message, failure);
    }
}
