package io.tarn.storage.read;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.scan.PlannedFile;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.tarn.storage.scan.FilterSpec.Op.EQ;
import static io.tarn.storage.scan.FilterSpec.Op.GT;
import static io.tarn.storage.scan.FilterSpec.Op.LT;
import static io.tarn.storage.scan.FilterSpec.and;
import static io.tarn.storage.scan.FilterSpec.compare;
import static io.tarn.storage.scan.FilterSpec.in;
import static io.tarn.storage.scan.FilterSpec.isNotNull;
import static io.tarn.storage.scan.FilterSpec.isNull;
import static io.tarn.storage.scan.FilterSpec.or;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Append tables whose data files Apache Paimon wrote in Avro: every type Paimon writes to Avro
 * (TIMESTAMP and TIMESTAMP_LTZ up to precision 6, TIME up to 3, which is all Paimon accepts in
 * Avro) under each codec it offers for Avro, and a table evolved through added, renamed,
 * dropped, moved and retyped columns; read by Tarn like Paimon reads them.
 */
public class TestAvroAppendTableRead
        extends AbstractTestAvroReadAgainstPaimon
{
    private static final List<String> CODECS = List.of("zstd", "snappy", "deflate", "null");

    private static final RowType ALL_TYPES = RowType.builder()
            .field("id", DataTypes.INT().notNull())
            .field("b", DataTypes.BOOLEAN())
            .field("ti", DataTypes.TINYINT())
            .field("si", DataTypes.SMALLINT())
            .field("i", DataTypes.INT())
            .field("bi", DataTypes.BIGINT())
            .field("f", DataTypes.FLOAT())
            .field("d", DataTypes.DOUBLE())
            .field("dec_small", DataTypes.DECIMAL(9, 2))
            .field("dec_mid", DataTypes.DECIMAL(18, 4))
            .field("dec_big", DataTypes.DECIMAL(38, 10))
            .field("c", DataTypes.CHAR(5))
            .field("vc", DataTypes.VARCHAR(20))
            .field("s", DataTypes.STRING())
            .field("bin", DataTypes.BINARY(4))
            .field("vb", DataTypes.VARBINARY(10))
            .field("by", DataTypes.BYTES())
            .field("dt", DataTypes.DATE())
            .field("tm0", DataTypes.TIME())
            .field("tm3", DataTypes.TIME(3))
            .field("ts0", DataTypes.TIMESTAMP(0))
            .field("ts1", DataTypes.TIMESTAMP(1))
            .field("ts2", DataTypes.TIMESTAMP(2))
            .field("ts3", DataTypes.TIMESTAMP(3))
            .field("ts4", DataTypes.TIMESTAMP(4))
            .field("ts5", DataTypes.TIMESTAMP(5))
            .field("ts6", DataTypes.TIMESTAMP(6))
            .field("ltz0", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(0))
            .field("ltz3", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))
            .field("ltz4", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(4))
            .field("ltz6", DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6))
            .field("arr", DataTypes.ARRAY(DataTypes.INT()))
            .field("arr_s", DataTypes.ARRAY(DataTypes.STRING().notNull()))
            .field("m_str", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT()))
            .field("m_int", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.STRING()))
            .field("m_date", DataTypes.MAP(DataTypes.DATE().notNull(), DataTypes.ARRAY(DataTypes.DECIMAL(10, 2))))
            .field("ms", DataTypes.MULTISET(DataTypes.STRING().notNull()))
            .field("r", DataTypes.ROW(
                    DataTypes.FIELD(100, "x", DataTypes.INT()),
                    DataTypes.FIELD(101, "y", DataTypes.STRING()),
                    DataTypes.FIELD(102, "z", DataTypes.ROW(
                            DataTypes.FIELD(103, "p", DataTypes.DOUBLE()),
                            DataTypes.FIELD(104, "q", DataTypes.ARRAY(DataTypes.TIMESTAMP(6)))))))
            .field("arr_row", DataTypes.ARRAY(DataTypes.ROW(
                    DataTypes.FIELD(105, "a", DataTypes.INT()),
                    DataTypes.FIELD(106, "l", DataTypes.ARRAY(DataTypes.STRING())))))
            .build();

    @Override
    protected void createTables()
            throws Exception
    {
        for (String codec : CODECS) {
            createAllTypes(codec);
        }
        createEvolved();
        // a table for the corruption test to break
        FileStoreTable broken = paimon.create("broken", Schema.newBuilder().column("id", DataTypes.INT()).column("s", DataTypes.STRING()).options(Map.of("file.format", "avro")).build());
        paimon.write(broken, GenericRow.of(1, BinaryString.fromString("a")), GenericRow.of(2, BinaryString.fromString("b")));
    }

    @DataProvider
    public Object[][] tables()
    {
        List<Object[]> tables = new ArrayList<>();
        CODECS.forEach(codec -> tables.add(new Object[] {"all_types_" + codec}));
        tables.add(new Object[] {"evolved"});
        return tables.toArray(Object[][]::new);
    }

    @DataProvider
    public Object[][] projections()
    {
        return new Object[][] {
                {"all_types_zstd", List.of("s", "id")},
                {"all_types_zstd", List.of("m_int", "i", "m_date")},
                {"all_types_snappy", List.of("r", "arr_row", "ts6", "ltz0")},
                {"all_types_deflate", List.of("ms", "dec_big", "bin", "c")},
                {"all_types_null", List.of("ts0", "ts1", "ts2", "ts3", "ts4", "ts5", "tm0", "tm3", "dt")},
                {"evolved", List.of("c2", "id", "r")},
                {"evolved", List.of("added_first", "e", "a")},
        };
    }

    @DataProvider
    public Object[][] filters()
    {
        return new Object[][] {
                {"all_types_zstd", compare("i", GT, 0)},
                {"all_types_zstd", isNull("s")},
                {"all_types_snappy", and(compare("bi", LT, 50L), isNotNull("vc"))},
                {"all_types_deflate", or(compare("dec_small", LT, new BigDecimal("0.00")), compare("vc", EQ, "v3"))},
                {"all_types_null", in("id", 1, 5, 27, 49)},
                {"evolved", compare("a", GT, 10L)},
                {"evolved", isNull("c2")},
        };
    }

    @Test
    public void testCorruptAvroFileNamesTableAndFile()
            throws Exception
    {
        PaimonTable table = PaimonTable.load(catalog, Identifier.parse(DATABASE + ".broken"));
        ScanPlan plan = new ScanPlanner(table).plan(table.snapshot(new ScanVersion.Latest()));
        PlannedFile file = plan.files().get(0);
        String path = table.dataFilePath(file.partition(), file.bucket(), file.file(), file.file().fileName());
        try (RandomAccessFile data = new RandomAccessFile(path.replaceFirst("^file:", ""), "rw")) {
            // the block's records: the last bytes before the final sync marker
            data.seek(data.length() - 20);
            data.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        }
        ReadRequest request = ReadRequest.of(plan.readSchema().fields());
        assertThatThrownBy(() -> TableRead.forEachBatch(table, plan, request, allocator, batch -> {}))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("broken")
                .hasMessageContaining(file.file().fileName());
    }

    private void createAllTypes(String codec)
            throws Exception
    {
        Schema.Builder schema = Schema.newBuilder().options(codecOptions(codec));
        ALL_TYPES.getFields().forEach(field -> schema.column(field.name(), field.type()));
        FileStoreTable table = paimon.create("all_types_" + codec, schema.build());
        Random random = new Random(codec.hashCode());
        int id = 0;
        for (int commit = 0; commit < (codec.equals("zstd") ? 3 : 1); commit++) {
            List<InternalRow> rows = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                GenericRow row = (GenericRow) value(ALL_TYPES.notNull(), random);
                row.setField(0, id++);
                rows.add(row);
            }
            paimon.write(table, rows.toArray(InternalRow[]::new));
        }
    }

    private static Map<String, String> codecOptions(String codec)
    {
        Map<String, String> options = new HashMap<>();
        options.put("file.format", "avro");
        // zstd is Paimon's default file.compression, which it maps to Avro's zstandard codec;
        // the others are Avro codec names, which avro.codec passes to Avro as they are
        if (!codec.equals("zstd")) {
            options.put("avro.codec", codec);
        }
        return options;
    }

    /**
     * Schemas 0 to 4, a commit under each: added columns (last and first), a renamed and a
     * dropped column, INT to BIGINT, SMALLINT to INT, FLOAT to DOUBLE, DECIMAL(10, 2) to
     * DECIMAL(12, 4), TIMESTAMP(3) to TIMESTAMP(6), INT to STRING, and a field added inside a ROW.
     */
    private void createEvolved()
            throws Exception
    {
        String name = "evolved";
        FileStoreTable table = paimon.create(name, Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("a", DataTypes.INT())
                .column("b", DataTypes.FLOAT())
                .column("c", DataTypes.STRING())
                .column("d", DataTypes.DECIMAL(10, 2))
                .column("e", DataTypes.TIMESTAMP(3))
                .column("g", DataTypes.SMALLINT())
                .column("h", DataTypes.INT())
                .column("k", DataTypes.FLOAT())
                .column("r", DataTypes.ROW(DataTypes.FIELD(20, "x", DataTypes.INT()), DataTypes.FIELD(21, "y", DataTypes.STRING())))
                .options(Map.of("file.format", "avro"))
                .build());
        Random random = new Random(99);
        int[] id = {0};
        writeEvolved(table, random, id);
        table = alter(name, SchemaChange.addColumn("f", DataTypes.BIGINT()));
        writeEvolved(table, random, id);
        table = alter(name, SchemaChange.renameColumn("c", "c2"), SchemaChange.dropColumn("b"));
        writeEvolved(table, random, id);
        table = alter(name,
                SchemaChange.updateColumnType("a", DataTypes.BIGINT()),
                SchemaChange.updateColumnType("g", DataTypes.INT()),
                SchemaChange.updateColumnType("k", DataTypes.DOUBLE()),
                SchemaChange.updateColumnType("d", DataTypes.DECIMAL(12, 4)),
                SchemaChange.updateColumnType("e", DataTypes.TIMESTAMP(6)),
                SchemaChange.updateColumnType("h", DataTypes.STRING()));
        writeEvolved(table, random, id);
        table = alter(name,
                SchemaChange.addColumn("added_first", DataTypes.INT(), null, SchemaChange.Move.first("added_first")),
                SchemaChange.addColumn(new String[] {"r", "z"}, DataTypes.BIGINT(), null, null));
        writeEvolved(table, random, id);
    }

    private void writeEvolved(FileStoreTable table, Random random, int[] id)
            throws Exception
    {
        RowType rowType = table.rowType();
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            GenericRow row = (GenericRow) value(rowType.notNull(), random);
            row.setField(rowType.getFieldIndex("id"), id[0]++);
            rows.add(row);
        }
        paimon.write(table, rows.toArray(InternalRow[]::new));
    }

    private FileStoreTable alter(String table, SchemaChange... changes)
            throws Exception
    {
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create(DATABASE, table), List.of(changes), false);
        return paimon.table(table);
    }

}
