package io.tarn.vector.orc;

import io.tarn.types.AtomicType;
import io.tarn.types.DataField;
import io.tarn.types.RowType;
import io.tarn.types.TypeRoot;
import io.tarn.vector.ArrowTypes;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ArrowRowFormatter;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.TestDataGenerator;
import io.tarn.vector.writer.DataFileWriteResult;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.SimpleColStats;
import org.apache.paimon.format.orc.filter.OrcSimpleStatsExtractor;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.statistics.SimpleColStatsCollector;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Files of {@link OrcFileWriter} read by Paimon's ORC reader (through orc-core) and by Tarn's:
 * random rows of every type Paimon writes to ORC, copied from a file of Paimon's writer into
 * several stripes and row groups, come back row for row as Paimon reads its own file; an empty
 * file is a valid ORC file; a batch of another schema is refused.
 */
public class TestOrcFileWriter
{
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testEveryTypeRoundTrips()
            throws IOException
    {
        long seed = new Random().nextLong();
        System.out.println("TestOrcFileWriter seed: " + seed);
        List<GenericRow> rows = new TestDataGenerator(seed).rows(TestDataGenerator.ALL_TYPES, 3000);
        Map<String, String> options = Map.of("orc.row.index.stride", "1000", "orc.stripe.size", "50000", "orc.rows.between.memory.checks", "100");
        byte[] paimonFile = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, rows, options, "zstd");
        List<String> expected = OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, paimonFile, options);

        OrcWriteOptions writeOptions = OrcWriteOptions.fromTableOptions(options).withCompressionBlockSize(8192);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DataFileWriteResult result;
        try (OrcFileWriter writer = OrcFileWriter.create(out, "copy.orc", new RowType(FIELDS, false), writeOptions);
                OrcReader reader = OrcReader.open(DataFileInput.of("paimon.orc", paimonFile), ReadOptions.of(FIELDS).withBatchSize(777), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                writer.write(reader.root());
            }
            result = writer.finish();
        }
        byte[] tarnFile = out.toByteArray();
        assertThat(result.fileSize()).isEqualTo(tarnFile.length);
        assertThat(result.rowCount()).isEqualTo(rows.size());

        assertThat(OrcTestFiles.paimonRows(TestDataGenerator.ALL_TYPES, tarnFile, options)).as("seed %s", seed).containsExactlyElementsOf(expected);
        assertThat(tarnRows(tarnFile)).as("seed %s", seed).containsExactlyElementsOf(tarnRows(paimonFile));

        OrcTail tail = OrcTail.read(DataFileInput.of("copy.orc", tarnFile));
        assertThat(tail.footer().stripes().size()).as("stripes").isGreaterThan(1);
        assertThat(tail.footer().rowIndexStride()).isEqualTo(1000);
    }

    @DataProvider
    public Object[][] writerZones()
    {
        return new Object[][] {
                {"UTC", true}, {"America/Los_Angeles", true}, {"Asia/Kolkata", true}, {"Australia/Lord_Howe", true},
                {"America/Los_Angeles", false}, {"Australia/Lord_Howe", false}};
    }

    /**
     * Timestamps written in the JVM's zone, as orc-core writes them (wall clocks through
     * java.sql.Timestamp, Julian before 1582, 2015-01-01 of the writer's zone as the base, the
     * zone in the stripe footer): Paimon's reader, here in another zone, reads Tarn's file as it
     * reads Paimon's file of the same rows; Tarn's reader reads the values written; the footer's
     * timestamp statistics are Paimon's, and so are the manifest statistics Paimon's extractor
     * takes from them, but for DATE outside UTC, where Paimon's are a day off. With and without
     * Paimon's legacy layout of TIMESTAMP_LTZ ({@code orc.timestamp-ltz.legacy.type}).
     */
    @Test(dataProvider = "writerZones")
    public void testTimestampsInTheWritersZone(String zone, boolean legacyTimestampLtz)
            throws IOException
    {
        Map<String, String> options = Map.of("orc.timestamp-ltz.legacy.type", String.valueOf(legacyTimestampLtz));
        org.apache.paimon.types.RowType rowType = org.apache.paimon.types.RowType.of(
                new org.apache.paimon.types.DataField(0, "id", DataTypes.INT().notNull()),
                new org.apache.paimon.types.DataField(1, "ts3", DataTypes.TIMESTAMP(3)),
                new org.apache.paimon.types.DataField(2, "ts9", DataTypes.TIMESTAMP(9)),
                new org.apache.paimon.types.DataField(3, "ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6)),
                new org.apache.paimon.types.DataField(4, "dt", DataTypes.DATE()));
        List<DataField> fields = ParquetTestFiles.tarnFields(rowType);
        List<GenericRow> rows = new ArrayList<>();
        for (String value : List.of("1969-12-31T23:59:58.999999999", "1969-12-31T23:59:59", "1960-06-15T12:30:45.123456789", "1899-12-31T23:59:59.999",
                "1970-01-01T00:00:00", "1970-01-01T00:00:00.999", "2024-03-10T02:30:00.5", "2024-02-29T23:59:59.999999999", "1500-03-01T10:00:00.25")) {
            LocalDateTime dateTime = LocalDateTime.parse(value);
            Timestamp timestamp = Timestamp.fromLocalDateTime(dateTime);
            rows.add(GenericRow.of(rows.size(), timestamp, dateTime.getYear() < 1600 ? null : timestamp, timestamp, (int) dateTime.toLocalDate().toEpochDay()));
        }
        TimeZone original = TimeZone.getDefault();
        byte[] paimonFile;
        byte[] tarnFile;
        DataFileWriteResult result;
        SimpleColStats[] paimonStatistics;
        try {
            TimeZone.setDefault(TimeZone.getTimeZone(zone));
            paimonFile = OrcTestFiles.write(rowType, rows, options, "zstd");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (OrcFileWriter writer = OrcFileWriter.create(out, "copy.orc", new RowType(fields, false), OrcWriteOptions.fromTableOptions(options));
                    OrcReader reader = OrcReader.open(DataFileInput.of("paimon.orc", paimonFile), ReadOptions.of(fields), fields, legacyTimestampLtz, allocator)) {
                while (reader.nextBatch()) {
                    writer.write(reader.root());
                }
                result = writer.finish();
            }
            tarnFile = out.toByteArray();
            paimonStatistics = paimonStatistics(rowType, paimonFile, legacyTimestampLtz);
        }
        finally {
            TimeZone.setDefault(original);
        }
        // read back in the test's zone, UTC, not the writer's
        assertThat(OrcTestFiles.paimonRows(rowType, tarnFile, options)).containsExactlyElementsOf(OrcTestFiles.paimonRows(rowType, paimonFile, options));
        assertThat(rows(tarnFile, fields, legacyTimestampLtz)).containsExactlyElementsOf(rows(paimonFile, fields, legacyTimestampLtz));

        OrcTail tarnTail = OrcTail.read(DataFileInput.of("copy.orc", tarnFile));
        OrcTail paimonTail = OrcTail.read(DataFileInput.of("paimon.orc", paimonFile));
        for (int column = 1; column < fields.size() + 1; column++) {
            ColumnStatistics tarn = tarnTail.footer().statistics().get(column);
            ColumnStatistics paimon = paimonTail.footer().statistics().get(column);
            assertThat(List.of(tarn.numberOfValues(), tarn.hasNull(), String.valueOf(tarn.timestampMinimumUtc()), String.valueOf(tarn.timestampMaximumUtc()),
                    String.valueOf(tarn.dateMinimum()), String.valueOf(tarn.dateMaximum())))
                    .as("statistics of column %s in zone %s", column, zone)
                    .isEqualTo(List.of(paimon.numberOfValues(), paimon.hasNull(), String.valueOf(paimon.timestampMinimumUtc()), String.valueOf(paimon.timestampMaximumUtc()),
                            String.valueOf(paimon.dateMinimum()), String.valueOf(paimon.dateMaximum())));
        }
        // Paimon's extractor takes a DATE bound through java.sql.Date in the JVM's zone, which moves it
        // by a day outside UTC (and in the Julian calendar); Tarn keeps the day written
        io.tarn.vector.writer.ColumnStatistics dates = result.statistics().get(4);
        assertThat(List.of(dates.min(), dates.max())).isEqualTo(List.of(
                rows.stream().mapToInt(row -> row.getInt(4)).min().orElseThrow(),
                rows.stream().mapToInt(row -> row.getInt(4)).max().orElseThrow()));
        for (int i = 1; i < (zone.equals("UTC") ? fields.size() : 4); i++) {
            io.tarn.vector.writer.ColumnStatistics tarn = result.statistics().get(i);
            SimpleColStats paimon = paimonStatistics[i];
            assertThat(List.of(String.valueOf(bound(tarn.min())), String.valueOf(bound(tarn.max())), tarn.nullCount()))
                    .as("manifest statistics of %s in zone %s", fields.get(i).name(), zone)
                    .isEqualTo(List.of(String.valueOf(bound(paimon.min())), String.valueOf(bound(paimon.max())), paimon.nullCount()));
        }
    }

    /**
     * A timestamp bound as milliseconds and nanoseconds of the millisecond, whichever library's.
     */
    private static Object bound(Object value)
    {
        if (value instanceof io.tarn.types.Timestamp timestamp) {
            return timestamp.epochMillis() + "+" + timestamp.nanoOfMillisecond();
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.getMillisecond() + "+" + timestamp.getNanoOfMillisecond();
        }
        return value;
    }

    /**
     * The statistics Paimon records in the manifest for {@code file}, taken from its footer.
     */
    private static SimpleColStats[] paimonStatistics(org.apache.paimon.types.RowType rowType, byte[] file, boolean legacyTimestampLtz)
            throws IOException
    {
        java.nio.file.Path directory = Files.createTempDirectory("tarn-orc-stats");
        java.nio.file.Path path = directory.resolve("data.orc");
        Files.write(path, file);
        try {
            OrcSimpleStatsExtractor extractor = new OrcSimpleStatsExtractor(rowType, SimpleColStatsCollector.createFullStatsFactories(rowType.getFieldCount()), legacyTimestampLtz);
            return extractor.extract(LocalFileIO.create(), new org.apache.paimon.fs.Path(path.toUri()), file.length);
        }
        finally {
            Files.delete(path);
            Files.delete(directory);
        }
    }

    private List<String> rows(byte[] file, List<DataField> fields, boolean legacyTimestampLtz)
            throws IOException
    {
        List<String> lines = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("file.orc", file), ReadOptions.of(fields), fields, legacyTimestampLtz, allocator)) {
            while (reader.nextBatch()) {
                lines.addAll(ArrowRowFormatter.rows(reader.root(), fields));
            }
        }
        return lines;
    }

    @Test
    public void testEmptyFile()
            throws IOException
    {
        List<DataField> fields = List.of(new DataField(7, "id", new AtomicType(TypeRoot.INT, 0, 0, true)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OrcFileWriter writer = OrcFileWriter.create(out, "empty.orc", new RowType(fields, false), OrcWriteOptions.defaults())) {
            DataFileWriteResult result = writer.finish();
            assertThat(result.rowCount()).isZero();
            assertThat(result.statistics()).containsExactly(new io.tarn.vector.writer.ColumnStatistics(7, null, null, 0));
        }
        byte[] file = out.toByteArray();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("empty.orc", file), ReadOptions.of(fields), fields, allocator)) {
            assertThat(reader.nextBatch()).isFalse();
            assertThat(reader.fileRowCount()).isZero();
        }
        org.apache.paimon.types.RowType paimonType = org.apache.paimon.types.RowType.of(
                new org.apache.paimon.types.DataField(7, "id", org.apache.paimon.types.DataTypes.INT()));
        assertThat(OrcTestFiles.paimonRows(paimonType, file, Map.of())).isEmpty();
    }

    @Test
    public void testBatchOfAnotherSchemaIsRefused()
            throws IOException
    {
        List<DataField> fields = List.of(new DataField(0, "id", new AtomicType(TypeRoot.INT, 0, 0, true)));
        List<DataField> other = List.of(new DataField(0, "other", new AtomicType(TypeRoot.INT, 0, 0, true)));
        try (OrcFileWriter writer = OrcFileWriter.create(new ByteArrayOutputStream(), "file.orc", new RowType(fields, false), OrcWriteOptions.defaults());
                VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowTypes.toArrowSchema(other), allocator)) {
            ((IntVector) batch.getVector(0)).setSafe(0, 1);
            batch.setRowCount(1);
            assertThatThrownBy(() -> writer.write(batch))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not match the schema of file.orc");
            writer.finish();
            assertThatThrownBy(() -> writer.write(batch))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("ORC file file.orc is already finished");
        }
    }

    private List<String> tarnRows(byte[] file)
            throws IOException
    {
        List<String> lines = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("file.orc", file), ReadOptions.of(FIELDS), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                lines.addAll(ArrowRowFormatter.rows(reader.root(), FIELDS));
            }
        }
        return lines;
    }
}
