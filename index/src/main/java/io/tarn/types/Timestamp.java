package io.tarn.types;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * A timestamp as Paimon stores it: milliseconds since the epoch plus the nanoseconds within that
 * millisecond (0..999,999). For TIMESTAMP it is a wall-clock time read as if in UTC; for
 * TIMESTAMP_LTZ it is an instant.
 */
public record Timestamp(long epochMillis, int nanoOfMillisecond)
        implements Comparable<Timestamp>
{
    public Timestamp
    {
        if (nanoOfMillisecond < 0 || nanoOfMillisecond > 999_999) {
            throw new IllegalArgumentException("nanoOfMillisecond out of range: " + nanoOfMillisecond);
        }
    }

    public static Timestamp ofMillis(long epochMillis)
    {
        return new Timestamp(epochMillis, 0);
    }

    public static Timestamp ofMicros(long epochMicros)
    {
        return new Timestamp(Math.floorDiv(epochMicros, 1000), (int) Math.floorMod(epochMicros, 1000) * 1000);
    }

    public static Timestamp of(LocalDateTime dateTime)
    {
        return of(dateTime.toInstant(ZoneOffset.UTC));
    }

    public static Timestamp of(Instant instant)
    {
        long seconds = instant.getEpochSecond();
        int nanos = instant.getNano();
        return new Timestamp(seconds * 1000 + nanos / 1_000_000, nanos % 1_000_000);
    }

    public long epochMicros()
    {
        return epochMillis * 1000 + nanoOfMillisecond / 1000;
    }

    public LocalDateTime toLocalDateTime()
    {
        return LocalDateTime.ofInstant(toInstant(), ZoneOffset.UTC);
    }

    public Instant toInstant()
    {
        return Instant.ofEpochMilli(epochMillis).plusNanos(nanoOfMillisecond);
    }

    @Override
    public int compareTo(Timestamp other)
    {
        int result = Long.compare(epochMillis, other.epochMillis);
        return result != 0 ? result : Integer.compare(nanoOfMillisecond, other.nanoOfMillisecond);
    }

    @Override
    public String toString()
    {
        return toLocalDateTime().toString();
    }
}
