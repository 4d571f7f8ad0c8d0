package io.tarn.vector.orc;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * TIMESTAMP and TIMESTAMP_INSTANT columns as Paimon's writer, through orc-core, stores them
 * (see {@link TimestampColumnDecoder} for the reading side): DATA holds seconds since
 * 2015-01-01 00:00:00, SECONDARY the nanoseconds with their trailing zeros counted.
 * <p>
 * Paimon hands orc-core a {@code java.sql.Timestamp}: for a TIMESTAMP (and, with
 * {@code orc.timestamp-ltz.legacy.type}, Paimon's default, for a TIMESTAMP_LTZ) the instant at
 * which the writer's time zone shows the value's wall clock, in java.sql.Timestamp's calendar
 * (Julian before 1582-10-15); for a TIMESTAMP_LTZ without it, the instant itself. orc-core then
 * stores its milliseconds divided by 1000 (rounded toward zero) minus 2015-01-01 in the writer's
 * zone (in UTC for TIMESTAMP_INSTANT), and keeps statistics of the wall clock (TIMESTAMP) or the
 * instant (TIMESTAMP_INSTANT) in milliseconds plus the nanoseconds below them. This writer
 * computes the same numbers.
 * <p>
 * A value whose milliseconds fall in the second before the epoch (-1000 &lt; ms &lt; 0) is
 * stored as second 0, and every ORC reader, Paimon's too, reads it one second late; no encoding
 * reads back right, so this writer refuses such values rather than write them wrong.
 */
final class TimestampColumnWriter
        extends ColumnWriter
{
    // 2015-01-01T00:00:00Z in epoch seconds
    private static final long BASE_UTC_SECONDS = 1_420_070_400L;
    // 1582-10-15T00:00:00Z, before which java.sql.Timestamp's calendar is Julian
    private static final long GREGORIAN_CUTOVER_SECONDS = -12_219_292_800L;

    private final String name;
    private final boolean instant;
    private final boolean wallClock;
    private final long unitsPerSecond;
    private final TimeZone zone;
    private final boolean utc;
    private final long baseSeconds;
    private final OrcOutputBuffer data;
    private final OrcOutputBuffer nanosBuffer;
    private final IntegerRleV2Encoder seconds;
    private final IntegerRleV2Encoder nanos;

    /**
     * @param name the column, for messages
     * @param instant whether the ORC type is TIMESTAMP_INSTANT
     * @param wallClock whether values go through java.sql.Timestamp as wall clocks of the zone
     * @param precision the Paimon precision, which gives the unit of the Arrow values
     */
    TimestampColumnWriter(int column, String name, boolean instant, boolean wallClock, int precision, StatisticsBuilder statistics, WriterContext context)
    {
        super(column, statistics, context);
        this.name = name;
        this.instant = instant;
        this.wallClock = wallClock;
        this.unitsPerSecond = precision <= 3 ? 1_000 : precision <= 6 ? 1_000_000 : 1_000_000_000;
        this.zone = context.timeZone();
        this.utc = zone.toZoneId().getRules().isFixedOffset() && zone.getRawOffset() == 0;
        this.baseSeconds = instant ? BASE_UTC_SECONDS : LocalDateTime.of(2015, 1, 1, 0, 0).atZone(zone.toZoneId()).toEpochSecond();
        this.data = context.newBuffer();
        this.nanosBuffer = context.newBuffer();
        this.seconds = new IntegerRleV2Encoder(data, true);
        this.nanos = new IntegerRleV2Encoder(nanosBuffer, false);
    }

    @Override
    void writeValues(FieldVector vector, int from, int to, StatisticsBuilder statistics)
    {
        TimeStampVector timestamps = (TimeStampVector) vector;
        TimestampStatistics timestampStatistics = (TimestampStatistics) statistics;
        long nanosPerUnit = 1_000_000_000L / unitsPerSecond;
        for (int slot = from; slot < to; slot++) {
            if (timestamps.isNull(slot)) {
                continue;
            }
            long raw = timestamps.get(slot);
            long second = Math.floorDiv(raw, unitsPerSecond);
            int nano = (int) (Math.floorMod(raw, unitsPerSecond) * nanosPerUnit);
            long time;
            if (wallClock && !(utc && second >= GREGORIAN_CUTOVER_SECONDS)) {
                java.sql.Timestamp sqlTimestamp = java.sql.Timestamp.valueOf(LocalDateTime.ofEpochSecond(second, nano, ZoneOffset.UTC));
                time = sqlTimestamp.getTime();
                nano = sqlTimestamp.getNanos();
            }
            else {
                time = second * 1000 + nano / 1_000_000;
            }
            if (time > -1000 && time < 0) {
                throw new IllegalArgumentException(unstorable(second, nano));
            }
            // orc-core: the seconds rounded toward zero, the milliseconds rebuilt from them
            long storedSeconds = time / 1000;
            long millis = storedSeconds * 1000 + nano / 1_000_000;
            if (millis < 0 && nano > 999_999) {
                millis -= 1000;
            }
            long statisticsMillis = instant ? millis : millis + zone.getOffset(millis);
            seconds.write(storedSeconds - baseSeconds);
            nanos.write(formatNanos(nano));
            timestampStatistics.update(statisticsMillis, nano % 1_000_000);
        }
    }

    private String unstorable(long second, int nano)
    {
        String value = instant ? Instant.ofEpochSecond(second, nano).toString() : LocalDateTime.ofEpochSecond(second, nano, ZoneOffset.UTC).toString();
        String epoch = wallClock && !utc ? "1970-01-01 00:00:00 in the writer's time zone " + zone.getID() : "1970-01-01 00:00:00 UTC";
        return "Column " + name + " has the value " + value + ", which an ORC file cannot hold: ORC's readers, Paimon's among them, read a value in the second before "
                + epoch + " one second late";
    }

    /**
     * The nanoseconds without their trailing decimal zeros, shifted left by 3, the low 3 bits
     * counting the zeros cut (a count {@code z > 0} stands for {@code z + 1} zeros).
     */
    static long formatNanos(int nanos)
    {
        if (nanos == 0) {
            return 0;
        }
        if (nanos % 100 != 0) {
            return (long) nanos << 3;
        }
        nanos /= 100;
        int zeros = 1;
        while (nanos % 10 == 0 && zeros < 7) {
            nanos /= 10;
            zeros++;
        }
        return (long) nanos << 3 | zeros;
    }

    @Override
    void recordValuePositions(OrcOutputBuffer.PositionList positions)
    {
        seconds.recordPosition(positions);
        nanos.recordPosition(positions);
    }

    @Override
    void finishValueStreams(StripeParts parts)
    {
        seconds.flush();
        nanos.flush();
        data.finish();
        nanosBuffer.finish();
        parts.addData(StripeFooter.Stream.DATA, column, data);
        parts.addData(StripeFooter.Stream.SECONDARY, column, nanosBuffer);
    }

    @Override
    StripeFooter.Encoding.Kind encoding()
    {
        return StripeFooter.Encoding.Kind.DIRECT_V2;
    }

    @Override
    long valueBufferedSize()
    {
        return data.size() + nanosBuffer.size();
    }

    @Override
    void resetValueStreams()
    {
        data.reset();
        nanosBuffer.reset();
    }
}
