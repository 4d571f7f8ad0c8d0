package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.filter.BatchFilter;
import io.tarn.vector.filter.LeafMatches;
import io.tarn.vector.io.DataFileInput;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.roaringbitmap.RoaringBitmap;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A filter pass with {@link ReadOptions#withFilterColumnsMatched()}: string and binary
 * columns tested only by equality are compared in the pages of files Apache Paimon wrote
 * (dictionary and plain pages, v1 and v2, with nulls, small pages), and the rows the filter
 * keeps, with and without row selections, equal those computed from the written values.
 */
public class TestFilterColumnMatching
{
    private static final int ROWS = 3000;
    private static final RowType ROW_TYPE = new RowType(List.of(
            new org.apache.paimon.types.DataField(0, "id", DataTypes.BIGINT().notNull()),
            new org.apache.paimon.types.DataField(1, "s", DataTypes.STRING()),
            new org.apache.paimon.types.DataField(2, "b", DataTypes.BYTES())));

    private final RootAllocator allocator = new RootAllocator();
    private final List<DataField> fields = ParquetTestFiles.tarnFields(ROW_TYPE);
    private final FieldRef id = FieldRef.of(fields.get(0));
    private final FieldRef s = FieldRef.of(fields.get(1));
    private final FieldRef b = FieldRef.of(fields.get(2));

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    /**
     * Row {@code i}: s null every 7th row, else a short value of 50 or a long one of 400 (so
     * the dictionary of a row group may overflow into plain pages); b null every 5th row.
     */
    private static String text(int row)
    {
        if (row % 7 == 3) {
            return null;
        }
        return row % 3 == 0 ? "k" + row % 50 : "a-longer-value-" + (row * 7919) % 400;
    }

    private static byte[] binary(int row)
    {
        return row % 5 == 1 ? null : new byte[] {(byte) (row % 11), 0, (byte) (row % 13)};
    }

    private static byte[] file(Map<String, String> layout)
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            String text = text(row);
            rows.add(GenericRow.of((long) row, text == null ? null : BinaryString.fromString(text), binary(row)));
        }
        return ParquetTestFiles.write(ROW_TYPE, rows, layout, "zstd");
    }

    @DataProvider
    public Object[][] layouts()
    {
        return new Object[][] {
                {Map.of("parquet.page.size", "1024", "parquet.block.size", "16000")},
                {Map.of("parquet.page.size", "1024", "parquet.block.size", "16000", "parquet.enable.dictionary", "false")},
                {Map.of("parquet.page.size", "1024", "parquet.writer.version", "v2")},
                {Map.of("parquet.page.size", "1024", "parquet.writer.version", "v2", "parquet.enable.dictionary", "false")},
                // one dictionary for the whole file
                {Map.of()},
        };
    }

    @Test(dataProvider = "layouts")
    public void testMatchedRowsEqualTheValues(Map<String, String> layout)
            throws IOException
    {
        byte[] file = file(layout);

        String longValue = "a-longer-value-17";
        byte[] someBinary = {4, 0, 4};
        check(file, Predicates.equal(s, longValue), row -> longValue.equals(text(row)));
        check(file, Predicates.equal(s, "k7"), row -> "k7".equals(text(row)));
        check(file, Predicates.notEqual(s, "k7"), row -> text(row) != null && !"k7".equals(text(row)));
        check(file, Predicates.in(s, List.of("k3", longValue, "absent")), row -> Arrays.asList("k3", longValue).contains(text(row)));
        check(file, Predicates.notIn(s, List.of("k3", longValue)), row -> text(row) != null && !Arrays.asList("k3", longValue).contains(text(row)));
        check(file, Predicates.and(Predicates.equal(s, "k7"), Predicates.greaterOrEqual(id, 1000L)), row -> "k7".equals(text(row)) && row >= 1000);
        check(file, Predicates.or(Predicates.equal(s, "k7"), Predicates.lessThan(id, 10L)), row -> "k7".equals(text(row)) || row < 10);
        check(file, Predicates.equal(b, someBinary), row -> Arrays.equals(someBinary, binary(row)));
        check(file, Predicates.and(Predicates.equal(b, someBinary), Predicates.notEqual(s, "k7")),
                row -> Arrays.equals(someBinary, binary(row)) && text(row) != null && !"k7".equals(text(row)));
        check(file, Predicates.equal(s, "absent"), row -> false);
    }

    /**
     * A read that decodes the filter columns (a query engine wants them) answers their equality
     * tests once per dictionary entry in the batches whose values all come from a dictionary, and
     * keeps the same rows as comparing each value; plain pages fall back to the values.
     */
    @Test(dataProvider = "layouts")
    public void testDecodedColumnsAreMatchedByTheirDictionary(Map<String, String> layout)
            throws IOException
    {
        byte[] file = file(layout);
        // small pages overflow s's dictionary into plain pages early: whether a batch comes from
        // the dictionary alone is then the writer's choice, and only the rows kept are checked
        Optional<Boolean> dictionaries = "false".equals(layout.get("parquet.enable.dictionary")) ? Optional.of(false)
                : layout.isEmpty() ? Optional.of(true) : Optional.empty();
        String longValue = "a-longer-value-17";
        List<Predicate> filters = List.of(
                Predicates.equal(s, "k7"),
                Predicates.notEqual(s, longValue),
                Predicates.in(s, List.of("k3", longValue, "absent")),
                Predicates.notIn(s, List.of("k3", longValue)),
                Predicates.or(Predicates.equal(s, "k7"), Predicates.and(Predicates.notEqual(s, "k3"), Predicates.lessThan(id, 100L))));
        List<IntPredicate> expected = List.of(
                row -> "k7".equals(text(row)),
                row -> text(row) != null && !longValue.equals(text(row)),
                row -> Arrays.asList("k3", longValue).contains(text(row)),
                row -> text(row) != null && !Arrays.asList("k3", longValue).contains(text(row)),
                row -> "k7".equals(text(row)) || (text(row) != null && !"k3".equals(text(row)) && row < 100));
        for (int i = 0; i < filters.size(); i++) {
            Matched matched = check(file, filters.get(i), expected.get(i), false);
            if (dictionaries.isPresent()) {
                assertThat(matched.byDictionary()).as("%s", filters.get(i)).isEqualTo(dictionaries.get() ? List.of(s.fieldId()) : List.of());
            }
        }
        byte[] someBinary = {4, 0, 4};
        Matched binaryMatched = check(file, Predicates.equal(b, someBinary), row -> Arrays.equals(someBinary, binary(row)), false);
        if (dictionaries.isPresent()) {
            assertThat(binaryMatched.byDictionary()).isEqualTo(dictionaries.get() ? List.of(b.fieldId()) : List.of());
        }
    }

    @Test
    public void testColumnsTestedOtherwiseAreDecoded()
            throws IOException
    {
        byte[] file = file(Map.of("parquet.page.size", "1024"));
        // s is read in two places, one of them not an equality: s is decoded, b is still matched
        Predicate twice = Predicates.and(Predicates.or(Predicates.equal(s, "k7"), Predicates.startsWith(s, "a-longer-value-1")), Predicates.notEqual(b, new byte[] {4, 0, 4}));
        IntPredicate expected = row -> text(row) != null && ("k7".equals(text(row)) || text(row).startsWith("a-longer-value-1"))
                && binary(row) != null && !Arrays.equals(new byte[] {4, 0, 4}, binary(row));
        assertThat(check(file, twice, expected)).containsExactly(b.fieldId());
        // with one dictionary for the file, s = 'k7' is answered per dictionary entry
        Matched matched = check(file(Map.of()), twice, expected, true);
        assertThat(matched.inPages()).containsExactly(b.fieldId());
        assertThat(matched.byDictionary()).containsExactly(s.fieldId());
        assertThat(check(file, Predicates.greaterThan(s, "k7"), row -> text(row) != null && text(row).compareTo("k7") > 0)).isEmpty();
        assertThat(check(file, Predicates.isNull(s), row -> text(row) == null)).isEmpty();
    }

    /**
     * Reads the file's filter columns with matching in pages, under no selection and a sparse and
     * a dense one, and checks the rows the filter keeps; returns the field ids that were matched
     * in pages (their vectors left undecoded).
     */
    private List<Integer> check(byte[] file, Predicate filter, IntPredicate expected)
            throws IOException
    {
        return check(file, filter, expected, true).inPages();
    }

    /**
     * The field ids whose equality tests a read answered without comparing each row: in the pages
     * (the column left undecoded) and per dictionary entry (the column decoded as well).
     */
    private record Matched(List<Integer> inPages, List<Integer> byDictionary) {}

    /**
     * Reads the file's filter columns, matched in pages or not, under no selection and a sparse
     * and a dense one, and checks the rows the filter keeps.
     */
    private Matched check(byte[] file, Predicate filter, IntPredicate expected, boolean matchInPages)
            throws IOException
    {
        RoaringBitmap sparse = new RoaringBitmap();
        RoaringBitmap dense = new RoaringBitmap();
        for (int row = 0; row < ROWS; row++) {
            if (row % 97 < 5) {
                sparse.add(row);
            }
            if (row % 10 != 4) {
                dense.add(row);
            }
        }
        List<Integer> inPages = new ArrayList<>();
        List<Integer> byDictionary = new ArrayList<>();
        for (RoaringBitmap selection : Arrays.asList(null, sparse, dense)) {
            ReadOptions options = ReadOptions.of(fields).withBatchSize(700).withFilter(filter);
            if (matchInPages) {
                options = options.withFilterColumnsMatched();
            }
            if (selection != null) {
                options = options.withRowSelection(selection);
            }
            List<Integer> kept = new ArrayList<>();
            inPages.clear();
            byDictionary.clear();
            try (ParquetReader reader = ParquetReader.open(DataFileInput.of("test.parquet", file), options, allocator)) {
                int[] positions = new int[options.batchSize()];
                while (reader.nextBatch()) {
                    Map<Predicate, LeafMatches> matches = reader.filterMatches();
                    reader.batchPositions(positions);
                    for (DataField field : fields) {
                        boolean matched = matches.keySet().stream().anyMatch(leaf -> leaf.fieldIds().contains(field.id()));
                        if (matched) {
                            // a column matched in its pages is left null; one matched by its dictionary is decoded
                            FieldVector vector = reader.root().getVector(fields.indexOf(field));
                            boolean decoded = vector.getNullCount() < reader.root().getRowCount();
                            List<Integer> list = decoded ? byDictionary : inPages;
                            if (!list.contains(field.id())) {
                                list.add(field.id());
                            }
                        }
                    }
                    for (int row : BatchFilter.selectedRows(filter, reader.root(), Map.of(0, 0, 1, 1, 2, 2), matches)) {
                        kept.add(positions[row]);
                    }
                }
            }
            List<Integer> wanted = new ArrayList<>();
            for (int row = 0; row < ROWS; row++) {
                if (expected.test(row) && (selection == null || selection.contains(row))) {
                    wanted.add(row);
                }
            }
            assertThat(kept).as("%s, selection %s", filter, selection == null ? "none" : selection.getCardinality()).isEqualTo(wanted);
        }
        assertThat(inPages.stream().filter(byDictionary::contains)).as("columns matched both in pages and by dictionary").isEmpty();
        if (!matchInPages) {
            assertThat(inPages).as("columns matched in pages without being asked to").isEmpty();
        }
        return new Matched(List.copyOf(inPages), List.copyOf(byDictionary));
    }

    @Test
    public void testEveryEqualityOnStringsIsMatched()
            throws IOException
    {
        byte[] file = file(Map.of());
        assertThat(check(file, Predicates.equal(s, "k7"), row -> "k7".equals(text(row)))).containsExactly(s.fieldId());
        assertThat(check(file, Predicates.notIn(s, List.of("k3", "k4")), row -> text(row) != null && !Arrays.asList("k3", "k4").contains(text(row)))).containsExactly(s.fieldId());
        // bytes that are not well-formed UTF-16 compare as decoded text
        String loneSurrogate = "k\uD800";
        assertThat(check(file, Predicates.equal(s, loneSurrogate), row -> false)).isEmpty();
    }
}
