package io.tarn.storage.write;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.FilterSpec;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.CanonicalValueFormatter;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.vector.rows.CanonicalRowFormatter;
import org.apache.arrow.memory.RootAllocator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ORC Bloom filters written by Tarn ({@code orc.bloom.filter.columns}), checked with the reader
 * that did not write them: Apache Paimon's ORC reader (orc-core), which skips every row group a
 * filter rules a value out of and hands back the others whole. A filter that lacked a written
 * value would make Paimon lose that value's rows; filters that were not used would make it hand
 * back every row. Tarn's reader is checked on the same files.
 *
 * <p>The values are random, so every row group's minimum and maximum span nearly the whole
 * column, and only the Bloom filters can skip a row group.
 */
public class TestOrcBloomFilterWrites
{
    private static final int ROWS = 12_000;
    private static final int STRIDE = 1000;
    private static final String SOURCE = "bf.source";
    private static final String COPY = "bf.copy";
    private static final List<String> BLOOM_COLUMNS = List.of("ti", "si", "i", "bi", "dt", "f", "d", "s", "vc");

    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;
    private RowType paimonRowType;
    private final List<Object[]> rows = new ArrayList<>();
    // each row's canonical line, by id, as Paimon reads the source
    private final Map<Long, String> lines = new LinkedHashMap<>();

    @BeforeClass
    public void writeTables()
            throws Exception
    {
        warehouse = TemporaryDirectories.create("tarn-orc-bloom-writes");
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        allocator = new RootAllocator();
        Random random = new Random(20_261_205);
        try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
            paimon.createDatabase("bf", true);
            Schema schema = Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("ti", DataTypes.TINYINT())
                    .column("si", DataTypes.SMALLINT())
                    .column("i", DataTypes.INT())
                    .column("bi", DataTypes.BIGINT())
                    .column("dt", DataTypes.DATE())
                    .column("f", DataTypes.FLOAT())
                    .column("d", DataTypes.DOUBLE())
                    .column("s", DataTypes.STRING())
                    .column("vc", DataTypes.VARCHAR(12))
                    .column("dec", DataTypes.DECIMAL(10, 2))
                    .build();
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString(SOURCE), schema, false);
            FileStoreTable table = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(SOURCE));
            paimonRowType = table.rowType();
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (long id = 0; id < ROWS; id++) {
                    Object[] values = {
                            id,
                            (byte) random.nextInt(),
                            (short) random.nextInt(),
                            random.nextInt(1 << 20),
                            random.nextLong() % 1_000_000_000_000L,
                            random.nextInt(40_000) - 20_000,
                            random.nextInt(50_000) / 8.0f,
                            random.nextInt(50_000) / 16.0 - 1000,
                            "s" + random.nextInt(100_000),
                            "ü" + random.nextInt(100_000),
                            random.nextInt(1_000_000) - 500_000L};
                    for (int field = 1; field < values.length; field++) {
                        if (random.nextInt(10) == 0) {
                            values[field] = null;
                        }
                    }
                    rows.add(values);
                    write.write(toPaimon(values));
                }
                commit.commit(write.prepareCommit());
            }
        }
        for (String line : paimonRows(SOURCE, null)) {
            lines.put(id(line), line);
        }
        TableCopies.copyWithTarn(catalog, allocator, SOURCE, COPY, Map.of(
                "file.format", "orc",
                "orc.row.index.stride", String.valueOf(STRIDE),
                "orc.bloom.filter.columns", String.join(",", BLOOM_COLUMNS)));
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        if (allocator != null) {
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory leaked").isZero();
            allocator.close();
        }
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testPaimonReadsTheCopyIdentically()
            throws Exception
    {
        assertThat(paimonRows(COPY, null)).containsExactlyInAnyOrderElementsOf(lines.values());
    }

    @DataProvider
    public Object[][] columns()
    {
        return BLOOM_COLUMNS.stream().map(column -> new Object[] {column}).toArray(Object[][]::new);
    }

    /**
     * For values the column holds, Paimon's reader hands back every row that holds them (with
     * the rest of their row groups), and Tarn's reader exactly those rows.
     */
    @Test(dataProvider = "columns")
    public void testEveryWrittenValueIsFound(String column)
            throws Exception
    {
        int position = position(column);
        Random random = new Random(column.hashCode());
        for (int probe = 0; probe < 20; probe++) {
            Object value = null;
            while (value == null) {
                value = rows.get(random.nextInt(ROWS))[position];
            }
            Set<Long> expected = idsWhere(position, value);
            FilterSpec filter = FilterSpec.compare(column, EQ, value);
            Set<Long> paimonIds = ids(paimonRows(COPY, filter));
            assertThat(paimonIds).as("Paimon, WHERE %s", filter).containsAll(expected);
            assertThat(ids(tarnRows(filter).lines())).as("Tarn, WHERE %s", filter).isEqualTo(expected);
        }
    }

    /**
     * For values the column does not hold, between its minimum and maximum, Paimon's reader
     * skips nearly every row group: the filters are there and are read as ORC defines them.
     * Tarn's reader skips row groups by them too.
     */
    @Test(dataProvider = "columns")
    public void testAbsentValuesSkipRowGroups(String column)
            throws Exception
    {
        if (column.equals("ti")) {
            // 256 values in 1,000 rows: every row group holds nearly all of them
            return;
        }
        int position = position(column);
        Function<Random, Object> absent = absentValues(column);
        Random random = new Random(column.hashCode());
        long paimonRowsBack = 0;
        long tarnGroupsSkipped = 0;
        int probes = 0;
        while (probes < 10) {
            Object value = absent.apply(random);
            if (!idsWhere(position, value).isEmpty()) {
                continue;
            }
            probes++;
            FilterSpec filter = FilterSpec.compare(column, EQ, value);
            paimonRowsBack += paimonRows(COPY, filter).size();
            TarnRead read = tarnRows(filter);
            assertThat(read.lines()).as("Tarn, WHERE %s", filter).isEmpty();
            tarnGroupsSkipped += read.counters().get(Counter.ROW_GROUPS_SKIPPED_BY_BLOOM_FILTER);
        }
        // at a false positive rate of 1%, about one row group in a hundred comes back; without
        // the filters every row would
        assertThat(paimonRowsBack).as("rows Paimon's reader handed back for %d absent values", probes).isLessThan((long) probes * ROWS / 10);
        assertThat(tarnGroupsSkipped).as("row groups Tarn's reader skipped by Bloom filters").isGreaterThan((long) probes * (ROWS / STRIDE) / 2);
    }

    @Test
    public void testFiltersTarnDoesNotWriteAreRefusedBeforeWriting()
    {
        assertThatThrownBy(() -> TableCopies.copyWithTarn(catalog, allocator, SOURCE, "bf.decimal", Map.of("file.format", "orc", "orc.bloom.filter.columns", "i,dec")))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("bf.decimal")
                .hasMessageContaining("Tarn does not write ORC Bloom filters on DECIMAL(10, 2) columns yet");
        assertThatThrownBy(() -> TableCopies.copyWithTarn(catalog, allocator, SOURCE, "bf.missing", Map.of("file.format", "orc", "orc.bloom.filter.columns", "nope")))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("bf.missing")
                .hasMessageContaining("ORC Bloom filter column nope (orc.bloom.filter.columns) is not a column");
        assertThatThrownBy(() -> TableCopies.copyWithTarn(catalog, allocator, SOURCE, "bf.legacy",
                Map.of("file.format", "orc", "orc.bloom.filter.columns", "i", "orc.bloom.filter.write.version", "original")))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("Tarn writes ORC Bloom filters in the utf8 encoding only");
    }

    private static Function<Random, Object> absentValues(String column)
    {
        return switch (column) {
            case "si" -> random -> (short) random.nextInt();
            case "i" -> random -> random.nextInt(1 << 20);
            case "bi" -> random -> random.nextLong() % 1_000_000_000_000L;
            case "dt" -> random -> random.nextInt(40_000) - 20_000;
            // between the values held, which are multiples of 1/8 and 1/16
            case "f" -> random -> random.nextInt(50_000) / 8.0f + 1 / 32.0f;
            case "d" -> random -> random.nextInt(50_000) / 16.0 - 1000 + 1 / 64.0;
            case "s" -> random -> "s" + random.nextInt(100_000);
            case "vc" -> random -> "ü" + random.nextInt(100_000);
            default -> throw new IllegalArgumentException(column);
        };
    }

    private int position(String column)
    {
        return paimonRowType.getFieldIndex(column);
    }

    private Set<Long> idsWhere(int position, Object value)
    {
        Set<Long> ids = new HashSet<>();
        for (Object[] row : rows) {
            if (value.equals(row[position])) {
                ids.add((Long) row[0]);
            }
        }
        return ids;
    }

    private static long id(String line)
    {
        return Long.parseLong(line.substring(0, line.indexOf('\t')));
    }

    private static Set<Long> ids(List<String> lines)
    {
        Set<Long> ids = new HashSet<>();
        lines.forEach(line -> ids.add(id(line)));
        return ids;
    }

    /**
     * The rows Paimon's reader returns for {@code filter} (none: every row); it uses a filter to
     * skip files and row groups only, so whole row groups come back.
     */
    private List<String> paimonRows(String table, FilterSpec filter)
            throws Exception
    {
        try (Catalog paimon = TableCopies.paimonCatalog(warehouse)) {
            FileStoreTable read = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(table));
            ReadBuilder builder = read.newReadBuilder();
            if (filter != null) {
                builder = builder.withFilter(filter.paimon(read.rowType()));
            }
            List<String> result = new ArrayList<>();
            try (RecordReader<InternalRow> reader = builder.newRead().createReader(builder.newScan().plan())) {
                reader.forEachRemaining(row -> result.add(CanonicalValueFormatter.formatRow(row, read.rowType())));
            }
            return result;
        }
    }

    private record TarnRead(List<String> lines, Counters counters) {}

    private TarnRead tarnRows(FilterSpec filter)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(COPY));
        io.tarn.index.predicate.Predicate predicate = filter.tarn(table.schema());
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).plan(table.snapshot(new ScanVersion.Latest()));
        List<String> result = new ArrayList<>();
        Counters counters = TableRead.forEachBatch(table, plan, ReadRequest.of(plan.readSchema().fields()).withFilter(predicate), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, plan.readSchema().fields(), result));
        for (String line : result) {
            assertThat(line).isEqualTo(lines.get(id(line)));
        }
        return new TarnRead(result, counters);
    }

    private static GenericRow toPaimon(Object[] values)
    {
        Object[] converted = values.clone();
        for (int i = 0; i < converted.length; i++) {
            if (converted[i] instanceof String text) {
                converted[i] = BinaryString.fromString(text);
            }
        }
        if (converted[10] != null) {
            converted[10] = Decimal.fromUnscaledLong((Long) values[10], 10, 2);
        }
        return GenericRow.of(converted);
    }
}
