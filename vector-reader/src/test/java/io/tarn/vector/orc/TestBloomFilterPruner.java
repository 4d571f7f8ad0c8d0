package io.tarn.vector.orc;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.ReaderMetrics;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Row groups that ORC's Bloom filters rule out are skipped within the stripes read, and stripes
 * none of whose groups may match are not decoded; a Bloom filter stream that is corrupt is
 * ignored (the rows are read and filtered by their values), since the filters only ever save
 * work: the file still reads, and a filtered read returns the same rows.
 */
public class TestBloomFilterPruner
{
    private static final int ROWS = 6000;
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataField(0, "id", DataTypes.INT().notNull()),
            new org.apache.paimon.types.DataField(1, "v", DataTypes.BIGINT()),
            new org.apache.paimon.types.DataField(2, "s", DataTypes.STRING()));
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(ROW_TYPE);

    private final RootAllocator allocator = new RootAllocator();

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @DataProvider
    public Object[][] codecs()
    {
        return new Object[][] {{"none"}, {"zstd"}};
    }

    @Test(dataProvider = "codecs")
    public void testCorruptBloomFiltersAreIgnored(String codec)
            throws IOException
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            // a permutation: every group spans the range, so statistics rule nothing out
            long v = (long) id * 4001 % ROWS;
            rows.add(GenericRow.of(id, v, BinaryString.fromString("ключ-" + v)));
        }
        byte[] file = OrcTestFiles.write(ROW_TYPE, rows, Map.of(
                "orc.bloom.filter.columns", "v,s",
                "orc.row.index.stride", "1000",
                "orc.stripe.size", "30000",
                "orc.rows.between.memory.checks", "100"), codec);
        FieldRef v = FieldRef.of(FIELDS.get(1));
        FieldRef s = FieldRef.of(FIELDS.get(2));
        Predicate filter = Predicates.or(Predicates.equal(v, 1234L), Predicates.equal(s, "ключ-4321"));
        List<Integer> matches = List.of(id(1234), id(4321));

        Result intact = read(file, filter);
        assertThat(intact.ids()).containsAll(matches);
        assertThat(intact.metrics().rowGroupsSkippedByBloomFilter()).as("groups skipped by Bloom filters").isPositive();
        assertThat(intact.metrics().rowsRead()).isLessThan(ROWS);

        byte[] corrupt = corruptBloomFilters(file);
        assertThat(corrupt).isNotEqualTo(file);
        Result ignored = read(corrupt, filter);
        assertThat(ignored.metrics().rowGroupsSkippedByBloomFilter()).isZero();
        assertThat(ignored.metrics().rowsRead()).isEqualTo(ROWS);
        assertThat(ignored.ids()).hasSize(ROWS).containsAll(matches);
        // a filter without equality leaves does not read the Bloom filter streams
        assertThat(read(corrupt, Predicates.alwaysTrue()).ids()).hasSize(ROWS);
    }

    /**
     * The row whose v is {@code value}: the inverse of the permutation.
     */
    private static int id(long value)
    {
        for (int id = 0; id < ROWS; id++) {
            if ((long) id * 4001 % ROWS == value) {
                return id;
            }
        }
        throw new IllegalArgumentException("No row with v " + value);
    }

    /**
     * The file with every BLOOM_FILTER_UTF8 stream overwritten by 0xFF bytes, which neither
     * decompress nor parse as protobuf.
     */
    private static byte[] corruptBloomFilters(byte[] file)
            throws IOException
    {
        byte[] corrupt = file.clone();
        OrcTail tail = OrcTail.read(DataFileInput.of("test.orc", file));
        int streams = 0;
        for (StripeInformation stripe : tail.footer().stripes()) {
            int footerStart = (int) (stripe.offset() + stripe.indexLength() + stripe.dataLength());
            byte[] footerBytes = new DecompressedStream("footer", file, footerStart, (int) stripe.footerLength(), tail.newCodec(), tail.blockSize())
                    .readAll(1 << 20);
            StripeFooter footer = StripeFooter.parse(new ProtobufReader(footerBytes, 0, footerBytes.length));
            long offset = stripe.offset();
            for (StripeFooter.Stream stream : footer.streams()) {
                if (stream.kind() == StripeFooter.Stream.BLOOM_FILTER_UTF8) {
                    Arrays.fill(corrupt, (int) offset, (int) (offset + stream.length()), (byte) 0xFF);
                    streams++;
                }
                offset += stream.length();
            }
        }
        // Paimon's writer (ORC 1.9) writes only the UTF-8 kind, one per filtered column and stripe
        assertThat(streams).isEqualTo(2 * tail.footer().stripes().size());
        assertThat(tail.footer().stripes().size()).isGreaterThan(1);
        return corrupt;
    }

    private Result read(byte[] file, Predicate filter)
            throws IOException
    {
        List<Integer> ids = new ArrayList<>();
        try (OrcReader reader = OrcReader.open(DataFileInput.of("test.orc", file), ReadOptions.of(FIELDS).withFilter(filter), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                IntVector vector = (IntVector) reader.root().getVector(0);
                for (int i = 0; i < reader.root().getRowCount(); i++) {
                    ids.add(vector.get(i));
                }
            }
            return new Result(ids, reader.metrics());
        }
    }

    private record Result(List<Integer> ids, ReaderMetrics metrics) {}
}
