package io.tarn.vector.reader;

import io.tarn.index.predicate.FieldRef;
import io.tarn.index.predicate.Predicate.Comparison.Operator;
import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.Predicates;
import io.tarn.types.DataField;
import io.tarn.vector.filter.BatchFilter;
import io.tarn.vector.io.DataFileInput;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filters on DOUBLE and FLOAT columns of files that Apache Paimon's Parquet writer (parquet-mr)
 * wrote, with runs of rows that are only -0.0, only 0.0, only NaN, negatives up to -0.0, zeros and
 * positives from 0.0, NaN among numbers and every special value mixed: row-group statistics, page
 * indexes, dictionaries and the batch filter together must keep exactly the rows that SQL keeps
 * (expected from Java's operators on the values written: -0.0 == 0.0, NaN equal to nothing).
 */
public class TestFloatingPointFilters
{
    private static final int BLOCK = 1000;
    private static final int ROWS = 8 * BLOCK;
    private static final RowType ROW_TYPE = RowType.of(
            new org.apache.paimon.types.DataField(0, "d", DataTypes.DOUBLE()),
            new org.apache.paimon.types.DataField(1, "f", DataTypes.FLOAT()));
    private static final Double[] MIXED = {-0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, 2.5, null};

    private final RootAllocator allocator = new RootAllocator();
    private final List<DataField> fields = ParquetTestFiles.tarnFields(ROW_TYPE);
    private final FieldRef d = FieldRef.of(fields.get(0));
    private final FieldRef f = FieldRef.of(fields.get(1));

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    private static Double value(int row)
    {
        int offset = row % BLOCK;
        return switch (row / BLOCK) {
            case 0 -> -0.0;
            case 1 -> 0.0;
            case 2 -> Double.NaN;
            case 3 -> offset % 2 == 0 ? null : 1.0 + offset % 17;
            case 4 -> MIXED[offset % MIXED.length];
            // a max of -0.0
            case 5 -> offset % 3 == 0 ? -0.0 : -1.0 - offset % 13;
            // a min of 0.0
            case 6 -> offset % 3 == 0 ? 0.0 : 1.0 + offset % 11;
            default -> offset % 4 == 0 ? Double.NaN : 5.0 + offset % 7;
        };
    }

    private static Float floatValue(int row)
    {
        Double value = value(row);
        return value == null ? null : (float) (double) value;
    }

    @DataProvider
    public Object[][] layouts()
    {
        return new Object[][] {
                {Map.of("parquet.page.size", "512", "parquet.block.size", "4096")},
                {Map.of("parquet.page.size", "512", "parquet.block.size", "4096", "parquet.enable.dictionary", "false")},
                {Map.of("parquet.page.size", "512", "parquet.writer.version", "v2")},
                {Map.of()},
        };
    }

    @Test(dataProvider = "layouts")
    public void testRowsKeptAreTheRowsSqlKeeps(Map<String, String> layout)
            throws IOException
    {
        List<GenericRow> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            rows.add(GenericRow.of(value(row), floatValue(row)));
        }
        byte[] file = ParquetTestFiles.write(ROW_TYPE, rows, layout, "zstd");

        double[] literals = {0.0, -0.0, Double.NaN, Double.MIN_VALUE, -Double.MIN_VALUE, 1.0, 2.5, -1.0, 5.0, 1.0e300, Double.POSITIVE_INFINITY, 12345.0};
        long skipped = 0;
        for (double literal : literals) {
            for (Operator op : Operator.values()) {
                skipped += check(file, Predicates.compare(d, op, literal), value -> compare(op, value, literal));
                check(file, Predicates.compare(f, op, (float) literal), value -> compare(op, (float) value, (float) literal));
                check(file, Predicates.not(Predicates.compare(d, op, literal)), value -> !compare(op, value, literal));
            }
            check(file, Predicates.in(d, List.of(literal, 3.0)), value -> value == literal || value == 3.0);
            check(file, Predicates.in(f, List.of((float) literal)), value -> (float) value == (float) literal);
            check(file, Predicates.notIn(d, List.of(literal)), value -> value != literal);
            check(file, Predicates.and(Predicates.greaterOrEqual(d, -literal), Predicates.lessOrEqual(d, literal)), value -> value >= -literal && value <= literal);
        }
        // the pruning is still at work: no value reaches 1e300 but +Infinity
        assertThat(skipped).as("row groups and pages skipped").isPositive();
    }

    private static boolean compare(Operator op, double value, double literal)
    {
        return switch (op) {
            case EQUAL -> value == literal;
            case NOT_EQUAL -> value != literal;
            case LESS_THAN -> value < literal;
            case LESS_THAN_OR_EQUAL -> value <= literal;
            case GREATER_THAN -> value > literal;
            case GREATER_THAN_OR_EQUAL -> value >= literal;
        };
    }

    /**
     * Reads the file with the filter, keeps the rows the batch filter passes, and compares them
     * with the non-null values that {@code expected} accepts; returns the row groups and pages
     * skipped.
     */
    private long check(byte[] file, Predicate filter, DoublePredicate expected)
            throws IOException
    {
        ReadOptions options = ReadOptions.of(fields).withBatchSize(700).withFilter(filter);
        List<Integer> kept = new ArrayList<>();
        long skipped;
        try (ParquetReader reader = ParquetReader.open(DataFileInput.of("floats.parquet", file), options, allocator)) {
            int[] positions = new int[options.batchSize()];
            while (reader.nextBatch()) {
                reader.batchPositions(positions);
                for (int row : BatchFilter.selectedRows(filter, reader.root(), Map.of(0, 0, 1, 1))) {
                    kept.add(positions[row]);
                }
            }
            skipped = reader.metrics().rowGroupsSkipped() + reader.metrics().pagesSkipped();
        }
        boolean isFloat = filter.fieldIds().contains(f.fieldId());
        List<Integer> wanted = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            Double value = value(row);
            if (value != null && expected.test(isFloat ? floatValue(row) : value)) {
                wanted.add(row);
            }
        }
        assertThat(kept).as("%s", filter).isEqualTo(wanted);
        return skipped;
    }
}
