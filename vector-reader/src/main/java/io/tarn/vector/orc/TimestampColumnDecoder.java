package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.zone.ZoneRules;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.TimeZone;

/**
 * TIMESTAMP and TIMESTAMP_INSTANT columns: DATA holds seconds since 2015-01-01 00:00:00 (in the
 * stripe's writer time zone for TIMESTAMP, in UTC for TIMESTAMP_INSTANT), SECONDARY the
 * nanoseconds of the second, with their trailing decimal zeros cut off and counted in the low
 * three bits (a count {@code z > 0} stands for {@code z + 1} zeros).
 * <p>
 * ORC's writers store the seconds rounded toward zero (the milliseconds of a Java timestamp
 * divided by 1000), so before 1970 a value with a fraction is one second too high; ORC's readers,
 * and this one, take a second off a negative second count whose nanoseconds exceed 999,999. The
 * fractions of the second before the epoch itself (-1 s &lt; t &lt; 0) round to the second 0
 * and cannot be told from the same fractions after the epoch: every ORC reader returns them one
 * second late, and so does this one.
 * <p>
 * A TIMESTAMP is a wall clock: the instant the writer stored, as a wall clock of the writer's
 * zone. A TIMESTAMP_INSTANT is an instant; Paimon's writer (with its default
 * {@code orc.timestamp-ltz.legacy.type=true}) stores a TIMESTAMP_LTZ as the instant at which the
 * writer's zone shows the value's UTC wall clock, so with {@code legacyInstants} those are read
 * back through the writer's zone too.
 * <p>
 * Paimon's writer passes wall clocks through {@code java.sql.Timestamp}, whose calendar is Julian
 * before 1582-10-15; unless the file says it was written in the proleptic Gregorian calendar,
 * such wall clocks are read back as the Julian dates they were written as.
 */
final class TimestampColumnDecoder
        extends ColumnDecoder
{
    // 2015-01-01T00:00:00Z in epoch seconds
    private static final long BASE_UTC_SECONDS = 1_420_070_400L;
    private static final long[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000};

    // 1582-10-15T00:00:00Z, where the Julian calendar gave way to the Gregorian one
    private static final long GREGORIAN_CUTOVER_SECONDS = -12_219_292_800L;
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

    private final boolean instant;
    private final boolean legacyInstants;
    // whether the writer's wall clocks before the cutover are Julian dates (java.sql.Timestamp's calendar)
    private final boolean julianBeforeCutover;
    // units of the requested type per second: 1,000, 1,000,000 or 1,000,000,000
    private final long unitsPerSecond;
    private IntegerDecoder seconds;
    private IntegerDecoder nanos;
    // the writer's zone when values are wall clocks to convert, else null
    private TimeZone zone;
    private long baseSeconds;
    private long[] decodedSeconds = new long[0];
    private long[] decodedNanos = new long[0];

    TimestampColumnDecoder(int column, String name, boolean instant, boolean legacyInstants, boolean hybridCalendar, long unitsPerSecond)
    {
        super(column, name);
        this.instant = instant;
        this.legacyInstants = legacyInstants;
        // Paimon writes wall clocks through java.sql.Timestamp.valueOf, whose calendar is Julian before the cutover
        this.julianBeforeCutover = hybridCalendar && (!instant || legacyInstants);
        this.unitsPerSecond = unitsPerSecond;
    }

    @Override
    void startValues(StripeStreams stripe)
    {
        StripeFooter.Encoding.Kind kind = stripe.encoding(column).kind();
        if (kind.isDictionary()) {
            throw new CorruptDataException("Timestamp column " + name + " has dictionary encoding " + kind);
        }
        seconds = IntegerDecoder.create(stripe.requiredStream(column, StripeFooter.Stream.DATA), true, kind.isV2());
        nanos = IntegerDecoder.create(stripe.requiredStream(column, StripeFooter.Stream.SECONDARY), false, kind.isV2());
        TimeZone writerZone = stripe.writerTimeZone();
        ZoneRules rules = writerZone.toZoneId().getRules();
        boolean utc = rules.isFixedOffset() && rules.getOffset(Instant.EPOCH).getTotalSeconds() == 0;
        boolean wallClock = !instant || legacyInstants;
        zone = wallClock && !utc ? writerZone : null;
        // the writer's 2015-01-01 00:00:00
        baseSeconds = instant || utc ? BASE_UTC_SECONDS : LocalDateTime.of(2015, 1, 1, 0, 0).atZone(writerZone.toZoneId()).toEpochSecond();
    }

    @Override
    void clearValues()
    {
    }

    @Override
    void readValues(int count)
    {
        if (decodedSeconds.length < values + count) {
            int size = grow(decodedSeconds.length, values + count);
            decodedSeconds = Arrays.copyOf(decodedSeconds, size);
            decodedNanos = Arrays.copyOf(decodedNanos, size);
        }
        seconds.next(decodedSeconds, values, count);
        nanos.next(decodedNanos, values, count);
        for (int i = values; i < values + count; i++) {
            long encoded = decodedNanos[i];
            int zeros = (int) (encoded & 7);
            long nano = encoded >>> 3;
            if (zeros != 0) {
                nano *= POWERS_OF_TEN[zeros + 1];
            }
            if (nano < 0 || nano > 999_999_999) {
                throw new CorruptDataException("Timestamp column " + name + " has " + nano + " nanoseconds in a second");
            }
            long second = decodedSeconds[i] + baseSeconds;
            if (decodedSeconds[i] > Long.MAX_VALUE / 2 || decodedSeconds[i] < Long.MIN_VALUE / 2) {
                throw new CorruptDataException("Timestamp column " + name + " has a value " + decodedSeconds[i] + " seconds from 2015");
            }
            if (second < 0 && nano > 999_999) {
                // stored rounded toward zero: see the class comment
                second--;
            }
            if (zone != null) {
                long millis = Math.multiplyExact(second, 1000L) + nano / 1_000_000;
                second += zone.getOffset(millis) / 1000;
            }
            if (julianBeforeCutover && second < GREGORIAN_CUTOVER_SECONDS) {
                second = julianToProleptic(second);
            }
            decodedSeconds[i] = second;
            decodedNanos[i] = nano;
        }
    }

    /**
     * The second whose proleptic Gregorian wall clock reads as the Julian wall clock of
     * {@code second} (what java.sql.Timestamp shows for it).
     */
    static long julianToProleptic(long second)
    {
        GregorianCalendar calendar = new GregorianCalendar(UTC);
        calendar.clear();
        calendar.setTimeInMillis(Math.multiplyExact(second, 1000L));
        int year = calendar.get(Calendar.ERA) == GregorianCalendar.BC ? 1 - calendar.get(Calendar.YEAR) : calendar.get(Calendar.YEAR);
        return LocalDateTime.of(year, calendar.get(Calendar.MONTH) + 1, calendar.get(Calendar.DAY_OF_MONTH),
                calendar.get(Calendar.HOUR_OF_DAY), calendar.get(Calendar.MINUTE), calendar.get(Calendar.SECOND)).toEpochSecond(ZoneOffset.UTC);
    }

    @Override
    void skipValues(long count)
    {
        seconds.skip(count);
        nanos.skip(count);
    }

    @Override
    void seekValues(PositionCursor positions, RowIndexes indexes, int group)
    {
        seconds.seek(positions);
        nanos.seek(positions);
    }

    @Override
    long batchBytes()
    {
        return 16L * values + entries;
    }

    @Override
    void write(FieldVector vector, int slots, int[] slotOfEntry)
    {
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        VectorWrites.prepareFixed(fixed, slots);
        ArrowBuf validity = fixed.getValidityBuffer();
        long address = fixed.getDataBuffer().memoryAddress();
        long nanosPerUnit = 1_000_000_000L / unitsPerSecond;
        int value = 0;
        for (int entry = 0; entry < entries; entry++) {
            if (!presence[entry]) {
                continue;
            }
            long slot = slot(slotOfEntry, entry);
            int index = value++;
            long units;
            try {
                units = Math.addExact(Math.multiplyExact(decodedSeconds[index], unitsPerSecond), decodedNanos[index] / nanosPerUnit);
            }
            catch (ArithmeticException e) {
                throw new CorruptDataException("Timestamp column " + name + " has a value " + decodedSeconds[index] + " s beyond what its unit holds", e);
            }
            MemoryUtil.putLong(address + 8 * slot, units);
            BitVectorHelper.setBit(validity, slot);
        }
        fixed.setValueCount(slots);
    }
}
