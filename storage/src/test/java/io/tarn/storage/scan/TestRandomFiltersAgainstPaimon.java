package io.tarn.storage.scan;

import io.tarn.index.predicate.Predicate;
import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.commit.TableCommit;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.grammar.FilterParser;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.read.SplitReader;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.CommitKind;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.SplitReaders;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.write.AppendTableWriter;
import io.tarn.testing.CanonicalRows;
import io.tarn.testing.ReferenceReader;
import io.tarn.testing.ReferenceScan;
import io.tarn.testing.TemporaryDirectories;
import io.tarn.types.DataField;
import io.tarn.vector.reader.DictionaryIds;
import io.tarn.vector.rows.CanonicalRowFormatter;
import io.tarn.vector.rows.CanonicalRowSet;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hundreds of random filters on tables Apache Paimon wrote, each read by Tarn and compared with
 * the rows of Paimon's reader that match it: every way Tarn skips work (partitions, min/max
 * statistics of files, row groups and pages, dictionaries, Bloom filters and bitmaps, deletion
 * vectors, a merge of primary-key levels) may only ever drop rows the filter rejects.
 *
 * <p>The tables hold every kind of column the filters reach: clustered and random integers,
 * low- and high-cardinality strings (some not ASCII, one empty), decimals, doubles, booleans,
 * dates and timestamps, most with nulls, in small row groups and pages so that pruning has
 * something to skip. A copy of the append table written by Tarn's writer is checked against the
 * same rows, so wrong statistics or indexes written by Tarn would show as missing rows too.
 *
 * <p>Every table kind is written in more than one file format, because each format has its own
 * reader and its own ways to skip:
 * <ul>
 * <li>Parquet: row groups, pages, dictionaries.</li>
 * <li>ORC: stripes, ORC's own Bloom filters, and row groups of 1,000 rows (the least ORC allows,
 * so only the primary-key table's compacted file has several). An append table, its copy by
 * Tarn, and a primary-key table with deletion vectors, whose row positions must survive
 * skipped row groups.</li>
 * <li>Avro: no statistics inside the file. An append table, its copy by Tarn, and a primary-key
 * table read by merging its levels.</li>
 * </ul>
 *
 * <p>Each filter is read twice: the whole row under the planner's defaults, then a projection of
 * other columns than the filter's through row-range splits, small batches and index files opened
 * in planning. A filter without OR is read a third time, parsed from its text in the
 * {@code --where} grammar that the CLI and the C ABI share. The seed is printed; {@code -Dtarn.random-filters.seed=N} replays a failure.
 */
public class TestRandomFiltersAgainstPaimon
{
    private static final String APPEND = "fz.append";
    private static final String APPEND_BY_TARN = "fz.append_by_tarn";
    private static final String PRIMARY_KEY = "fz.pk";
    private static final String DELETION_VECTORS = "fz.pk_dv";
    private static final String APPEND_ORC = "fz.append_orc";
    private static final String APPEND_ORC_BY_TARN = "fz.append_orc_by_tarn";
    private static final String DELETION_VECTORS_ORC = "fz.pk_dv_orc";
    private static final String APPEND_AVRO = "fz.append_avro";
    private static final String APPEND_AVRO_BY_TARN = "fz.append_avro_by_tarn";
    private static final String PRIMARY_KEY_AVRO = "fz.pk_avro";
    // ORC in stripes of a few kB and row groups of 1,000 rows (the least ORC allows), with ORC's
    // own Bloom filters beside Paimon's file indexes, so that stripe, row-group and Bloom-filter
    // pruning have something to skip
    private static final Map<String, String> ORC = Map.of(
            "file.format", "orc",
            "orc.stripe.size", "16384",
            "orc.rows.between.memory.checks", "100",
            "orc.row.index.stride", "1000",
            "orc.bloom.filter.columns", "k,grp,day");
    // Avro files have no statistics inside: only the manifests' statistics and the file indexes skip
    private static final Map<String, String> AVRO = Map.of("file.format", "avro");
    private static final int COMMITS = 3;
    private static final int ROWS_PER_COMMIT = 1200;
    private static final int FILTERS_PER_TABLE = 150;
    private static final LocalDate FIRST_DAY = LocalDate.of(2024, 1, 1);
    private static final LocalDateTime FIRST_TIME = LocalDateTime.of(2024, 1, 1, 0, 0);
    private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "epsilon", "", "Zeta", "ä-umlaut", "éclair", "日本", "z");
    private static final List<String> OTHER_WORDS = List.of("alph", "alpha ", "beta0", "a", "zz", "Ä", "éclairs", "日");

    private final long seed = Long.getLong("tarn.random-filters.seed", 20_261_205L);
    private Path warehouse;
    private FileSystemCatalog catalog;
    private RootAllocator allocator;
    private List<Object[]> appendRows;
    private List<Object[]> keyedRows;
    // rows of string columns read as dictionary ids by the current test, and those of them whose
    // values the reader left as ids (the others are checked against the values decoded too)
    private long dictionaryRows;
    private long valuesLeftAsIdsRows;

    @BeforeClass
    public void createTables()
            throws Exception
    {
        System.out.println("TestRandomFiltersAgainstPaimon seed " + seed);
        warehouse = TemporaryDirectories.create("tarn-random-filters");
        catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        allocator = new RootAllocator();
        Random random = new Random(seed);
        appendRows = new ArrayList<>();
        keyedRows = new ArrayList<>();
        try (Catalog paimon = PaimonFileIndexTables.open(warehouse)) {
            paimon.createDatabase("fz", true);
            // the same rows in the same commits, in each file format
            List<FileStoreTable> appendTables = new ArrayList<>();
            for (Map.Entry<String, Map<String, String>> table : List.of(Map.entry(APPEND, Map.<String, String>of()), Map.entry(APPEND_ORC, ORC), Map.entry(APPEND_AVRO, AVRO))) {
                paimon.createTable(org.apache.paimon.catalog.Identifier.fromString(table.getKey()), schema(true, table.getValue()), false);
                appendTables.add((FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(table.getKey())));
            }
            for (int commit = 0; commit < COMMITS; commit++) {
                List<Object[]> rows = new ArrayList<>();
                for (int index = 0; index < ROWS_PER_COMMIT; index++) {
                    rows.add(row(commit * ROWS_PER_COMMIT + index, index, random, true));
                }
                appendRows.addAll(rows);
                for (FileStoreTable append : appendTables) {
                    PaimonFileIndexTables.write(append, rows.stream().map(values -> toPaimon(RowKind.INSERT, values)).toList(), false);
                }
            }
            createPrimaryKeyTables(paimon, random);
        }
        copyWithTarn(APPEND, APPEND_BY_TARN);
        copyWithTarn(APPEND_ORC, APPEND_ORC_BY_TARN);
        copyWithTarn(APPEND_AVRO, APPEND_AVRO_BY_TARN);
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

    /**
     * The tables are what the filters are meant to meet: a file per commit and partition of
     * Paimon's append table, levels merged in the plain primary-key table, rows marked deleted in the
     * other.
     */
    @Test
    public void testTablesHaveTheirIntendedShapes()
            throws IOException
    {
        for (String table : List.of(APPEND, APPEND_ORC, APPEND_AVRO)) {
            assertThat(plan(table).files()).as(table).hasSize(COMMITS * 3);
        }
        for (String table : List.of(APPEND_BY_TARN, APPEND_ORC_BY_TARN, APPEND_AVRO_BY_TARN)) {
            assertThat(plan(table).files()).as(table).hasSizeGreaterThanOrEqualTo(3);
        }
        for (String table : List.of(PRIMARY_KEY, PRIMARY_KEY_AVRO)) {
            assertThat(plan(table).splits()).as(table).anyMatch(DataSplit::mergeRequired);
        }
        for (String table : List.of(DELETION_VECTORS, DELETION_VECTORS_ORC)) {
            assertThat(plan(table).files()).as(table).anyMatch(file -> file.deletionFile().isPresent());
            assertThat(plan(table).splits()).as(table).noneMatch(DataSplit::mergeRequired);
        }
        // each table's files are in the format it is meant to test, the copies' too
        Map<String, String> extensions = Map.of(APPEND, ".parquet", APPEND_BY_TARN, ".parquet", PRIMARY_KEY, ".parquet", DELETION_VECTORS, ".parquet",
                APPEND_ORC, ".orc", APPEND_ORC_BY_TARN, ".orc", DELETION_VECTORS_ORC, ".orc",
                APPEND_AVRO, ".avro", APPEND_AVRO_BY_TARN, ".avro", PRIMARY_KEY_AVRO, ".avro");
        for (Map.Entry<String, String> table : extensions.entrySet()) {
            assertThat(plan(table.getKey()).files()).as(table.getKey()).allMatch(file -> file.file().fileName().endsWith(table.getValue()));
        }
    }

    private ScanPlan plan(String name)
            throws IOException
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(name));
        return new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest()));
    }

    @DataProvider
    public Object[][] tables()
    {
        return new Object[][] {
                {APPEND, APPEND}, {APPEND_BY_TARN, APPEND}, {PRIMARY_KEY, PRIMARY_KEY}, {DELETION_VECTORS, DELETION_VECTORS},
                {APPEND_ORC, APPEND_ORC}, {APPEND_ORC_BY_TARN, APPEND_ORC}, {DELETION_VECTORS_ORC, DELETION_VECTORS_ORC},
                {APPEND_AVRO, APPEND_AVRO}, {APPEND_AVRO_BY_TARN, APPEND_AVRO}, {PRIMARY_KEY_AVRO, PRIMARY_KEY_AVRO}};
    }

    /**
     * Every random filter on {@code table} gives the rows Paimon's reader gives for it on
     * {@code oracleTable} (the table itself, or the Paimon table Tarn copied).
     */
    @Test(dataProvider = "tables")
    public void testRandomFiltersGiveTheOraclesRows(String table, String oracleTable)
            throws Exception
    {
        PaimonTable tarnTable = PaimonTable.load(catalog, Identifier.parse(table));
        boolean partitioned = !tarnTable.schema().partitionKeys().isEmpty();
        RandomFilters filters = new RandomFilters(columns(partitioned ? appendRows : keyedRows, partitioned), seed ^ table.hashCode());
        Random projections = new Random(seed ^ oracleTable.hashCode());
        ReferenceScan oracleScan = ReferenceScan.of(oracleTable);
        RowType oracleRowType = ReferenceReader.rowType(warehouse, oracleScan);
        List<String> failures = new ArrayList<>();
        int liveRows = (partitioned ? appendRows : keyedRows).size();
        int selective = 0;
        int conjunctions = 0;
        dictionaryRows = 0;
        valuesLeftAsIdsRows = 0;
        for (int i = 0; i < FILTERS_PER_TABLE; i++) {
            FilterSpec filter = filters.next();
            CanonicalRows expected = ReferenceReader.read(warehouse, oracleScan.withFilter(filter.paimon(oracleRowType)));
            if (expected.rowCount() > 0 && expected.rowCount() < liveRows) {
                selective++;
            }
            Predicate predicate = filter.tarn(tarnTable.schema());
            String whole = readWholeRows(tarnTable, predicate);
            if (!whole.equals(expected.text())) {
                failures.add(describe(table, filter, "whole rows", expected.text(), whole));
            }
            Optional<String> whereText = filter.whereText();
            if (whereText.isPresent()) {
                conjunctions++;
                String parsed = readWholeRows(tarnTable, FilterParser.parse(whereText.get(), tarnTable.schema().rowType()));
                if (!parsed.equals(expected.text())) {
                    failures.add(describe(table, filter, "parsed from --where " + whereText.get(), expected.text(), parsed));
                }
            }
            List<String> filterColumns = tarnTable.schema().fields().stream()
                    .filter(field -> predicate.fieldIds().contains(field.id()))
                    .map(DataField::name)
                    .toList();
            if (!filterColumns.isEmpty()) {
                String own = readAsAnEngine(tarnTable, predicate, filterColumns);
                String expectedOwn = project(expected, oracleRowType, filterColumns);
                if (!own.equals(expectedOwn)) {
                    failures.add(describe(table, filter, "only the filter's columns " + filterColumns, expectedOwn, own));
                }
            }
            List<String> projection = projection(tarnTable.schema(), projections);
            String projected = readProjection(tarnTable, predicate, projection);
            String expectedProjection = project(expected, oracleRowType, projection);
            if (!projected.equals(expectedProjection)) {
                failures.add(describe(table, filter, "columns " + projection + " through row ranges", expectedProjection, projected));
            }
        }
        System.out.printf("%s: %d random filters, %d of them keep some rows and drop others, %d also read through the --where grammar%n",
                table, FILTERS_PER_TABLE, selective, conjunctions);
        assertThat(failures).as("seed %d, table %s", seed, table).isEmpty();
        if (List.of(APPEND, APPEND_BY_TARN, DELETION_VECTORS).contains(table)) {
            // Parquet files read row by row (no merge) hand their string columns over as dictionary ids
            assertThat(dictionaryRows).as("rows of string columns read as dictionary ids").isPositive();
            assertThat(valuesLeftAsIdsRows).as("rows of string columns whose values were left as dictionary ids").isPositive();
        }
        // filters that match nothing or everything check little: at least a third must keep some rows and drop others
        assertThat(selective).as("selective filters of %d", FILTERS_PER_TABLE).isGreaterThan(FILTERS_PER_TABLE / 3);
        assertThat(conjunctions).as("filters the --where grammar can write, of %d", FILTERS_PER_TABLE).isGreaterThan(FILTERS_PER_TABLE / 3);
    }

    private String readWholeRows(PaimonTable table, Predicate predicate)
            throws IOException
    {
        return readAsAnEngine(table, predicate, table.schema().fields().stream().map(DataField::name).toList());
    }

    /**
     * The {@code columns} of the rows read as a query engine reads them: string columns taken
     * from their dictionary ids wherever the reader gives ids, also in the batches that the
     * filter copied some rows out of (when only the filter's columns are read, the filter is
     * tested on the batches that hold them all, and the rows kept are copied). The reader leaves
     * the values of the columns the filter does not test as ids; those it tests it decodes too,
     * and their ids must name the same value as the vector in every row.
     */
    private String readAsAnEngine(PaimonTable table, Predicate predicate, List<String> columns)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).plan(table.snapshot(ScanVersion.latest()));
        List<DataField> fields = columns.stream().map(name -> plan.readSchema().rowType().field(name).orElseThrow()).toList();
        Set<Integer> stringFields = new HashSet<>();
        for (DataField field : fields) {
            if (field.type().root().isCharacterString() || field.type().root().isBinaryString()) {
                stringFields.add(field.id());
            }
        }
        ReadRequest request = ReadRequest.of(fields).withFilter(predicate).withDictionaryIds(stringFields);
        List<String> lines = new ArrayList<>();
        for (DataSplit split : plan.splits()) {
            try (SplitReader reader = SplitReaders.open(table, plan.readSchema(), split, request, allocator)) {
                while (reader.nextBatch()) {
                    VectorSchemaRoot batch = reader.root();
                    int rows = batch.getRowCount();
                    List<FieldVector> vectors = new ArrayList<>();
                    List<FieldVector> decoded = new ArrayList<>();
                    for (int column = 0; column < fields.size(); column++) {
                        FieldVector vector = batch.getVector(column);
                        Optional<DictionaryIds> ids = reader.dictionaryIds(column);
                        if (ids.isEmpty()) {
                            vectors.add(vector);
                            continue;
                        }
                        String name = table.name() + " " + fields.get(column).name();
                        assertThat(ids.get().rows()).as("dictionary ids of %s", name).isEqualTo(rows);
                        if (vector.getNullCount() < rows) {
                            // decoded as well (a filter column): the ids must name the same values
                            checkDictionaryIds(name, ids.get(), (BaseVariableWidthVector) vector, rows);
                        }
                        else if (Arrays.stream(ids.get().ids(), 0, rows).anyMatch(id -> id >= 0)) {
                            valuesLeftAsIdsRows += rows;
                        }
                        dictionaryRows += rows;
                        FieldVector fromIds = valuesOf(ids.get(), vector.getField());
                        decoded.add(fromIds);
                        vectors.add(fromIds);
                    }
                    // the values as an engine sees them: from the ids where there are ids
                    try {
                        VectorSchemaRoot seen = new VectorSchemaRoot(vectors);
                        seen.setRowCount(rows);
                        CanonicalRowFormatter.appendLines(seen, fields, lines);
                    }
                    finally {
                        decoded.forEach(FieldVector::close);
                    }
                }
            }
        }
        return CanonicalRowSet.of(lines).text();
    }

    private FieldVector valuesOf(DictionaryIds ids, Field field)
    {
        BaseVariableWidthVector vector = (BaseVariableWidthVector) field.createVector(allocator);
        vector.allocateNew(ids.rows());
        for (int row = 0; row < ids.rows(); row++) {
            int id = ids.ids()[row];
            if (id < 0) {
                vector.setNull(row);
            }
            else {
                int start = ids.dictionaryOffsets()[id];
                vector.setSafe(row, ids.dictionaryBytes(), start, ids.dictionaryOffsets()[id + 1] - start);
            }
        }
        vector.setValueCount(ids.rows());
        return vector;
    }

    private static void checkDictionaryIds(String column, DictionaryIds ids, BaseVariableWidthVector values, int rows)
    {
        for (int row = 0; row < rows; row++) {
            int id = ids.ids()[row];
            if (values.isNull(row)) {
                assertThat(id).as("dictionary id of %s in null row %s", column, row).isEqualTo(-1);
                continue;
            }
            assertThat(id).as("dictionary id of %s in row %s", column, row).isBetween(0, ids.dictionarySize() - 1);
            byte[] value = Arrays.copyOfRange(ids.dictionaryBytes(), ids.dictionaryOffsets()[id], ids.dictionaryOffsets()[id + 1]);
            byte[] expected = new byte[values.getValueLength(row)];
            values.getDataBuffer().getBytes(values.getStartOffset(row), expected);
            assertThat(value).as("dictionary value of %s in row %s", column, row).isEqualTo(expected);
        }
    }

    private String readProjection(PaimonTable table, Predicate predicate, List<String> columns)
            throws IOException
    {
        ScanPlan plan = new ScanPlanner(table).withFilter(predicate).withRowRangeSplits(2048).withIndexFiles(Integer.MAX_VALUE)
                .plan(table.snapshot(ScanVersion.latest()));
        List<DataField> fields = columns.stream().map(name -> plan.readSchema().rowType().field(name).orElseThrow()).toList();
        List<String> lines = new ArrayList<>();
        TableRead.forEachBatch(table, plan, ReadRequest.of(fields).withFilter(predicate).withBatchSize(100), allocator,
                batch -> CanonicalRowFormatter.appendLines(batch, fields, lines));
        return CanonicalRowSet.of(lines).text();
    }

    /**
     * One to three columns in table order, chosen at random, so that the filter's columns are
     * often not among them.
     */
    private static List<String> projection(TableSchema schema, Random random)
    {
        List<String> names = schema.fields().stream().map(DataField::name).toList();
        Set<Integer> chosen = new HashSet<>();
        int count = 1 + random.nextInt(3);
        while (chosen.size() < count) {
            chosen.add(random.nextInt(names.size()));
        }
        return IntStream.range(0, names.size()).filter(chosen::contains).mapToObj(names::get).toList();
    }

    /**
     * The oracle's rows cut to {@code columns}: canonical lines hold one tab-separated value per
     * column, and no value here holds a tab.
     */
    private static String project(CanonicalRows rows, RowType rowType, List<String> columns)
    {
        int[] positions = columns.stream().mapToInt(rowType::getFieldIndex).toArray();
        List<String> lines = new ArrayList<>();
        for (String line : rows.lines()) {
            String[] values = line.split("\t", -1);
            StringBuilder projected = new StringBuilder();
            for (int position : positions) {
                if (!projected.isEmpty() || position != positions[0]) {
                    projected.append('\t');
                }
                projected.append(values[position]);
            }
            lines.add(projected.toString());
        }
        return CanonicalRows.of(lines).text();
    }

    private static String describe(String table, FilterSpec filter, String read, String expected, String actual)
    {
        Set<String> expectedLines = rowLines(expected);
        Set<String> actualLines = rowLines(actual);
        List<String> missing = expectedLines.stream().filter(line -> !actualLines.contains(line)).limit(3).toList();
        List<String> extra = actualLines.stream().filter(line -> !expectedLines.contains(line)).limit(3).toList();
        return "%s WHERE %s (%s): %d lines expected, %d read; missing e.g. %s; extra e.g. %s"
                .formatted(table, filter, read, expectedLines.size(), actualLines.size(), missing, extra);
    }

    /**
     * The rows of a canonical text, without its {@code rows=N sha256=H} line.
     */
    private static Set<String> rowLines(String text)
    {
        Set<String> lines = new HashSet<>(List.of(text.split("\n")));
        lines.removeIf(line -> line.startsWith("rows="));
        return lines;
    }

    // ---------------------------------------------------------------- the tables

    /**
     * The schema of the partitioned append table, or without its partition column, of a table
     * keyed by {@code id}.
     */
    private static Schema schema(boolean partitioned, Map<String, String> extraOptions)
    {
        Schema.Builder builder = Schema.newBuilder();
        if (partitioned) {
            builder.column("p", DataTypes.INT()).partitionKeys("p");
        }
        else {
            builder.primaryKey("id");
        }
        builder.column("id", DataTypes.INT().notNull())
                .column("grp", DataTypes.INT())
                .column("k", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .column("u", DataTypes.STRING())
                .column("d", DataTypes.DECIMAL(10, 2))
                .column("f", DataTypes.DOUBLE())
                .column("b", DataTypes.BOOLEAN())
                .column("day", DataTypes.DATE())
                .column("ts", DataTypes.TIMESTAMP(3))
                // small row groups and pages, so that statistics below the file have something to skip
                .option("parquet.block.size", "8192")
                .option("parquet.page.size", "1024")
                .option("file-index.bloom-filter.columns", "k,u")
                .option("file-index.bitmap.columns", "s,b");
        extraOptions.forEach(builder::option);
        return builder.build();
    }

    /**
     * Two primary-key tables of the same rows: one read by merging its levels (two buckets, three
     * commits never compacted), one with deletion vectors (compacted once, then changed). Every
     * third key is updated with new values, every seventh deleted, and new keys are added.
     */
    private void createPrimaryKeyTables(Catalog paimon, Random random)
            throws Exception
    {
        int keys = 2000;
        Map<Integer, Object[]> live = new LinkedHashMap<>();
        List<List<GenericRow>> commits = new ArrayList<>();
        List<GenericRow> inserts = new ArrayList<>();
        for (int id = 0; id < keys; id++) {
            Object[] values = row(id, id % ROWS_PER_COMMIT, random, false);
            live.put(id, values);
            inserts.add(toPaimon(RowKind.INSERT, values));
        }
        commits.add(inserts);
        List<GenericRow> changes = new ArrayList<>();
        for (int id = 0; id < keys; id += 3) {
            Object[] values = row(id, random.nextInt(ROWS_PER_COMMIT), random, false);
            live.put(id, values);
            changes.add(toPaimon(RowKind.UPDATE_AFTER, values));
        }
        commits.add(changes);
        changes = new ArrayList<>();
        for (int id = 0; id < keys; id += 7) {
            changes.add(toPaimon(RowKind.DELETE, live.remove(id)));
        }
        for (int id = keys; id < keys + 200; id++) {
            Object[] values = row(id, id % ROWS_PER_COMMIT, random, false);
            live.put(id, values);
            changes.add(toPaimon(RowKind.INSERT, values));
        }
        commits.add(changes);
        keyedRows.addAll(live.values());

        Map<String, String> merged = Map.of("bucket", "2");
        Map<String, String> deletionVectors = Map.of("bucket", "1", "deletion-vectors.enabled", "true");
        Map<String, Map<String, String>> tables = Map.of(
                PRIMARY_KEY, merged,
                DELETION_VECTORS, deletionVectors,
                DELETION_VECTORS_ORC, union(deletionVectors, ORC),
                PRIMARY_KEY_AVRO, union(merged, AVRO));
        for (Map.Entry<String, Map<String, String>> table : tables.entrySet()) {
            paimon.createTable(org.apache.paimon.catalog.Identifier.fromString(table.getKey()), schema(false, table.getValue()), false);
            FileStoreTable written = (FileStoreTable) paimon.getTable(org.apache.paimon.catalog.Identifier.fromString(table.getKey()));
            boolean compactFirst = table.getValue().containsKey("deletion-vectors.enabled");
            for (int commit = 0; commit < commits.size(); commit++) {
                // a deletion-vector table's first commit is compacted to the top level, so that
                // the changes after it mark its rows deleted
                PaimonFileIndexTables.write(written, commits.get(commit), commit == 0 && compactFirst);
            }
        }
    }

    private static Map<String, String> union(Map<String, String> first, Map<String, String> second)
    {
        Map<String, String> union = new LinkedHashMap<>(first);
        union.putAll(second);
        return union;
    }

    /**
     * One row: {@code id} and {@code grp}, {@code day} and {@code ts} clustered (they grow with the
     * row), the others random; all but {@code id}, {@code u}, {@code day} and {@code ts} sometimes
     * null.
     */
    private static Object[] row(int id, int index, Random random, boolean partitioned)
    {
        List<Object> values = new ArrayList<>();
        if (partitioned) {
            values.add(id % 3);
        }
        values.add(id);
        values.add(index % 97 == 0 ? null : (index / 100) % 13);
        values.add(random.nextInt(20) == 0 ? null : (long) (random.nextInt(4001) - 2000));
        values.add(random.nextInt(20) == 0 ? null : WORDS.get(random.nextInt(WORDS.size())));
        values.add("u-" + Integer.toHexString(random.nextInt(1 << 24)));
        values.add(random.nextInt(15) == 0 ? null : BigDecimal.valueOf(random.nextInt(100_001) - 50_000, 2));
        // rounded to cents, so never NaN and never -0.0, on which SQL's order and Paimon's differ
        values.add(random.nextInt(25) == 0 ? null : Math.round(random.nextGaussian() * 10_000) / 100.0);
        values.add(random.nextInt(10) == 0 ? null : random.nextBoolean());
        values.add(FIRST_DAY.plusDays(id / 40));
        values.add(FIRST_TIME.plusNanos((id * 61_237L + random.nextInt(1000)) * 1_000_000L));
        return values.toArray();
    }

    /**
     * The columns filters may name, with the values the table holds and other values of each
     * column's domain.
     */
    private static List<RandomFilters.Column> columns(List<Object[]> rows, boolean partitioned)
    {
        List<String> names = new ArrayList<>(List.of("id", "grp", "k", "s", "u", "d", "f", "b", "day", "ts"));
        List<Function<Random, Object>> domains = new ArrayList<>(List.of(
                random -> random.nextInt(COMMITS * ROWS_PER_COMMIT + 400) - 100,
                random -> random.nextInt(16) - 1,
                random -> (long) (random.nextInt(4401) - 2200),
                random -> random.nextBoolean() ? WORDS.get(random.nextInt(WORDS.size())) : OTHER_WORDS.get(random.nextInt(OTHER_WORDS.size())),
                random -> "u-" + Integer.toHexString(random.nextInt(1 << 24)),
                random -> BigDecimal.valueOf(random.nextInt(110_001) - 55_000, 2),
                random -> Math.round(random.nextGaussian() * 12_000) / 100.0,
                Random::nextBoolean,
                random -> FIRST_DAY.plusDays(random.nextInt(COMMITS * ROWS_PER_COMMIT / 40 + 20) - 10),
                random -> FIRST_TIME.plusNanos((random.nextInt(COMMITS * ROWS_PER_COMMIT + 200) - 100) * 61_237_000_000L)));
        if (partitioned) {
            names.add(0, "p");
            domains.add(0, random -> random.nextInt(5) - 1);
        }
        List<RandomFilters.Column> columns = new ArrayList<>();
        for (int column = 0; column < names.size(); column++) {
            int position = column;
            List<Object> held = rows.stream().map(values -> values[position]).filter(value -> value != null).distinct().limit(200).toList();
            columns.add(new RandomFilters.Column(names.get(column), held, domains.get(column), !names.get(column).equals("b")));
        }
        return columns;
    }

    private static GenericRow toPaimon(RowKind kind, Object[] values)
    {
        Object[] converted = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            converted[i] = toPaimon(values[i]);
        }
        return GenericRow.ofKind(kind, converted);
    }

    private static Object toPaimon(Object value)
    {
        if (value instanceof String text) {
            return BinaryString.fromString(text);
        }
        if (value instanceof BigDecimal decimal) {
            return Decimal.fromBigDecimal(decimal, 10, 2);
        }
        if (value instanceof LocalDate date) {
            return Math.toIntExact(date.toEpochDay());
        }
        if (value instanceof LocalDateTime time) {
            return Timestamp.fromLocalDateTime(time);
        }
        return value;
    }

    /**
     * A copy of {@code source} written by Tarn's writer with the same schema and options: the rows
     * Tarn reads of it, files Tarn wrote with their own statistics, pages and indexes (ORC's
     * Bloom filters too).
     */
    private void copyWithTarn(String source, String target)
            throws IOException
    {
        PaimonTable original = PaimonTable.load(catalog, Identifier.parse(source));
        TableSchema schema = original.schema();
        catalog.createTable(Identifier.parse(target), new TableSchema(schema.version(), 0, schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), schema.options(), schema.comment(), schema.timeMillis()));
        PaimonTable copy = PaimonTable.load(catalog, Identifier.parse(target));
        ScanPlan plan = new ScanPlanner(original).plan(original.snapshot(ScanVersion.latest()));
        try (AppendTableWriter writer = new AppendTableWriter(copy, allocator)) {
            TableRead.forEachBatch(original, plan, ReadRequest.of(plan.readSchema().fields()).withBatchSize(500), allocator, writer::write);
            new TableCommit(copy, "random-filters-test").commit(writer.prepareCommit(), CommitKind.APPEND, 1);
        }
    }
}
