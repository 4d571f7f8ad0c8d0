package io.tarn.storage.read;

import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceSnapshot;
import io.tarn.testing.ReferenceTables;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.compare;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables whose data files are Parquet, ORC and Avro at once, as a table gets them when its
 * {@code file.format} changes between commits (and under {@code file.format.per.level}), in
 * every table kind: append, deletion vectors, and merge-on-read with each merge engine. Each
 * version reads as one table, like Paimon reads it; merge-on-read merges the rows of one key
 * across files of different formats.
 */
public class TestMixedFormatTables
        extends AbstractTestAvroReadAgainstPaimon
{
    private static final RowType ROW_TYPE = RowType.builder()
            .field("id", DataTypes.INT().notNull())
            .field("v", DataTypes.BIGINT())
            .field("name", DataTypes.STRING())
            .field("tags", DataTypes.ARRAY(DataTypes.STRING()))
            .field("attrs", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.STRING()))
            .field("price", DataTypes.DECIMAL(12, 3))
            .field("ts", DataTypes.TIMESTAMP(6))
            .build();
    private static final List<String> TABLES = List.of(
            "mixed_append",
            "mixed_dedup",
            "mixed_dv",
            "mixed_partial_update",
            "mixed_aggregation",
            "mixed_first_row");

    private final Random random = new Random(23);

    @Override
    protected void createTables()
            throws Exception
    {
        createAppend();
        createMergeOnRead("mixed_dedup", Map.of(), true);
        createCompactedOnCommit("mixed_dv", Map.of("deletion-vectors.enabled", "true"), true);
        createMergeOnRead("mixed_partial_update", Map.of("merge-engine", "partial-update"), false);
        createMergeOnRead("mixed_aggregation", Map.of("merge-engine", "aggregation", "fields.v.aggregate-function", "sum"), false);
        createCompactedOnCommit("mixed_first_row", Map.of("merge-engine", "first-row"), false);
    }

    @DataProvider
    public Object[][] tables()
    {
        return TABLES.stream().map(table -> new Object[] {table}).toArray(Object[][]::new);
    }

    @DataProvider
    public Object[][] projections()
    {
        return new Object[][] {
                {"mixed_append", List.of("name", "attrs")},
                {"mixed_dedup", List.of("ts", "id")},
                {"mixed_dv", List.of("tags", "v")},
                {"mixed_partial_update", List.of("price", "name")},
                {"mixed_aggregation", List.of("v")},
                {"mixed_first_row", List.of("attrs", "id")},
        };
    }

    @DataProvider
    public Object[][] filters()
    {
        return new Object[][] {
                {"mixed_append", compare("id", LT, 25)},
                {"mixed_append", compare("v", GT, 40L)},
                {"mixed_dedup", compare("v", GT, 40L)},
                {"mixed_dv", compare("id", LT, 30)},
                {"mixed_partial_update", compare("name", EQ, "n2")},
                {"mixed_aggregation", compare("v", GT, 100L)},
                {"mixed_first_row", compare("id", GT, 50)},
        };
    }

    /**
     * The tables hold what their names say: over their versions, files of all three formats.
     */
    @Test(dataProvider = "tables")
    public void testEveryTableHoldsEveryFormat(String table)
            throws IOException
    {
        PaimonTable loaded = PaimonTable.load(catalog, Identifier.parse(DATABASE + "." + table));
        Set<String> formats = new TreeSet<>();
        Set<String> latest = new TreeSet<>();
        for (ReferenceSnapshot snapshot : ReferenceTables.snapshots(warehouse, DATABASE + "." + table)) {
            latest.clear();
            for (PlannedFile file : new ScanPlanner(loaded).plan(loaded.snapshot(new ScanVersion.SnapshotId(snapshot.id()))).files()) {
                String name = file.file().fileName();
                latest.add(name.substring(name.lastIndexOf('.') + 1));
            }
            formats.addAll(latest);
        }
        assertThat(formats).containsExactly("avro", "orc", "parquet");
        assertThat(latest).as("formats of the newest version of %s", table).hasSizeGreaterThan(1);
    }

    /**
     * An append table: a commit in each format, each after the table's {@code file.format} changed.
     */
    private void createAppend()
            throws Exception
    {
        FileStoreTable table = paimon.create("mixed_append", schema(Map.of("file.format", "parquet"), false));
        paimon.write(table, rows(0, 20, RowKind.INSERT));
        table = setOptions("mixed_append", Map.of("file.format", "orc"));
        paimon.write(table, rows(20, 40, RowKind.INSERT));
        table = setOptions("mixed_append", Map.of("file.format", "avro"));
        paimon.write(table, rows(40, 60, RowKind.INSERT));
        table = setOptions("mixed_append", Map.of("file.format", "parquet"));
        paimon.write(table, rows(60, 70, RowKind.INSERT));
    }

    /**
     * A write-only primary-key table: overlapping level-0 files in Parquet, ORC and Avro holding
     * versions of the same keys; then a full compaction into ORC while level 0 becomes Avro
     * ({@code file.format.per.level}), and more level-0 files on top.
     */
    private void createMergeOnRead(String name, Map<String, String> engine, boolean deletes)
            throws Exception
    {
        Map<String, String> options = new HashMap<>(engine);
        options.put("file.format", "parquet");
        options.put("write-only", "true");
        FileStoreTable table = paimon.create(name, schema(options, true));
        paimon.write(table, rows(0, 40, RowKind.INSERT));
        table = setOptions(name, Map.of("file.format", "orc"));
        paimon.write(table, rows(10, 30, RowKind.UPDATE_AFTER));
        table = setOptions(name, Map.of("file.format", "avro"));
        paimon.write(table, deletes ? concat(rows(20, 25, RowKind.DELETE), rows(35, 50, RowKind.UPDATE_AFTER)) : rows(35, 50, RowKind.UPDATE_AFTER));
        table = setOptions(name, Map.of("file.format", "orc", "file.format.per.level", "0:avro", "write-only", "false"));
        paimon.compact(table);
        table = setOptions(name, Map.of("write-only", "true"));
        paimon.write(table, rows(0, 15, RowKind.UPDATE_AFTER));
        table = setOptions(name, Map.of("file.format.per.level", "0:parquet"));
        paimon.write(table, deletes ? concat(rows(5, 8, RowKind.DELETE), rows(45, 60, RowKind.INSERT)) : rows(45, 60, RowKind.INSERT));
    }

    /**
     * Deletion vectors and first-row, whose readers see only compacted files: every commit
     * compacts, so files of the earlier formats stay in the table beside the newer ones (with
     * deletion vectors marking the rows that newer files replaced).
     */
    private void createCompactedOnCommit(String name, Map<String, String> engine, boolean deletes)
            throws Exception
    {
        Map<String, String> options = new HashMap<>(engine);
        options.put("file.format", "parquet");
        FileStoreTable table = paimon.create(name, schema(options, true));
        paimon.write(table, rows(0, 60, RowKind.INSERT));
        table = setOptions(name, Map.of("file.format", "orc"));
        // new keys too: first-row keeps none of the updates
        paimon.write(table, concat(rows(0, 10, RowKind.UPDATE_AFTER), rows(60, 65, RowKind.INSERT)));
        table = setOptions(name, Map.of("file.format", "avro"));
        paimon.write(table, deletes ? concat(rows(10, 20, RowKind.DELETE), rows(50, 70, RowKind.UPDATE_AFTER)) : rows(50, 70, RowKind.INSERT));
    }

    private FileStoreTable setOptions(String name, Map<String, String> options)
            throws Exception
    {
        List<SchemaChange> changes = new ArrayList<>();
        options.forEach((key, value) -> changes.add(SchemaChange.setOption(key, value)));
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create(DATABASE, name), changes, false);
        return paimon.table(name);
    }

    private static Schema schema(Map<String, String> options, boolean primaryKey)
    {
        Schema.Builder schema = Schema.newBuilder().options(options);
        if (primaryKey) {
            schema.primaryKey("id").option("bucket", "1");
        }
        ROW_TYPE.getFields().forEach(field -> schema.column(field.name(), field.type()));
        return schema.build();
    }

    private InternalRow[] rows(int from, int to, RowKind kind)
    {
        InternalRow[] rows = new InternalRow[to - from];
        for (int id = from; id < to; id++) {
            GenericRow row = (GenericRow) value(ROW_TYPE.notNull(), random);
            row.setField(0, id);
            row.setField(1, random.nextInt(5) == 0 ? null : (long) random.nextInt(100));
            row.setField(2, random.nextInt(5) == 0 ? null : BinaryString.fromString("n" + random.nextInt(6)));
            row.setRowKind(kind);
            rows[id - from] = row;
        }
        return rows;
    }

    private static InternalRow[] concat(InternalRow[] first, InternalRow[] second)
    {
        InternalRow[] all = new InternalRow[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
