package io.tarn.index.predicate;

import org.testng.annotations.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LongMembership} against a {@link HashSet}: dense sets (bitmap), sparse ones (hash
 * table), the extremes of {@code long}, and values next to every member, where an off-by-one in
 * the bitmap's offset or the table's probing would show.
 */
public class TestLongMembership
{
    @Test
    public void testDenseSetsUseABitmapAndSparseOnesAHashTable()
    {
        // 204 join keys spread over 200,000 part keys (TPC-H Q17's dynamic filter): 3,100 words
        assertThat(new LongMembership(LongStream.range(0, 204).map(i -> 2409 + i * 971).toArray()).usesBitmap()).isTrue();
        assertThat(new LongMembership(new long[] {0, 1L << 40}).usesBitmap()).isFalse();
        assertThat(new LongMembership(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}).usesBitmap()).isFalse();
        // 100,000 keys over 6 M values fit the 1 MiB cap; over 9 M they do not
        assertThat(new LongMembership(LongStream.range(0, 100_000).map(i -> i * 60).toArray()).usesBitmap()).isTrue();
        assertThat(new LongMembership(LongStream.range(0, 100_000).map(i -> i * 90).toArray()).usesBitmap()).isFalse();
    }

    @Test
    public void testEmptyAndSingleSets()
    {
        LongMembership empty = new LongMembership(new long[0]);
        for (long value : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            assertThat(empty.contains(value)).isFalse();
        }
        for (long member : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
            LongMembership single = new LongMembership(new long[] {member});
            assertThat(single.contains(member)).isTrue();
            if (member != Long.MIN_VALUE) {
                assertThat(single.contains(member - 1)).isFalse();
            }
            if (member != Long.MAX_VALUE) {
                assertThat(single.contains(member + 1)).isFalse();
            }
        }
    }

    @Test
    public void testExtremesInAHashTable()
    {
        long[] members = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        LongMembership set = new LongMembership(members);
        assertThat(set.usesBitmap()).isFalse();
        for (long member : members) {
            assertThat(set.contains(member)).as("%s", member).isTrue();
        }
        for (long other : new long[] {Long.MIN_VALUE + 2, -2, 1, Long.MAX_VALUE - 2}) {
            assertThat(set.contains(other)).as("%s", other).isFalse();
        }
        // without Long.MIN_VALUE in the set, the table's empty marker must not read as a member
        LongMembership withoutMinimum = new LongMembership(Arrays.copyOfRange(members, 1, members.length));
        assertThat(withoutMinimum.contains(Long.MIN_VALUE)).isFalse();
        assertThat(withoutMinimum.contains(Long.MIN_VALUE + 1)).isTrue();
    }

    @Test
    public void testRandomSetsAgainstAHashSet()
    {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int round = 0; round < 400; round++) {
            int count = 1 + random.nextInt(round < 200 ? 50 : 5_000);
            // spans from a few values per member (bitmap) to the whole long range (hash table)
            long spread = switch (round % 4) {
                case 0 -> 2;
                case 1 -> 200;
                case 2 -> 1L << 30;
                default -> Long.MAX_VALUE;
            };
            long base = random.nextLong();
            Set<Long> reference = new HashSet<>();
            while (reference.size() < count) {
                long value = spread == Long.MAX_VALUE ? random.nextLong() : base + Math.floorMod(random.nextLong(), spread * count);
                reference.add(value);
            }
            long[] sorted = reference.stream().mapToLong(Long::longValue).sorted().toArray();
            LongMembership set = new LongMembership(sorted);
            for (long member : sorted) {
                for (long probe : new long[] {member - 1, member, member + 1}) {
                    assertThat(set.contains(probe)).as("seed %s, round %s, value %s", seed, round, probe).isEqualTo(reference.contains(probe));
                }
            }
            for (int probe = 0; probe < 200; probe++) {
                long value = random.nextBoolean() ? random.nextLong() : sorted[0] + Math.floorMod(random.nextLong(), spread * count + 64);
                assertThat(set.contains(value)).as("seed %s, round %s, value %s", seed, round, value).isEqualTo(reference.contains(value));
            }
        }
    }
}
