package io.tarn.trino;

import io.airlift.slice.Slice;
import io.tarn.storage.snapshot.ScanVersion;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.PointerType;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.VarcharType;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.SmallintType.SMALLINT;
import static io.trino.spi.type.TinyintType.TINYINT;

/**
 * The version of a table that a {@code FOR VERSION AS OF} or {@code FOR TIMESTAMP AS OF} clause
 * names: a snapshot id or a tag name, or the time of a snapshot.
 */
final class TarnTableVersions
{
    private TarnTableVersions() {}

    static ScanVersion scanVersion(ConnectorSession session, SchemaTableName tableName, ConnectorTableVersion version)
    {
        Type type = version.getVersionType();
        Object value = version.getVersion();
        if (version.getPointerType() == PointerType.TARGET_ID) {
            if (type instanceof VarcharType) {
                return new ScanVersion.TagName(((Slice) value).toStringUtf8());
            }
            if (type == BIGINT || type == INTEGER || type == SMALLINT || type == TINYINT) {
                return new ScanVersion.SnapshotId((Long) value);
            }
            throw new TrinoException(NOT_SUPPORTED, "FOR VERSION AS OF on %s takes a snapshot id or a tag name, not a %s".formatted(tableName, type));
        }
        long epochMillis;
        if (type instanceof TimestampWithTimeZoneType zoned) {
            epochMillis = zoned.isShort() ? unpackMillisUtc((Long) value) : ((LongTimestampWithTimeZone) value).getEpochMillis();
        }
        else if (type instanceof TimestampType timestamp) {
            long epochMicros = timestamp.isShort() ? (Long) value : ((LongTimestamp) value).getEpochMicros();
            LocalDateTime local = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000), (int) Math.floorMod(epochMicros, 1_000_000) * 1000, ZoneOffset.UTC);
            epochMillis = local.atZone(session.getTimeZoneKey().getZoneId()).toInstant().toEpochMilli();
        }
        else {
            throw new TrinoException(NOT_SUPPORTED, "FOR TIMESTAMP AS OF on %s takes a timestamp, not a %s".formatted(tableName, type));
        }
        return new ScanVersion.TimestampMillis(epochMillis);
    }

    /** The version as error messages name it. */
    static String describe(ScanVersion version)
    {
        return switch (version) {
            case ScanVersion.Latest _ -> "its latest snapshot";
            case ScanVersion.SnapshotId id -> "snapshot " + id.id();
            case ScanVersion.TagName tag -> "tag '" + tag.name() + "'";
            case ScanVersion.TimestampMillis millis -> "timestamp " + Instant.ofEpochMilli(millis.millis());
            case ScanVersion.Version named -> "version '" + named.version() + "'";
        };
    }
}
