package io.tarn.index.fileindex;

import io.tarn.index.predicate.FieldRef;
import io.tarn.types.DataTypes;
import org.testng.annotations.Test;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tarn.index.predicate.Predicates.equal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A container opened from storage reads its head and then only the payloads a filter needs.
 */
public class TestFileIndexFile
{
    private static final FieldRef TOKEN = new FieldRef(1, "token", DataTypes.string());

    @Test
    public void testOpenReadsOnlyTheNeededPayload()
            throws IOException
    {
        BloomFilterIndex.Writer bloom = new BloomFilterIndex.Writer(DataTypes.string(), 20_000, 0.01);
        for (int i = 0; i < 1000; i++) {
            bloom.add("token-" + i);
        }
        BitmapIndex.Writer bitmap = new BitmapIndex.Writer(DataTypes.string(), 2, 16384);
        for (int i = 0; i < 50_000; i++) {
            bitmap.add("category-" + (i % 200));
        }
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        indexes.put("category", Map.of("bitmap", bitmap.serialize()));
        indexes.put("token", Map.of("bloom-filter", bloom.serialize()));
        byte[] container = FileIndexFile.serialize(indexes);
        FileIndexFile.Index bloomIndex = FileIndexFile.parse(container).indexes("token").get(0);
        FileIndexFile.Index bitmapIndex = FileIndexFile.parse(container).indexes("category").get(0);
        assertThat(bloomIndex.start()).as("the bloom filter lies past the prefix read with the head").isGreaterThan(FileIndexFile.PREFIX_BYTES);

        RecordingReader reader = new RecordingReader(container);
        FileIndexFile file = FileIndexFile.open(reader, container.length);
        assertThat(reader.reads).containsExactly(new Range(0, FileIndexFile.PREFIX_BYTES));

        FileIndexEvaluator.ColumnResolver resolver = field -> Optional.of(new FileIndexEvaluator.IndexColumn(field.name(), field.type()));
        assertThat(FileIndexEvaluator.evaluate(file, equal(TOKEN, "token-17"), resolver, 50_000).result()).isEqualTo(FileIndexResult.REMAIN);
        assertThat(FileIndexEvaluator.evaluate(file, equal(TOKEN, "absent"), resolver, 50_000).result()).isEqualTo(FileIndexResult.SKIP);
        // each evaluation reads the Bloom filter once; the bitmap, larger, is never read
        Range bloomRange = new Range(bloomIndex.start(), bloomIndex.length());
        assertThat(reader.reads).containsExactly(new Range(0, FileIndexFile.PREFIX_BYTES), bloomRange, bloomRange);
        assertThat(bitmapIndex.length()).isGreaterThan(bloomIndex.length());
    }

    @Test
    public void testLargeBloomFilterIsProbedByteByByte()
            throws IOException
    {
        BloomFilterIndex.Writer writer = new BloomFilterIndex.Writer(DataTypes.string(), 200_000, 0.01);
        for (int i = 0; i < 100_000; i++) {
            writer.add("token-" + i);
        }
        byte[] payload = writer.serialize();
        int hashFunctions = java.nio.ByteBuffer.wrap(payload).getInt();
        byte[] container = FileIndexFile.serialize(Map.of("token", Map.of("bloom-filter", payload)));
        FileIndexFile.Index index = FileIndexFile.parse(container).indexes("token").get(0);
        assertThat(index.length()).isGreaterThan(FileIndexEvaluator.PROBED_PAYLOAD_BYTES_PER_VALUE);

        BloomFilterIndex whole = BloomFilterIndex.read(DataTypes.string(), java.nio.ByteBuffer.wrap(payload));
        FileIndexEvaluator.ColumnResolver resolver = field -> Optional.of(new FileIndexEvaluator.IndexColumn(field.name(), field.type()));
        int skipped = 0;
        for (int i = 0; i < 2_000; i++) {
            // half present, half absent; the probed filter must answer exactly as the whole one
            String value = "token-" + (i * 97);
            RecordingReader reader = new RecordingReader(container);
            FileIndexResult result = FileIndexEvaluator.evaluate(FileIndexFile.open(reader, container.length), equal(TOKEN, value), resolver, 100_000).result();
            assertThat(result).as(value).isEqualTo(whole.mightContain(value) ? FileIndexResult.REMAIN : FileIndexResult.SKIP);
            skipped += result == FileIndexResult.SKIP ? 1 : 0;
            // the count of hash functions lies in the prefix read with the head; then a byte per
            // probe, unless the probed byte lies in that prefix too
            assertThat(reader.reads.get(0)).isEqualTo(new Range(0, FileIndexFile.PREFIX_BYTES));
            List<Range> probes = reader.reads.subList(1, reader.reads.size());
            assertThat(probes).hasSizeLessThanOrEqualTo(hashFunctions);
            assertThat(probes).allSatisfy(probe -> {
                assertThat(probe.length()).isEqualTo(1);
                assertThat(probe.position()).isBetween(index.start() + 4L, index.start() + (long) index.length() - 1);
            });
        }
        assertThat(skipped).as("absent values skipped").isGreaterThan(900);
    }

    @Test
    public void testProbedBloomFilterWithACorruptHeadIsRefused()
            throws IOException
    {
        byte[] payload = new BloomFilterIndex.Writer(DataTypes.string(), 200_000, 0.01).serialize();
        payload[3] = 0;
        payload[2] = 0;
        byte[] container = FileIndexFile.serialize(Map.of("token", Map.of("bloom-filter", payload)));
        FileIndexFile file = FileIndexFile.open(new RecordingReader(container), container.length);
        FileIndexEvaluator.ColumnResolver resolver = field -> Optional.of(new FileIndexEvaluator.IndexColumn(field.name(), field.type()));
        assertThatThrownBy(() -> FileIndexEvaluator.evaluate(file, equal(TOKEN, "x"), resolver, 10))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("0 hash functions");
    }

    @Test
    public void testOpenAgreesWithParseForAHeadLongerThanThePrefix()
            throws IOException
    {
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        for (int column = 0; column < 300; column++) {
            BloomFilterIndex.Writer bloom = new BloomFilterIndex.Writer(DataTypes.integer(), 10, 0.1);
            bloom.add(column);
            indexes.put("a_rather_long_column_name_" + column, Map.of("bloom-filter", bloom.serialize()));
        }
        byte[] container = FileIndexFile.serialize(indexes);
        FileIndexFile parsed = FileIndexFile.parse(container);
        FileIndexFile opened = FileIndexFile.open(new RecordingReader(container), container.length);

        assertThat(opened.columns()).containsExactlyElementsOf(parsed.columns()).hasSize(300);
        for (String column : parsed.columns()) {
            FileIndexFile.Index index = opened.indexes(column).get(0);
            assertThat(index).isEqualTo(parsed.indexes(column).get(0));
            assertThat(opened.payload(index)).isEqualTo(parsed.payload(index));
        }
    }

    @Test
    public void testOpenChecksRangesAgainstTheStoredLength()
            throws IOException
    {
        BloomFilterIndex.Writer bloom = new BloomFilterIndex.Writer(DataTypes.integer(), 10_000, 0.01);
        byte[] container = FileIndexFile.serialize(Map.of("k", Map.of("bloom-filter", bloom.serialize())));
        byte[] truncated = Arrays.copyOf(container, container.length - 1);

        assertThatThrownBy(() -> FileIndexFile.open(new RecordingReader(truncated), truncated.length))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("outside the body");
        assertThatThrownBy(() -> FileIndexFile.open(new RecordingReader(new byte[10]), 10))
                .isInstanceOf(CorruptIndexException.class);
        // a container shorter than its listed length fails on the read, not with wrong bytes
        assertThatThrownBy(() -> FileIndexFile.open(new RecordingReader(truncated), container.length).payload(FileIndexFile.parse(container).indexes("k").get(0)))
                .isInstanceOf(EOFException.class);
    }

    private record Range(long position, int length) {}

    private static final class RecordingReader
            implements FileIndexFile.RangeReader
    {
        private final byte[] bytes;
        private final List<Range> reads = new ArrayList<>();

        RecordingReader(byte[] bytes)
        {
            this.bytes = bytes;
        }

        @Override
        public void readFully(long position, byte[] buffer, int offset, int length)
                throws IOException
        {
            if (position + length > bytes.length) {
                throw new EOFException("Read of " + length + " bytes at " + position + " past " + bytes.length);
            }
            reads.add(new Range(position, length));
            System.arraycopy(bytes, (int) position, buffer, offset, length);
        }
    }
}
