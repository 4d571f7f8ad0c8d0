package io.tarn.storage.read;

import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.testng.annotations.DataProvider;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.compare;

/**
 * Primary-key tables with Avro data files, read by Tarn like Paimon reads them: Avro level-0
 * files over Parquet compacted levels ({@code file.format.per.level} '0:avro') merged on read,
 * and Avro files of every level with deletion vectors. (Under '0:avro' with deletion vectors no
 * Avro file is read: level-0 files are not read in that mode.)
 */
public class TestAvroPrimaryKeyTableRead
        extends AbstractTestAvroReadAgainstPaimon
{
    private static final RowType PK_TYPE = RowType.builder()
            .field("id", DataTypes.INT().notNull())
            .field("v", DataTypes.BIGINT())
            .field("name", DataTypes.STRING())
            .field("tags", DataTypes.ARRAY(DataTypes.STRING()))
            .field("attrs", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.STRING()))
            .field("price", DataTypes.DECIMAL(12, 3))
            .field("ts", DataTypes.TIMESTAMP(6))
            .build();

    private Schema pkSchema(Map<String, String> options)
    {
        Schema.Builder schema = Schema.newBuilder().primaryKey("id").options(options);
        PK_TYPE.getFields().forEach(field -> schema.column(field.name(), field.type()));
        return schema.build();
    }

    @Override
    protected void createTables()
            throws Exception
    {
        createPrimaryKeyLevels();
        createPrimaryKeyDeletionVectors();
    }

    @DataProvider
    public Object[][] tables()
    {
        return new Object[][] {{"pk_levels"}, {"pk_avro_dv"}};
    }

    @DataProvider
    public Object[][] projections()
    {
        return new Object[][] {
                {"pk_levels", List.of("name", "id")},
                {"pk_levels", List.of("attrs", "ts")},
                {"pk_avro_dv", List.of("v")},
                {"pk_avro_dv", List.of("tags", "id", "attrs")},
        };
    }

    @DataProvider
    public Object[][] filters()
    {
        return new Object[][] {
                {"pk_levels", compare("v", GT, 50L)},
                {"pk_levels", compare("name", EQ, "n3")},
                {"pk_avro_dv", compare("id", LT, 30)},
                {"pk_avro_dv", compare("v", LT, 40L)},
        };
    }

    /**
     * Merge-on-read with Avro level-0 files over Parquet compacted levels: inserts, updates and
     * deletes in overlapping level-0 files, a full compaction, and more level-0 files on top.
     */
    private void createPrimaryKeyLevels()
            throws Exception
    {
        Map<String, String> options = new HashMap<>();
        options.put("bucket", "2");
        options.put("file.format", "parquet");
        options.put("file.format.per.level", "0:avro");
        options.put("write-only", "true");
        FileStoreTable table = paimon.create("pk_levels", pkSchema(options));
        Random random = new Random(7);
        paimon.write(table, pkRows(random, 0, 60, RowKind.INSERT));
        paimon.write(table, pkRows(random, 0, 30, RowKind.UPDATE_AFTER));
        paimon.write(table, pkRows(random, 10, 15, RowKind.DELETE));
        compact(table, 2);
        paimon.write(table, concat(pkRows(random, 20, 50, RowKind.UPDATE_AFTER), pkRows(random, 60, 80, RowKind.INSERT)));
        paimon.write(table, concat(pkRows(random, 5, 10, RowKind.DELETE), pkRows(random, 70, 73, RowKind.DELETE)));
    }

    /**
     * Deletion vectors over Avro files: every commit compacts into levels above 0, whose deleted
     * rows deletion vectors mark.
     */
    private void createPrimaryKeyDeletionVectors()
            throws Exception
    {
        Map<String, String> options = new HashMap<>();
        options.put("file.format", "avro");
        options.put("bucket", "2");
        options.put("deletion-vectors.enabled", "true");
        FileStoreTable table = paimon.create("pk_avro_dv", pkSchema(options));
        Random random = new Random(11);
        paimon.write(table, pkRows(random, 0, 60, RowKind.INSERT));
        paimon.write(table, pkRows(random, 0, 30, RowKind.UPDATE_AFTER));
        paimon.write(table, pkRows(random, 10, 20, RowKind.DELETE));
        paimon.write(table, concat(pkRows(random, 40, 50, RowKind.UPDATE_AFTER), pkRows(random, 60, 80, RowKind.INSERT)));
    }

    private InternalRow[] pkRows(Random random, int from, int to, RowKind kind)
    {
        InternalRow[] rows = new InternalRow[to - from];
        for (int id = from; id < to; id++) {
            GenericRow row = (GenericRow) value(PK_TYPE.notNull(), random);
            row.setField(0, id);
            row.setField(1, random.nextInt(5) == 0 ? null : (long) random.nextInt(100));
            row.setField(2, BinaryString.fromString("n" + random.nextInt(6)));
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

    private void compact(FileStoreTable writeOnly, int buckets)
            throws Exception
    {
        // a write-only table's writers cannot compact
        FileStoreTable table = writeOnly.copy(Map.of("write-only", "false"));
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite();
                BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(IOManager.create(warehouse.resolve("tmp").toString()));
            for (int bucket = 0; bucket < buckets; bucket++) {
                write.compact(BinaryRow.EMPTY_ROW, bucket, true);
            }
            commit.commit(write.prepareCommit());
        }
    }

}
