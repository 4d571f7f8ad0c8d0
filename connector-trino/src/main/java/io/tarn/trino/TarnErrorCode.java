package io.tarn.trino;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.INSUFFICIENT_RESOURCES;
import static io.trino.spi.ErrorType.USER_ERROR;

public enum TarnErrorCode
        implements ErrorCodeSupplier
{
    // 0x0520_0000 lies in the range Trino leaves to external connectors, clear of its own plugins
    TARN_CORRUPT_FILE(0, EXTERNAL),
    TARN_MISSING_FILE(1, EXTERNAL),
    TARN_UNKNOWN_SNAPSHOT(2, USER_ERROR),
    TARN_UNSUPPORTED_FEATURE(3, EXTERNAL),
    TARN_FILESYSTEM_ERROR(4, EXTERNAL),
    TARN_COMMIT_CONFLICT(5, EXTERNAL),
    TARN_INVALID_NAME(6, USER_ERROR),
    TARN_INVALID_TABLE_PROPERTY(7, USER_ERROR),
    // 8 was TARN_INTERNAL_ERROR: Tarn's own bugs are Trino's GENERIC_INTERNAL_ERROR, as in Trino's connectors
    // the readers of a node hold their tarn.reader.max-memory of Arrow memory
    TARN_READER_MEMORY_EXHAUSTED(9, INSUFFICIENT_RESOURCES),
    // the library refused a table's options or schema (IllegalArgumentException), as Hive's HIVE_INVALID_METADATA
    TARN_INVALID_METADATA(10, EXTERNAL);

    private final ErrorCode errorCode;

    TarnErrorCode(int code, ErrorType type)
    {
        errorCode = new ErrorCode(code + 0x0520_0000, name(), type, false);
    }

    @Override
    public ErrorCode toErrorCode()
    {
        return errorCode;
    }
}
