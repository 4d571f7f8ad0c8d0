package io.tarn.index.fileindex;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.Timestamp;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.tarn.index.predicate.Predicates.and;
import static io.tarn.index.predicate.Predicates.equal;
import static io.tarn.index.predicate.Predicates.greaterThan;
import static io.tarn.index.predicate.Predicates.in;
import static io.tarn.index.predicate.Predicates.isNotNull;
import static io.tarn.index.predicate.Predicates.isNull;
import static io.tarn.index.predicate.Predicates.not;
import static io.tarn.index.predicate.Predicates.notEqual;
import static io.tarn.index.predicate.Predicates.notIn;
import static io.tarn.index.predicate.Predicates.or;
import static io.tarn.index.predicate.Predicates.startsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The evaluator's semantics, worked by hand on a 10-row file: {@code c} (bitmap) holds
 * a, b, null, a, c, a, null, b, d, a; {@code k} (Bloom filter) holds 100..109; {@code x} has a
 * BSI index (not read); {@code e} an empty index.
 */
public class TestFileIndexEvaluator
{
    private static final FieldRef C = new FieldRef(1, "c", DataTypes.string());
    private static final FieldRef K = new FieldRef(2, "k", DataTypes.integer());
    private static final FieldRef X = new FieldRef(3, "x", DataTypes.bigint());
    private static final FieldRef E = new FieldRef(4, "e", DataTypes.integer());
    private static final FieldRef D = new FieldRef(5, "d", DataTypes.doubleType());
    private static final FieldRef UNINDEXED = new FieldRef(6, "u", DataTypes.integer());
    private static final List<String> VALUES = Arrays.asList("a", "b", null, "a", "c", "a", null, "b", "d", "a");

    private final FileIndexFile file;

    public TestFileIndexEvaluator()
            throws IOException
    {
        BitmapIndex.Writer bitmap = new BitmapIndex.Writer(DataTypes.string(), 2, 16384);
        VALUES.forEach(bitmap::add);
        BloomFilterIndex.Writer bloom = new BloomFilterIndex.Writer(DataTypes.integer(), 100, 0.01);
        BitmapIndex.Writer doubles = new BitmapIndex.Writer(DataTypes.doubleType(), 1, 16384);
        for (int i = 0; i < 10; i++) {
            bloom.add(100 + i);
            doubles.add(i % 2 == 0 ? 0.0 : -0.0);
        }
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        indexes.put("c", Map.of("bitmap", bitmap.serialize()));
        indexes.put("k", Map.of("bloom-filter", bloom.serialize()));
        indexes.put("x", Map.of("bsi", new byte[] {9, 9}));
        Map<String, byte[]> empty = new LinkedHashMap<>();
        empty.put("bitmap", null);
        indexes.put("e", empty);
        indexes.put("d", Map.of("bitmap", doubles.serialize()));
        file = FileIndexFile.parse(FileIndexFile.serialize(indexes));
    }

    @Test
    public void testBitmapPredicates()
            throws IOException
    {
        assertThat(rows(equal(C, "a"))).containsExactly(0, 3, 5, 9);
        assertThat(rows(notEqual(C, "a"))).containsExactly(1, 4, 7, 8);
        assertThat(rows(not(equal(C, "b")))).containsExactly(0, 3, 4, 5, 8, 9);
        assertThat(rows(in(C, List.of("b", "d", "zz")))).containsExactly(1, 7, 8);
        assertThat(rows(notIn(C, List.of("a", "b")))).containsExactly(4, 8);
        assertThat(rows(isNull(C))).containsExactly(2, 6);
        assertThat(rows(isNotNull(C))).containsExactly(0, 1, 3, 4, 5, 7, 8, 9);
        assertThat(evaluate(equal(C, "zz"))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(greaterThan(C, "a"))).isEqualTo(FileIndexResult.REMAIN);
        assertThat(evaluate(startsWith(C, "a"))).isEqualTo(FileIndexResult.REMAIN);
    }

    @Test
    public void testAndOr()
            throws IOException
    {
        assertThat(rows(or(equal(C, "c"), isNull(C)))).containsExactly(2, 4, 6);
        assertThat(rows(and(isNotNull(C), notEqual(C, "a")))).containsExactly(1, 4, 7, 8);
        // an unindexed side keeps every row of an OR, and leaves an AND to the indexed side
        assertThat(evaluate(or(equal(C, "c"), equal(UNINDEXED, 1)))).isEqualTo(FileIndexResult.REMAIN);
        assertThat(rows(and(equal(C, "c"), equal(UNINDEXED, 1)))).containsExactly(4);
        // a Bloom filter that rules a value out skips the whole file, also under AND
        assertThat(evaluate(and(equal(C, "a"), equal(K, 500)))).isEqualTo(FileIndexResult.SKIP);
        assertThat(rows(and(equal(C, "a"), equal(K, 105)))).containsExactly(0, 3, 5, 9);
        assertThat(rows(or(equal(C, "d"), equal(K, 500)))).containsExactly(8);
        assertThat(evaluate(not(and(equal(C, "a"), isNotNull(C))))).isInstanceOf(FileIndexResult.Rows.class);
    }

    @Test
    public void testExactness()
            throws IOException
    {
        // a bitmap over strings answers these predicates exactly: the rows need no second test
        assertThat(evaluate(equal(C, "a")).exact()).isTrue();
        assertThat(evaluate(notIn(C, List.of("a", "b"))).exact()).isTrue();
        assertThat(evaluate(or(equal(C, "c"), isNull(C))).exact()).isTrue();
        assertThat(evaluate(and(isNotNull(C), notEqual(C, "a"))).exact()).isTrue();
        // a Bloom filter that keeps the file proves nothing about its rows
        assertThat(evaluate(and(equal(C, "a"), equal(K, 105))).exact()).isFalse();
        // an unindexed conjunct must still be tested on the bitmap's rows
        assertThat(evaluate(and(equal(C, "c"), equal(UNINDEXED, 1))).exact()).isFalse();
        assertThat(evaluate(and(equal(UNINDEXED, 1), equal(C, "c"))).exact()).isFalse();
        // no row matches: exact by definition
        assertThat(evaluate(and(equal(C, "a"), equal(K, 500))).exact()).isTrue();
        // doubles: a zero literal looks up both zeros and NaN nothing, so the bitmap answer is exact
        BitmapIndex.Writer doubles = new BitmapIndex.Writer(DataTypes.doubleType(), 1, 16384);
        doubles.add(1.5);
        doubles.add(2.5);
        FileIndexFile doubleFile = FileIndexFile.parse(FileIndexFile.serialize(Map.of("d", Map.of("bitmap", doubles.serialize()))));
        FileIndexResult doubleResult = FileIndexEvaluator.evaluate(doubleFile, equal(D, 1.5), this::column, 2).result();
        assertThat(doubleResult).isInstanceOf(FileIndexResult.Rows.class);
        assertThat(doubleResult.exact()).isTrue();
        assertThat(FileIndexResult.REMAIN.exact()).isFalse();
    }

    @Test
    public void testNarrowingByTwoIndexesOfOneColumnKeepsExactness()
    {
        FileIndexResult exact = FileIndexResult.rows(RoaringBitmap.bitmapOf(1, 2, 3), true);
        FileIndexResult superset = FileIndexResult.rows(RoaringBitmap.bitmapOf(2, 3, 4), false);
        assertThat(FileIndexResult.REMAIN.narrow(exact).exact()).isTrue();
        assertThat(exact.narrow(FileIndexResult.REMAIN).exact()).isTrue();
        assertThat(superset.narrow(exact).exact()).isTrue();
        assertThat(((FileIndexResult.Rows) superset.narrow(exact)).rows().toArray()).containsExactly(2, 3);
        // across different predicates, AND and OR are exact only when both sides are
        assertThat(exact.and(superset).exact()).isFalse();
        assertThat(exact.or(superset).exact()).isFalse();
        assertThat(FileIndexResult.REMAIN.and(exact).exact()).isFalse();
        assertThat(exact.and(exact).exact()).isTrue();
        assertThat(FileIndexResult.SKIP.or(exact).exact()).isTrue();
    }

    @Test
    public void testBloomFilter()
            throws IOException
    {
        for (int value = 100; value < 110; value++) {
            assertThat(evaluate(equal(K, value))).isEqualTo(FileIndexResult.REMAIN);
        }
        assertThat(evaluate(equal(K, 99))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(in(K, List.of(1, 2, 3)))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(in(K, List.of(1, 105)))).isEqualTo(FileIndexResult.REMAIN);
        assertThat(evaluate(notEqual(K, 99))).isEqualTo(FileIndexResult.REMAIN);
        assertThat(evaluate(notIn(K, List.of(99)))).isEqualTo(FileIndexResult.REMAIN);
    }

    @Test
    public void testUnknownAndEmptyIndexes()
            throws IOException
    {
        FileIndexEvaluator.Evaluation unknown = FileIndexEvaluator.evaluate(file, equal(X, 5L), this::column, 10);
        assertThat(unknown.result()).isEqualTo(FileIndexResult.REMAIN);
        assertThat(unknown.indexesIgnored()).isEqualTo(1);
        assertThat(evaluate(equal(E, 1))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(isNotNull(E))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(isNull(E))).isEqualTo(FileIndexResult.REMAIN);
    }

    @Test
    public void testSignedZeroAndNaNOnTheHandWrittenFile()
            throws IOException
    {
        // d holds 0.0, -0.0, 0.0, -0.0, ...: under SQL every row equals either zero
        assertThat(rows(equal(D, 0.0))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(rows(equal(D, -0.0))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(rows(in(D, List.of(-0.0, 7.0)))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(evaluate(notEqual(D, 0.0))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(notIn(D, List.of(-0.0)))).isEqualTo(FileIndexResult.SKIP);
        // NaN <> v holds for every non-NaN value, NaN = v for none
        assertThat(rows(notEqual(D, Double.NaN))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(evaluate(equal(D, Double.NaN))).isEqualTo(FileIndexResult.SKIP);
        assertThat(evaluate(equal(D, 1.5))).isEqualTo(FileIndexResult.SKIP);
    }

    @DataProvider
    public Object[][] floatingPointIndexes()
    {
        return new Object[][] {{DataTypes.doubleType(), BitmapIndex.VERSION_1}, {DataTypes.doubleType(), BitmapIndex.VERSION_2},
                {DataTypes.floatType(), BitmapIndex.VERSION_1}, {DataTypes.floatType(), BitmapIndex.VERSION_2}};
    }

    /**
     * Bitmap and Bloom filter indexes over every special floating-point value answer as SQL
     * compares (Java's operators on primitives: -0.0 == 0.0, NaN equal to nothing).
     */
    @Test(dataProvider = "floatingPointIndexes")
    public void testFloatingPointLiteralsFollowSql(DataType type, int version)
            throws IOException
    {
        boolean isFloat = type.equals(DataTypes.floatType());
        List<Double> values = Arrays.asList(-0.0, 0.0, Double.NaN, null, 1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                isFloat ? (double) Float.MIN_VALUE : Double.MIN_VALUE, isFloat ? (double) -Float.MIN_VALUE : -Double.MIN_VALUE, -0.0, 2.5);
        FieldRef field = new FieldRef(7, "v", type);
        BitmapIndex.Writer bitmap = new BitmapIndex.Writer(type, version, 16);
        BloomFilterIndex.Writer bloom = new BloomFilterIndex.Writer(type, 100, 0.01);
        for (Double value : values) {
            Object internal = value == null ? null : isFloat ? (Object) value.floatValue() : (Object) value;
            bitmap.add(internal);
            if (internal != null) {
                bloom.add(internal);
            }
        }
        FileIndexFile bitmapFile = FileIndexFile.parse(FileIndexFile.serialize(Map.of("v", Map.of("bitmap", bitmap.serialize()))));
        FileIndexFile bloomFile = FileIndexFile.parse(FileIndexFile.serialize(Map.of("v", Map.of("bloom-filter", bloom.serialize()))));
        FileIndexEvaluator.ColumnResolver resolver = ref -> ref.equals(field) ? Optional.of(new FileIndexEvaluator.IndexColumn("v", type)) : Optional.empty();
        List<Double> literals = List.of(0.0, -0.0, Double.NaN, 1.5, Double.POSITIVE_INFINITY, isFloat ? (double) Float.MIN_VALUE : Double.MIN_VALUE, 7.0);
        for (double literal : literals) {
            Object internal = isFloat ? (Object) (float) literal : (Object) literal;
            List<Integer> equalRows = new ArrayList<>();
            List<Integer> notEqualRows = new ArrayList<>();
            for (int row = 0; row < values.size(); row++) {
                if (values.get(row) != null) {
                    (values.get(row) == literal ? equalRows : notEqualRows).add(row);
                }
            }
            assertRows(FileIndexEvaluator.evaluate(bitmapFile, equal(field, internal), resolver, values.size()).result(), equalRows, literal + " =");
            assertRows(FileIndexEvaluator.evaluate(bitmapFile, in(field, List.of(internal)), resolver, values.size()).result(), equalRows, literal + " IN");
            assertRows(FileIndexEvaluator.evaluate(bitmapFile, notEqual(field, internal), resolver, values.size()).result(), notEqualRows, literal + " <>");
            assertRows(FileIndexEvaluator.evaluate(bitmapFile, notIn(field, List.of(internal)), resolver, values.size()).result(), notEqualRows, literal + " NOT IN");
            FileIndexResult bloomResult = FileIndexEvaluator.evaluate(bloomFile, equal(field, internal), resolver, values.size()).result();
            if (!equalRows.isEmpty()) {
                assertThat(bloomResult).as("Bloom filter for = %s", literal).isEqualTo(FileIndexResult.REMAIN);
            }
            if (Double.isNaN(literal)) {
                assertThat(bloomResult).as("Bloom filter for = NaN").isEqualTo(FileIndexResult.SKIP);
            }
        }
    }

    /**
     * A Bloom filter over one zero keeps the file for the other zero, which hashes apart, and
     * rules out both zeros when it holds neither.
     */
    @Test
    public void testBloomFilterProbesBothZeros()
            throws IOException
    {
        for (double stored : new double[] {0.0, -0.0, 5.0}) {
            for (DataType type : List.of(DataTypes.doubleType(), DataTypes.floatType())) {
                BloomFilterIndex.Writer bloom = new BloomFilterIndex.Writer(type, 100, 0.001);
                bloom.add(type.equals(DataTypes.floatType()) ? (Object) (float) stored : (Object) stored);
                FileIndexFile bloomFile = FileIndexFile.parse(FileIndexFile.serialize(Map.of("v", Map.of("bloom-filter", bloom.serialize()))));
                FieldRef field = new FieldRef(7, "v", type);
                FileIndexEvaluator.ColumnResolver resolver = ref -> Optional.of(new FileIndexEvaluator.IndexColumn("v", type));
                FileIndexResult expected = stored == 0.0 ? FileIndexResult.REMAIN : FileIndexResult.SKIP;
                for (double zero : new double[] {0.0, -0.0}) {
                    Object literal = type.equals(DataTypes.floatType()) ? (Object) (float) zero : (Object) zero;
                    assertThat(FileIndexEvaluator.evaluate(bloomFile, equal(field, literal), resolver, 1).result()).as("%s stored, %s looked up", stored, zero).isEqualTo(expected);
                    assertThat(FileIndexEvaluator.evaluate(bloomFile, in(field, List.of(literal)), resolver, 1).result()).as("%s stored, IN (%s)", stored, zero).isEqualTo(expected);
                }
            }
        }
    }

    private static void assertRows(FileIndexResult result, List<Integer> expected, String description)
    {
        if (expected.isEmpty() && result.skip()) {
            return;
        }
        assertThat(result).as(description).isInstanceOf(FileIndexResult.Rows.class);
        assertThat(((FileIndexResult.Rows) result).rows().toArray()).as(description).containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        assertThat(result.exact()).as(description).isTrue();
    }

    @Test
    public void testTimestampNegationsNeedExactKeys()
            throws IOException
    {
        FieldRef millis = new FieldRef(7, "t", DataTypes.timestamp(3));
        FieldRef nanos = new FieldRef(8, "n", DataTypes.timestamp(9));
        BitmapIndex.Writer millisIndex = new BitmapIndex.Writer(millis.type(), 2, 16384);
        BitmapIndex.Writer nanosIndex = new BitmapIndex.Writer(nanos.type(), 2, 16384);
        for (int i = 0; i < 10; i++) {
            millisIndex.add(Timestamp.ofMillis(1000 + i % 2));
            // two values per micro: the keys cannot tell them apart
            nanosIndex.add(new Timestamp(1000, i % 2));
        }
        FileIndexFile timestamps = FileIndexFile.parse(FileIndexFile.serialize(Map.of("t", Map.of("bitmap", millisIndex.serialize()), "n", Map.of("bitmap", nanosIndex.serialize()))));
        FileIndexEvaluator.ColumnResolver resolver = field -> Optional.of(new FileIndexEvaluator.IndexColumn(field.name(), field.type()));
        FileIndexResult exact = FileIndexEvaluator.evaluate(timestamps, notEqual(millis, Timestamp.ofMillis(1000)), resolver, 10).result();
        assertThat(((FileIndexResult.Rows) exact).rows().toArray()).containsExactly(1, 3, 5, 7, 9);
        assertThat(FileIndexEvaluator.evaluate(timestamps, notEqual(millis, new Timestamp(1000, 5)), resolver, 10).result()).isEqualTo(FileIndexResult.REMAIN);
        assertThat(FileIndexEvaluator.evaluate(timestamps, notIn(nanos, List.of(new Timestamp(1000, 0))), resolver, 10).result()).isEqualTo(FileIndexResult.REMAIN);
        assertThat(FileIndexEvaluator.evaluate(timestamps, equal(nanos, new Timestamp(1000, 1)), resolver, 10).result()).isInstanceOf(FileIndexResult.Rows.class);
    }

    @Test
    public void testRowCountMismatchIsCorrupt()
    {
        assertThatThrownBy(() -> FileIndexEvaluator.evaluate(file, equal(C, "a"), this::column, 11))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("covers 10 rows");
    }

    @Test
    public void testOptionsParsing()
    {
        List<FileIndexOptions.IndexSpec> specs = FileIndexOptions.parse(Map.of(
                "file-index.bloom-filter.columns", "a, m[k1]",
                "file-index.bloom-filter.a.fpp", "0.01",
                "file-index.bloom-filter.m.items", "50",
                "file-index.bloom-filter.m[k1].fpp", "0.2",
                "file-index.bitmap.columns", "b",
                "file-index.in-manifest-threshold", "1 kb"));
        assertThat(specs).containsExactlyInAnyOrder(
                new FileIndexOptions.IndexSpec("a", Optional.empty(), "bloom-filter", Map.of("fpp", "0.01")),
                new FileIndexOptions.IndexSpec("m", Optional.of("k1"), "bloom-filter", Map.of("items", "50", "fpp", "0.2")),
                new FileIndexOptions.IndexSpec("b", Optional.empty(), "bitmap", Map.of()));
        assertThatThrownBy(() -> FileIndexOptions.parse(Map.of("file-index.bitmap.columns", "b", "file-index.bitmap.z.version", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column z");
        assertThatThrownBy(() -> FileIndexBuilder.create(FileIndexOptions.parse(Map.of("file-index.bitmap.columns", "nope")),
                io.tarn.types.RowType.of(List.of(new DataField(0, "b", DataTypes.integer(), Optional.empty(), Optional.empty())))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope");
    }

    private List<Integer> rows(Predicate predicate)
            throws IOException
    {
        FileIndexResult result = evaluate(predicate);
        assertThat(result).as("%s", predicate).isInstanceOf(FileIndexResult.Rows.class);
        RoaringBitmap rows = ((FileIndexResult.Rows) result).rows();
        return Arrays.stream(rows.toArray()).boxed().toList();
    }

    private FileIndexResult evaluate(Predicate predicate)
            throws IOException
    {
        return FileIndexEvaluator.evaluate(file, predicate, this::column, 10).result();
    }

    private Optional<FileIndexEvaluator.IndexColumn> column(FieldRef field)
    {
        return field.fieldId() == UNINDEXED.fieldId() ? Optional.empty() : Optional.of(new FileIndexEvaluator.IndexColumn(field.name(), field.type()));
    }
}
