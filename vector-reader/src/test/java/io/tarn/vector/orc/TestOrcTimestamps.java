package io.tarn.vector.orc;

import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ArrowRowFormatter;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Timestamps read from ORC files of Paimon's ORC writer are the values written, checked against
 * the written values themselves (not against Paimon's reader, which gets some of them wrong): wall
 * clocks before 1970 with fractions of a second, before 1900, before the Gregorian calendar (Paimon
 * writes those as Julian dates and reads them back shifted), and files written in time zones other
 * than the reader's (Paimon's reader returns TIMESTAMP_LTZ values of such files shifted by the zone
 * difference).
 * <p>
 * Pins the one case no reader can get right: ORC stores seconds rounded toward zero, so a value in
 * the second before the epoch (1969-12-31T23:59:59.999) is stored as exactly the same bytes as the
 * same fraction after it (1970-01-01T00:00:00.999); ORC's readers, Paimon's and Tarn's return the
 * latter.
 */
public class TestOrcTimestamps
{
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataField(0, "id", DataTypes.INT().notNull()),
            new org.apache.paimon.types.DataField(1, "ts3", DataTypes.TIMESTAMP(3)),
            new org.apache.paimon.types.DataField(2, "ts6", DataTypes.TIMESTAMP(6)),
            new org.apache.paimon.types.DataField(3, "ts9", DataTypes.TIMESTAMP(9)),
            new org.apache.paimon.types.DataField(4, "ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)),
            new org.apache.paimon.types.DataField(5, "ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)),
            new org.apache.paimon.types.DataField(6, "dt", DataTypes.DATE()));
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(ROW_TYPE);
    // wall clocks (UTC instants for the LTZ columns) that every reader must return as written
    private static final List<String> VALUES = List.of(
            "1969-12-31T23:59:58.999999999",
            "1969-12-31T23:59:58.000000001",
            "1969-12-31T23:59:59",
            "1969-12-31T23:59:59.000000999",
            "1969-01-01T00:00:00.5",
            "1960-06-15T12:30:45.123456789",
            "1900-01-01T00:00:00.001",
            "1899-12-31T23:59:59.999",
            "1970-01-01T00:00:00",
            "1970-01-01T00:00:00.999",
            "2024-02-29T23:59:59.999999999",
            "2262-04-11T23:47:16");
    // before the Gregorian calendar: nanosecond precision cannot hold them in Arrow
    private static final List<String> OLD_VALUES = List.of("1500-03-01T10:00:00.25", "0999-12-31T23:59:59", "1582-10-04T00:00:00");

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] writerZones()
    {
        return new Object[][] {{"UTC"}, {"America/Los_Angeles"}, {"Asia/Kolkata"}, {"Australia/Lord_Howe"}};
    }

    @Test(dataProvider = "writerZones")
    public void testReadsWrittenValues(String writerZone)
            throws IOException
    {
        List<GenericRow> rows = new ArrayList<>();
        for (String value : VALUES) {
            LocalDateTime dateTime = LocalDateTime.parse(value);
            Timestamp timestamp = Timestamp.fromLocalDateTime(dateTime);
            rows.add(GenericRow.of(rows.size(), timestamp, timestamp, timestamp, timestamp, timestamp, (int) dateTime.toLocalDate().toEpochDay()));
        }
        for (String value : OLD_VALUES) {
            LocalDateTime dateTime = LocalDateTime.parse(value);
            Timestamp timestamp = Timestamp.fromLocalDateTime(dateTime);
            rows.add(GenericRow.of(rows.size(), timestamp, timestamp, null, timestamp, timestamp, (int) dateTime.toLocalDate().toEpochDay()));
        }
        byte[] file = writeInZone(rows, writerZone);
        assertThat(readAll(file)).containsExactlyElementsOf(written(rows));
    }

    @Test
    public void testInstantsOfTablesWithoutTheLegacyLayout()
            throws IOException
    {
        // orc.timestamp-ltz.legacy.type=false: TIMESTAMP_LTZ stored as the instant itself
        List<GenericRow> rows = new ArrayList<>();
        for (String value : VALUES) {
            Timestamp timestamp = Timestamp.fromLocalDateTime(LocalDateTime.parse(value));
            rows.add(GenericRow.of(rows.size(), timestamp, timestamp, timestamp, timestamp, timestamp, 0));
        }
        Map<String, String> options = Map.of("orc.timestamp-ltz.legacy.type", "false");
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        byte[] file;
        try {
            file = OrcTestFiles.write(ROW_TYPE, rows, options, "zlib");
        }
        finally {
            TimeZone.setDefault(original);
        }
        List<String> lines = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), ReadOptions.of(FIELDS), FIELDS, false, allocator)) {
            while (reader.nextBatch()) {
                lines.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
            }
        }
        assertThat(lines).containsExactlyElementsOf(written(rows));
        // Paimon's reader agrees on such files whatever its zone
        assertThat(OrcTestFiles.paimonRows(ROW_TYPE, file, options)).containsExactlyElementsOf(written(rows));
    }

    @Test
    public void testSecondBeforeTheEpochIsStoredAsTheSecondAfterIt()
            throws IOException
    {
        Timestamp before = Timestamp.fromLocalDateTime(LocalDateTime.parse("1969-12-31T23:59:59.999"));
        Timestamp after = Timestamp.fromLocalDateTime(LocalDateTime.parse("1970-01-01T00:00:00.999"));
        Timestamp beforeLtz = Timestamp.fromInstant(Instant.parse("1969-12-31T23:59:59.999999Z"));
        Timestamp afterLtz = Timestamp.fromInstant(Instant.parse("1970-01-01T00:00:00.999999Z"));
        List<GenericRow> rows = List.of(
                GenericRow.of(0, before, before, before, beforeLtz, beforeLtz, 0),
                GenericRow.of(1, after, after, after, afterLtz, afterLtz, 0));
        byte[] file = writeInZone(rows, "UTC");
        // the DATA (seconds) and SECONDARY (nanoseconds) values of the two rows are the same
        OrcTail tail = OrcTail.read(DataFileInput.of("test.orc", file));
        for (int column : new int[] {2, 5, 6}) {
            StripeStreams streams = StripeStreams.read(DataFileInput.of("test.orc", file), tail, 0, tail.newCodec(), Set.of(column), Set.of(), Set.of());
            IntegerDecoder seconds = IntegerDecoder.create(streams.stream(column, StripeFooter.Stream.DATA), true, true);
            IntegerDecoder nanos = IntegerDecoder.create(streams.stream(column, StripeFooter.Stream.SECONDARY), false, true);
            assertThat(seconds.next()).as("column %s", column).isEqualTo(seconds.next());
            assertThat(nanos.next()).as("column %s", column).isEqualTo(nanos.next());
        }
        // so both read as the value after the epoch, as Paimon's and ORC's readers read them
        List<String> read = readAll(file);
        assertThat(read.get(1)).isEqualTo(written(rows).get(1));
        assertThat(withoutId(read.get(0))).isEqualTo(withoutId(read.get(1)));
    }

    @Test
    public void testPaimonsReaderDiffersFromTheWrittenValues()
    {
        Timestamp old = Timestamp.fromLocalDateTime(LocalDateTime.parse("1500-03-01T10:00:00.25"));
        Timestamp recent = Timestamp.fromLocalDateTime(LocalDateTime.parse("2024-02-29T23:59:59.999"));
        List<GenericRow> rows = List.of(GenericRow.of(0, old, old, null, old, old, 0), GenericRow.of(1, recent, recent, recent, recent, recent, 0));
        List<String> written = written(rows);
        // before the Gregorian cutover, Paimon's own reader returns another day than it wrote
        List<String> paimonUtc = OrcTestFiles.paimonRows(ROW_TYPE, writeInZone(rows, "UTC"), Map.of());
        assertThat(written.get(0)).contains("1500-03-01T10:00:00.250").doesNotContain("1500-03-11");
        assertThat(paimonUtc.get(0)).contains("1500-03-11T10:00:00.250").doesNotContain("1500-03-01");
        assertThat(paimonUtc.get(1)).isEqualTo(written.get(1));
        // a file written in another zone: Paimon's reader (here in UTC) shifts TIMESTAMP_LTZ by the zone's offset
        List<String> paimonLosAngeles = OrcTestFiles.paimonRows(ROW_TYPE, writeInZone(rows, "America/Los_Angeles"), Map.of());
        assertThat(written.get(1)).contains("\t2024-02-29T23:59:59.999\t").contains("\t2024-02-29T23:59:59.999Z\t");
        assertThat(paimonLosAngeles.get(1)).contains("\t2024-02-29T23:59:59.999\t").contains("\t2024-03-01T07:59:59.999Z\t");
    }

    private static byte[] writeInZone(List<GenericRow> rows, String zone)
    {
        // ORC's writer (and Paimon's, through java.sql.Timestamp) takes the JVM's zone
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        try {
            return OrcTestFiles.write(ROW_TYPE, rows, Map.of(), "zstd");
        }
        finally {
            TimeZone.setDefault(original);
        }
    }

    private List<String> readAll(byte[] file)
            throws IOException
    {
        List<String> lines = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), ReadOptions.of(FIELDS), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                lines.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
            }
        }
        return lines;
    }

    private static String withoutId(String line)
    {
        return line.substring(line.indexOf('\t'));
    }

    private static List<String> written(List<GenericRow> rows)
    {
        return rows.stream().map(row -> CanonicalValueFormatter.formatRow(row, ROW_TYPE)).toList();
    }
}
