package io.tarn.trino;

import java.util.Random;
import java.util.function.Function;

/**
 * Random SQL predicates for the tests that compare Tarn's answers with Trino's own: trees of
 * NOT, AND and OR over leaves the test draws, such as {@code x < 5} or {@code s IN ('a', 'b')}.
 */
final class SqlPredicateTrees
{
    private SqlPredicateTrees() {}

    /**
     * A tree at most {@code depth} levels above its leaves. At each level a leaf stands alone with
     * probability 1/3; otherwise a NOT (1/4), an OR (1/4) or an AND (1/2) joins smaller trees.
     */
    static String tree(Random random, int depth, Function<Random, String> leaf)
    {
        if (depth == 0 || random.nextInt(3) == 0) {
            return leaf.apply(random);
        }
        return switch (random.nextInt(4)) {
            case 0 -> "NOT (" + tree(random, depth - 1, leaf) + ")";
            case 1 -> "(" + tree(random, depth - 1, leaf) + " OR " + tree(random, depth - 1, leaf) + ")";
            default -> "(" + tree(random, depth - 1, leaf) + " AND " + tree(random, depth - 1, leaf) + ")";
        };
    }
}
