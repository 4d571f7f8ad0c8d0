package io.tarn.storage.scan;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.io.FileIndexEvaluator;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Tables with file indexes written by Apache Paimon for the file-index tests, and what Paimon's
 * own reader reads of a table under a filter: per planned file, Paimon's
 * {@code FileIndexEvaluator} (the evaluation its raw-file reader runs) decides whether the file is
 * read and which rows are.
 */
final class PaimonFileIndexTables
{
    static final String DELETION_VECTORS = "fi.pk_dv_index";
    static final String EVOLVED = "fi.append_evolved_index";

    private PaimonFileIndexTables() {}

    /**
     * Files and rows Paimon's reader reads (rows: of the files read, those its bitmap index
     * selects, or all, minus deleted rows).
     */
    record PaimonReads(long files, long rows) {}

    static Catalog open(Path warehouse)
    {
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        return CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()));
    }

    static FileStoreTable load(Path warehouse, String table)
            throws Exception
    {
        try (Catalog catalog = open(warehouse)) {
            return (FileStoreTable) catalog.getTable(Identifier.fromString(table));
        }
    }

    static PaimonReads reads(Path warehouse, String table, Predicate filter)
            throws Exception
    {
        FileStoreTable paimon = load(warehouse, table);
        long files = 0;
        long rows = 0;
        for (Split split : paimon.newReadBuilder().withFilter(filter).newScan().plan().splits()) {
            DataSplit dataSplit = (DataSplit) split;
            DataFilePathFactory paths = paimon.store().pathFactory().createDataFilePathFactory(dataSplit.partition(), dataSplit.bucket());
            List<DeletionFile> deletionFiles = dataSplit.deletionFiles().orElse(null);
            for (int i = 0; i < dataSplit.dataFiles().size(); i++) {
                DataFileMeta file = dataSplit.dataFiles().get(i);
                DeletionFile deletionFile = deletionFiles == null ? null : deletionFiles.get(i);
                DeletionVector deleted = deletionFile == null ? null : DeletionVector.read(paimon.fileIO(), deletionFile);
                FileIndexResult result = FileIndexEvaluator.evaluate(paimon.fileIO(), paimon.schemaManager().schema(file.schemaId()), List.of(filter),
                        null, null, paths, file, deleted);
                if (!result.remain()) {
                    continue;
                }
                files++;
                if (result instanceof BitmapIndexResult bitmap) {
                    Iterator<Integer> selected = bitmap.get().iterator();
                    while (selected.hasNext()) {
                        int row = selected.next();
                        if (deleted == null || !deleted.isDeleted(row)) {
                            rows++;
                        }
                    }
                }
                else {
                    rows += file.rowCount() - (deleted == null ? 0 : deleted.getCardinality());
                }
            }
        }
        return new PaimonReads(files, rows);
    }

    /**
     * A primary-key table with deletion vectors, a bitmap index on {@code category} and a Bloom
     * filter on {@code name}: 200 rows compacted to the top level, then every third id updated to
     * category {@code c-new} (marking the old rows in deletion vectors) and every seventh deleted.
     */
    static void createDeletionVectorTable(Path warehouse)
            throws Exception
    {
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .column("category", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .option("file-index.bitmap.columns", "category")
                .option("file-index.bloom-filter.columns", "name")
                .option("file-index.bloom-filter.name.items", "300")
                .build();
        try (Catalog catalog = open(warehouse)) {
            catalog.createDatabase("fi", true);
            catalog.createTable(Identifier.fromString(DELETION_VECTORS), schema, false);
            FileStoreTable table = (FileStoreTable) catalog.getTable(Identifier.fromString(DELETION_VECTORS));
            List<GenericRow> rows = new ArrayList<>();
            for (int id = 0; id < 200; id++) {
                rows.add(GenericRow.of(id, BinaryString.fromString("n" + id), id % 9 == 8 ? null : BinaryString.fromString("c" + id % 5), (long) id));
            }
            write(table, rows, true);
            rows = new ArrayList<>();
            for (int id = 0; id < 200; id++) {
                if (id % 7 == 0) {
                    rows.add(GenericRow.ofKind(RowKind.DELETE, id, BinaryString.fromString("n" + id), null, (long) id));
                }
                else if (id % 3 == 0) {
                    rows.add(GenericRow.of(id, BinaryString.fromString("n" + id), BinaryString.fromString("c-new"), id * 10L));
                }
            }
            write(table, rows, false);
        }
    }

    /**
     * An append table whose schema evolved between commits: column {@code category} (bitmap) was
     * renamed to {@code cat}, column {@code code} (bitmap) widened from INT to BIGINT, and column
     * {@code id} (Bloom filter) kept.
     */
    static void createEvolvedTable(Path warehouse)
            throws Exception
    {
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("category", DataTypes.STRING())
                .column("code", DataTypes.INT())
                .option("file-index.bitmap.columns", "category,code")
                .option("file-index.bloom-filter.columns", "id")
                .option("file-index.bloom-filter.id.items", "100")
                .build();
        try (Catalog catalog = open(warehouse)) {
            catalog.createDatabase("fi", true);
            Identifier identifier = Identifier.fromString(EVOLVED);
            catalog.createTable(identifier, schema, false);
            for (int commit = 0; commit < 2; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    rows.add(GenericRow.of(commit * 100 + i, BinaryString.fromString("k" + (i % 4)), i % 6));
                }
                write((FileStoreTable) catalog.getTable(identifier), rows, false);
            }
            catalog.alterTable(identifier, List.of(SchemaChange.renameColumn("category", "cat"), SchemaChange.updateColumnType("code", DataTypes.BIGINT()),
                    SchemaChange.setOption("file-index.bitmap.columns", "cat,code")), false);
            FileStoreTable table = (FileStoreTable) catalog.getTable(identifier);
            for (int commit = 2; commit < 4; commit++) {
                List<GenericRow> rows = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    rows.add(GenericRow.of(commit * 100 + i, BinaryString.fromString("k" + (i % 3)), (long) (i % 5)));
                }
                write(table, rows, false);
            }
        }
    }

    @SuppressWarnings("try") // Paimon's close() declares Exception
    static void write(FileStoreTable table, List<GenericRow> rows, boolean compact)
            throws Exception
    {
        Path spill = Files.createTempDirectory("tarn-file-index-spill");
        try (IOManager ioManager = IOManager.create(spill.toString())) {
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                write.withIOManager(ioManager);
                for (GenericRow row : rows) {
                    write.write(row);
                }
                if (compact) {
                    write.compact(org.apache.paimon.data.BinaryRow.EMPTY_ROW, 0, true);
                }
                commit.commit(write.prepareCommit());
            }
        }
        Thread.sleep(3);
    }

}
