package io.tarn.jni;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.grammar.FilterSyntaxException;

import java.io.IOException;

/**
 * The status codes of {@code tarn.h}'s {@code tarn_status}; the numbers are part of the C ABI and
 * never change. {@link #JVM} is only produced on the C side.
 */
enum Status
{
    OK(0),
    INVALID_ARGUMENT(1),
    NOT_FOUND(2),
    CORRUPT(3),
    UNSUPPORTED(4),
    IO(5),
    JVM(6),
    INTERNAL(7);

    private final int code;

    Status(int code)
    {
        this.code = code;
    }

    int code()
    {
        return code;
    }

    static Status of(Throwable failure)
    {
        if (failure instanceof TableNotFoundException || failure instanceof SnapshotNotFoundException || failure instanceof MissingFileException) {
            return NOT_FOUND;
        }
        if (failure instanceof CorruptFileException) {
            return CORRUPT;
        }
        if (failure instanceof UnsupportedTableFeatureException) {
            return UNSUPPORTED;
        }
        if (failure instanceof IOException) {
            return IO;
        }
        if (failure instanceof FilterSyntaxException || failure instanceof IllegalArgumentException) {
            return INVALID_ARGUMENT;
        }
        return INTERNAL;
    }
}
