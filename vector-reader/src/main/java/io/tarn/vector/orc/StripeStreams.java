package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;

import java.io.IOException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;

/**
 * The streams of one stripe that a read needs, fetched from the input: the stripe footer is read
 * first; it lists every stream of the stripe in file order (their offsets are the running sum of
 * the lengths before them, from the stripe's start), and the needed ones are read in as few
 * requests as their nearness allows.
 * <p>
 * Trust contract: the streams must fit the stripe's index and data sections, each (column, kind)
 * occurs once, and a column's encoding must be listed; violations are corruption.
 */
final class StripeStreams
{
    private static final int MAX_FOOTER_BYTES = 1 << 28;
    // ranges closer than this are read in one request, the bytes between them included
    private static final long MERGE_GAP = 256 * 1024;

    private final StripeFooter footer;
    private final OrcCodec codec;
    private final int blockSize;
    private final Map<Long, Slice> slices;
    private final TimeZone writerTimeZone;
    private final long bytesRead;

    private record Slice(byte[] bytes, int offset, int length) {}

    private StripeStreams(StripeFooter footer, OrcCodec codec, int blockSize, Map<Long, Slice> slices, TimeZone writerTimeZone, long bytesRead)
    {
        this.footer = footer;
        this.codec = codec;
        this.blockSize = blockSize;
        this.slices = slices;
        this.writerTimeZone = writerTimeZone;
        this.bytesRead = bytesRead;
    }

    /**
     * Reads the footer of stripe {@code stripeIndex}, then the data streams of
     * {@code dataColumns}, the row index streams of {@code indexColumns} and the
     * {@code BLOOM_FILTER_UTF8} streams of {@code bloomFilterColumns} (type ids). A Bloom filter
     * stream that occurs twice for a column is not read: which one holds is unknown.
     */
    static StripeStreams read(DataFileInput input, OrcTail tail, int stripeIndex, OrcCodec codec, Set<Integer> dataColumns, Set<Integer> indexColumns, Set<Integer> bloomFilterColumns)
            throws IOException
    {
        String file = tail.file();
        StripeInformation stripe = tail.footer().stripes().get(stripeIndex);
        if (stripe.footerLength() > MAX_FOOTER_BYTES) {
            throw new DataFileUnsupportedException("File " + file + " stripe " + stripeIndex + " has a footer of " + stripe.footerLength() + " bytes, more than Tarn reads");
        }
        byte[] footerBytes = new byte[(int) stripe.footerLength()];
        input.readFully(stripe.offset() + stripe.indexLength() + stripe.dataLength(), footerBytes, 0, footerBytes.length);
        long bytesRead = footerBytes.length;
        StripeFooter footer;
        try {
            byte[] decompressed = new DecompressedStream("stripe footer", footerBytes, 0, footerBytes.length, codec, tail.blockSize()).readAll(MAX_FOOTER_BYTES);
            footer = StripeFooter.parse(new ProtobufReader(decompressed, 0, decompressed.length));
        }
        catch (CorruptDataException e) {
            throw new DataFileCorruptionException("File " + file + " stripe " + stripeIndex + " has a corrupt footer: " + e.getMessage(), e);
        }
        if (footer.encrypted()) {
            throw new DataFileUnsupportedException("File " + file + " stripe " + stripeIndex + " has encrypted columns, which Tarn does not read");
        }
        int columns = tail.footer().types().size();
        if (footer.encodings().size() < columns) {
            throw new DataFileCorruptionException("File " + file + " stripe " + stripeIndex + " lists " + footer.encodings().size() + " column encodings for " + columns + " columns");
        }
        TimeZone zone = timeZone(file, footer);
        // by (column, kind): where each stream lies
        long sectionsEnd = stripe.indexLength() + stripe.dataLength();
        long offset = 0;
        List<long[]> needed = new ArrayList<>();
        Map<Long, Boolean> seen = new HashMap<>();
        Set<Long> repeated = new HashSet<>();
        for (StripeFooter.Stream stream : footer.streams()) {
            if (stream.length() > sectionsEnd - offset) {
                throw new DataFileCorruptionException("File " + file + " stripe " + stripeIndex + " stream of column " + stream.column() + " (kind " + stream.kind() + ", " + stream.length()
                        + " bytes at " + offset + ") runs past the stripe's " + sectionsEnd + " bytes of index and data");
            }
            if (stream.column() >= columns) {
                throw new DataFileCorruptionException("File " + file + " stripe " + stripeIndex + " has a stream of column " + stream.column() + ", but the file has " + columns + " columns");
            }
            long key = key(stream.column(), stream.kind());
            boolean first = seen.put(key, Boolean.TRUE) == null;
            if (!first) {
                repeated.add(key);
            }
            if (!first && stream.kind() >= 0 && stream.kind() <= StripeFooter.Stream.ROW_INDEX) {
                throw new DataFileCorruptionException("File " + file + " stripe " + stripeIndex + " has two streams of kind " + stream.kind() + " for column " + stream.column());
            }
            boolean data = dataColumns.contains(stream.column()) && !stream.isIndex() && stream.kind() != 4;
            boolean index = indexColumns.contains(stream.column()) && stream.kind() == StripeFooter.Stream.ROW_INDEX;
            boolean bloomFilter = bloomFilterColumns.contains(stream.column()) && stream.kind() == StripeFooter.Stream.BLOOM_FILTER_UTF8;
            if (data || index || bloomFilter) {
                if (stream.length() > Integer.MAX_VALUE - 16) {
                    throw new DataFileUnsupportedException("File " + file + " stripe " + stripeIndex + " has a stream of " + stream.length() + " bytes, more than Tarn reads in one piece");
                }
                needed.add(new long[] {key, stripe.offset() + offset, stream.length()});
            }
            offset += stream.length();
        }
        needed.removeIf(entry -> repeated.contains(entry[0]) && (int) entry[0] == StripeFooter.Stream.BLOOM_FILTER_UTF8);
        Map<Long, Slice> slices = new HashMap<>();
        needed.sort(Comparator.comparingLong(entry -> entry[1]));
        int i = 0;
        while (i < needed.size()) {
            long start = needed.get(i)[1];
            long end = start + needed.get(i)[2];
            int j = i + 1;
            while (j < needed.size() && needed.get(j)[1] - end <= MERGE_GAP && needed.get(j)[1] + needed.get(j)[2] - start <= Integer.MAX_VALUE - 16) {
                end = Math.max(end, needed.get(j)[1] + needed.get(j)[2]);
                j++;
            }
            byte[] bytes = new byte[(int) (end - start)];
            input.readFully(start, bytes, 0, bytes.length);
            bytesRead += bytes.length;
            for (int k = i; k < j; k++) {
                slices.put(needed.get(k)[0], new Slice(bytes, (int) (needed.get(k)[1] - start), (int) needed.get(k)[2]));
            }
            i = j;
        }
        return new StripeStreams(footer, codec, tail.blockSize(), slices, zone, bytesRead);
    }

    private static TimeZone timeZone(String file, StripeFooter footer)
            throws DataFileUnsupportedException
    {
        if (footer.writerTimezone().isEmpty()) {
            // writers before ORC 1.1 record no zone; Tarn reads their wall clocks as UTC
            return TimeZone.getTimeZone("UTC");
        }
        String id = footer.writerTimezone().get();
        try {
            ZoneId.of(id, ZoneId.SHORT_IDS);
        }
        catch (DateTimeException e) {
            throw new DataFileUnsupportedException("File " + file + " was written in time zone " + id + ", which this JVM does not know", e);
        }
        // java.util's zone rules, as the writer's: they differ from java.time's before 1900
        return TimeZone.getTimeZone(ZoneId.of(id, ZoneId.SHORT_IDS));
    }

    private static long key(int column, int kind)
    {
        return ((long) column << 32) | (kind & 0xFFFFFFFFL);
    }

    /**
     * The bytes this stripe's footer and streams took from the input.
     */
    long bytesRead()
    {
        return bytesRead;
    }

    TimeZone writerTimeZone()
    {
        return writerTimeZone;
    }

    StripeFooter.Encoding encoding(int column)
    {
        return footer.encodings().get(column);
    }

    /**
     * The stream of {@code column} of {@code kind}, positioned at its start, or null when the
     * stripe has none (or the read did not ask for it).
     */
    DecompressedStream stream(int column, int kind)
    {
        Slice slice = slices.get(key(column, kind));
        if (slice == null) {
            return null;
        }
        return new DecompressedStream("column " + column + " kind " + kind, slice.bytes(), slice.offset(), slice.length(), codec, blockSize);
    }

    /**
     * The stream of {@code column} of {@code kind}, which the column's encoding requires.
     */
    DecompressedStream requiredStream(int column, int kind)
    {
        DecompressedStream stream = stream(column, kind);
        if (stream == null) {
            throw new CorruptDataException("Column " + column + " has no stream of kind " + kind + ", which its encoding needs");
        }
        return stream;
    }
}
