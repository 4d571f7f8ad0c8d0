package io.tarn.vector.orc;

import org.apache.paimon.shade.org.apache.orc.OrcProto;
import org.apache.paimon.shade.org.apache.orc.util.BloomFilterIO;
import org.apache.paimon.shade.org.apache.orc.util.BloomFilterUtf8;
import org.apache.paimon.shade.org.apache.orc.util.Murmur3;
import org.testng.annotations.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tarn's Bloom filter hashing and bit layout agree with Apache ORC's own (the copy shaded into
 * Paimon's bundle, the writer of Paimon's ORC files): the same Murmur3 hashes of every byte
 * length up to three blocks, and filters serialized by ORC answer every probe exactly as ORC's
 * filter does, present and absent values alike. Filters outside the trust contract are not used.
 */
public class TestOrcBloomFilter
{
    @Test
    public void testMurmur3MatchesOrc()
    {
        long seed = System.nanoTime();
        System.out.println("TestOrcBloomFilter seed " + seed);
        Random random = new Random(seed);
        for (int length = 0; length <= 40; length++) {
            for (int trial = 0; trial < 20; trial++) {
                byte[] bytes = new byte[length];
                random.nextBytes(bytes);
                assertThat(BloomFilterHash.bytes(bytes)).as("length %s, seed %s", length, seed).isEqualTo(Murmur3.hash64(bytes));
            }
        }
    }

    @Test
    public void testProbesAnswerAsOrcDoes()
    {
        long seed = System.nanoTime();
        System.out.println("TestOrcBloomFilter seed " + seed);
        Random random = new Random(seed);
        BloomFilterUtf8 longs = new BloomFilterUtf8(500, 0.05);
        BloomFilterUtf8 doubles = new BloomFilterUtf8(500, 0.05);
        BloomFilterUtf8 strings = new BloomFilterUtf8(500, 0.01);
        long[] longValues = new long[500];
        double[] doubleValues = new double[500];
        String[] stringValues = new String[500];
        for (int i = 0; i < 500; i++) {
            longValues[i] = i % 2 == 0 ? random.nextLong() : random.nextInt(2000) - 1000;
            doubleValues[i] = i == 0 ? -0.0 : i == 1 ? Double.NaN : random.nextGaussian() * 1000;
            stringValues[i] = i == 0 ? "" : "€𝄞ü".repeat(i % 4) + random.nextInt();
            longs.addLong(longValues[i]);
            doubles.addDouble(doubleValues[i]);
            strings.addString(stringValues[i]);
        }
        OrcBloomFilter longFilter = parseOne(longs);
        OrcBloomFilter doubleFilter = parseOne(doubles);
        OrcBloomFilter stringFilter = parseOne(strings);
        for (int i = 0; i < 500; i++) {
            assertThat(longFilter.mightContain(BloomFilterHash.integer(longValues[i]))).isTrue();
            assertThat(doubleFilter.mightContain(BloomFilterHash.floating(doubleValues[i]))).isTrue();
            assertThat(stringFilter.mightContain(BloomFilterHash.bytes(stringValues[i].getBytes(StandardCharsets.UTF_8)))).isTrue();
        }
        int absent = 0;
        for (int i = 0; i < 5000; i++) {
            long value = i % 2 == 0 ? random.nextLong() : random.nextInt(4000) - 2000;
            double number = random.nextGaussian() * 1000;
            byte[] text = ("€" + random.nextInt()).getBytes(StandardCharsets.UTF_8);
            assertThat(longFilter.mightContain(BloomFilterHash.integer(value))).as("long %s, seed %s", value, seed).isEqualTo(longs.testLong(value));
            assertThat(doubleFilter.mightContain(BloomFilterHash.floating(number))).as("double %s, seed %s", number, seed).isEqualTo(doubles.testDouble(number));
            assertThat(stringFilter.mightContain(BloomFilterHash.bytes(text))).as("seed %s", seed).isEqualTo(strings.testBytes(text, 0, text.length));
            absent += longs.testLong(value) ? 0 : 1;
        }
        // the comparison is of answers that differ: most absent values are ruled out
        assertThat(absent).isGreaterThan(4000);
        // -0.0 and 0.0 hash apart: a probe for 0.0 alone may miss a stored -0.0
        assertThat(BloomFilterHash.floating(0.0)).isNotEqualTo(BloomFilterHash.floating(-0.0));
    }

    @Test
    public void testFiltersOutsideTheContractAreNotUsed()
    {
        BloomFilterUtf8 valid = new BloomFilterUtf8(100, 0.05);
        valid.addLong(7);
        assertThat(parse(index(valid, valid))).hasValueSatisfying(filters -> assertThat(filters).hasSize(2));
        assertThat(parse(index(entry(valid).setNumHashFunctions(0).build()))).isEmpty();
        assertThat(parse(index(entry(valid).setNumHashFunctions(OrcBloomFilter.MAX_HASH_FUNCTIONS + 1).build()))).isEmpty();
        assertThat(parse(index(entry(valid).clearUtf8Bitset().build()))).isEmpty();
        assertThat(parse(index(entry(valid).setUtf8Bitset(entry(valid).getUtf8Bitset().substring(1)).build()))).isEmpty();
        // the legacy stream's layout (bits in field 2) is not read
        OrcProto.BloomFilter legacy = OrcProto.BloomFilter.newBuilder().setNumHashFunctions(3).addBitset(-1L).build();
        assertThat(parse(index(legacy))).isEmpty();
    }

    private static OrcBloomFilter parseOne(BloomFilterUtf8 filter)
    {
        List<OrcBloomFilter> filters = parse(index(filter)).orElseThrow();
        assertThat(filters).hasSize(1);
        return filters.get(0);
    }

    private static Optional<List<OrcBloomFilter>> parse(byte[] index)
    {
        return OrcBloomFilter.parseIndex(new ProtobufReader(index, 0, index.length));
    }

    private static OrcProto.BloomFilter.Builder entry(BloomFilterUtf8 filter)
    {
        OrcProto.BloomFilter.Builder builder = OrcProto.BloomFilter.newBuilder();
        BloomFilterIO.serialize(builder, filter);
        return builder;
    }

    private static byte[] index(BloomFilterUtf8... filters)
    {
        OrcProto.BloomFilterIndex.Builder index = OrcProto.BloomFilterIndex.newBuilder();
        for (BloomFilterUtf8 filter : filters) {
            index.addBloomFilter(entry(filter).build());
        }
        return index.build().toByteArray();
    }

    private static byte[] index(OrcProto.BloomFilter entry)
    {
        return OrcProto.BloomFilterIndex.newBuilder().addBloomFilter(entry).build().toByteArray();
    }
}
