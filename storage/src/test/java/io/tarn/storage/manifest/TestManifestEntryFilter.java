package io.tarn.storage.manifest;

import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.types.DataTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading with a {@link ManifestEntryFilter}: the entries it accepts come back whole, the others
 * are not returned; the filter sees the kind, partition, bucket and, when it asks, the level.
 * The expected entries are chosen by hand from the ones written.
 */
public class TestManifestEntryFilter
{
    private static final List<BinaryRow> PARTITIONS = List.of(partition("2024-01-01"), partition("2024-01-02"), partition("2024-01-03"));

    @Test
    public void testFilterByPartitionBucketAndLevel()
            throws IOException
    {
        List<ManifestEntry> entries = entries(300);
        for (String compression : List.of("none", "deflate", "zstd", "snappy")) {
            byte[] bytes = ManifestFile.write(entries, compression);
            assertThat(ManifestFile.read(bytes, "manifest-" + compression)).isEqualTo(entries);

            List<ManifestEntry> secondPartition = entries.stream().filter(entry -> entry.partition().equals(PARTITIONS.get(1))).toList();
            assertThat(secondPartition).hasSize(100);
            assertThat(ManifestFile.read(bytes, "manifest-" + compression, (kind, partition, bucket, totalBuckets) -> partition.equals(PARTITIONS.get(1))))
                    .isEqualTo(secondPartition);

            List<ManifestEntry> bucketOneAboveLevelZero = entries.stream().filter(entry -> entry.bucket() == 1 && entry.file().level() > 0).toList();
            assertThat(bucketOneAboveLevelZero).isNotEmpty();
            assertThat(ManifestFile.read(bytes, "manifest-" + compression, new LevelFilter(1))).isEqualTo(bucketOneAboveLevelZero);

            List<ManifestEntry> deletes = entries.stream().filter(entry -> entry.kind() == FileKind.DELETE).toList();
            assertThat(deletes).isNotEmpty();
            assertThat(ManifestFile.read(bytes, "manifest-" + compression, (kind, partition, bucket, totalBuckets) -> kind == FileKind.DELETE))
                    .isEqualTo(deletes);
        }
    }

    @Test
    public void testFilterWhenTheFileComesFirst()
            throws IOException
    {
        // a layout no Paimon release wrote: the reader cannot filter before _FILE and filters after it
        List<ManifestEntry> entries = entries(30);
        byte[] bytes = reorder(ManifestFile.write(entries, "none"));
        assertThat(ManifestFile.read(bytes, "manifest-reordered")).isEqualTo(entries);
        assertThat(ManifestFile.read(bytes, "manifest-reordered", new LevelFilter(2)))
                .isEqualTo(entries.stream().filter(entry -> entry.bucket() == 2 && entry.file().level() > 0).toList());
    }

    @Test
    public void testLargeZstdBlocks()
            throws IOException
    {
        // identical stats compress far beyond the first guess of the block size, which must grow
        List<ManifestEntry> entries = entries(5000);
        byte[] bytes = ManifestFile.write(entries, "zstd");
        assertThat(ManifestFile.read(bytes, "manifest-large")).isEqualTo(entries);
        assertThat(ManifestFile.read(bytes, "manifest-large-again")).isEqualTo(entries);
    }

    /** Entries cycling through 3 partitions, 3 buckets, levels 0..4 and both kinds. */
    private static List<ManifestEntry> entries(int count)
    {
        List<ManifestEntry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BinaryRow partition = PARTITIONS.get(i * PARTITIONS.size() / count);
            entries.add(new ManifestEntry(i % 7 == 3 ? FileKind.DELETE : FileKind.ADD, partition, i % 3, 3, file("data-" + i + ".parquet", i % 5)));
        }
        return entries;
    }

    private static DataFileMeta file(String name, int level)
    {
        BinaryRow min = BinaryRowWriter.encode(List.of(DataTypes.integer(), DataTypes.string()), Arrays.asList(1, "a"));
        BinaryRow max = BinaryRowWriter.encode(List.of(DataTypes.integer(), DataTypes.string()), Arrays.asList(9, null));
        return new DataFileMeta(name, 1000, 10, BinaryRow.EMPTY, BinaryRow.EMPTY, SimpleStats.EMPTY, new SimpleStats(min, max, Arrays.asList(0L, null)),
                0, 9, 0, level, List.of(), OptionalLong.of(1_700_000_000_000L), OptionalLong.of(0), null, OptionalInt.of(0),
                Optional.of(List.of("id", "name")), Optional.empty(), OptionalLong.empty(), Optional.empty());
    }

    private static BinaryRow partition(String day)
    {
        return BinaryRowWriter.encode(List.of(DataTypes.string()), List.of(day));
    }

    /** Rewrites a manifest with _FILE as the first field of each row. */
    private static byte[] reorder(byte[] file)
            throws IOException
    {
        List<GenericRecord> records = AvroRecords.read(file, "manifest");
        Schema schema = records.get(0).getSchema();
        List<Schema.Field> fields = new ArrayList<>();
        fields.add(new Schema.Field(schema.getField("_FILE"), schema.getField("_FILE").schema()));
        for (Schema.Field field : schema.getFields()) {
            if (!field.name().equals("_FILE")) {
                fields.add(new Schema.Field(field, field.schema()));
            }
        }
        Schema reordered = Schema.createRecord(schema.getName(), null, null, false, fields);
        List<GenericRecord> rewritten = new ArrayList<>();
        for (GenericRecord record : records) {
            GenericData.Record copy = new GenericData.Record(reordered);
            for (Schema.Field field : schema.getFields()) {
                copy.put(field.name(), writable(record.get(field.name())));
            }
            rewritten.add(copy);
        }
        return AvroRecords.write(reordered, rewritten, "none");
    }

    /** The generic reader's values as Avro's writer takes them: bytes as ByteBuffers. */
    private static Object writable(Object value)
    {
        if (value instanceof byte[] bytes) {
            return ByteBuffer.wrap(bytes);
        }
        if (value instanceof GenericRecord record) {
            GenericData.Record copy = new GenericData.Record(record.getSchema());
            for (Schema.Field field : record.getSchema().getFields()) {
                copy.put(field.pos(), writable(record.get(field.pos())));
            }
            return copy;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(TestManifestEntryFilter::writable).toList();
        }
        return value;
    }

    /** Accepts one bucket and levels above 0. */
    private record LevelFilter(int acceptedBucket)
            implements ManifestEntryFilter
    {
        @Override
        public boolean test(FileKind kind, BinaryRow partition, int bucket, int totalBuckets)
        {
            return bucket == acceptedBucket;
        }

        @Override
        public boolean testsLevel()
        {
            return true;
        }

        @Override
        public boolean testLevel(FileKind kind, int level)
        {
            return level > 0;
        }
    }
}
