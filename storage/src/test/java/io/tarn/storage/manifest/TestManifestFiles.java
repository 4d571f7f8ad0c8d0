package io.tarn.storage.manifest;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.PartitionPath;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.types.DataField;
import io.tarn.types.RowType;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRowWriter;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestManifestFiles
{
    private Path directory;
    private FileStoreTable primaryKeyTable;
    private FileStoreTable appendTable;
    private FileStoreTable embeddedIndexTable;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        directory = Files.createTempDirectory("tarn-manifests");
        Options options = new Options();
        options.set("warehouse", directory.resolve("warehouse").toUri().toString());
        Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options, new org.apache.hadoop.conf.Configuration()));
        catalog.createDatabase("db", true);

        Identifier pk = Identifier.create("db", "pk");
        catalog.createTable(pk, Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .option("deletion-vectors.enabled", "true")
                .build(), false);
        primaryKeyTable = (FileStoreTable) catalog.getTable(pk);
        List<GenericRow> rows = new ArrayList<>();
        for (int id = 0; id < 8; id++) {
            rows.add(GenericRow.of(BinaryString.fromString("2024-01-01"), id, BinaryString.fromString("first " + id)));
            rows.add(GenericRow.of(BinaryString.fromString("2024-01-02"), id, null));
        }
        commit(primaryKeyTable, rows, false, false);
        commit(primaryKeyTable, List.of(), true, true);
        commit(primaryKeyTable, List.of(
                GenericRow.of(BinaryString.fromString("2024-01-01"), 1, BinaryString.fromString("second")),
                GenericRow.of(BinaryString.fromString("2024-01-01"), 2, BinaryString.fromString("second")),
                GenericRow.of(BinaryString.fromString("2024-01-02"), 3, BinaryString.fromString("second"))), true, false);

        Identifier append = Identifier.create("db", "append");
        catalog.createTable(append, Schema.newBuilder()
                .column("p", DataTypes.INT())
                .column("id", DataTypes.BIGINT())
                .column("name", DataTypes.STRING())
                .column("price", DataTypes.DECIMAL(20, 2))
                .column("ts", DataTypes.TIMESTAMP(6))
                .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                .partitionKeys("p")
                .option("file-index.bloom-filter.columns", "name")
                .build(), false);
        appendTable = (FileStoreTable) catalog.getTable(append);
        for (int commit = 0; commit < 2; commit++) {
            List<GenericRow> appendRows = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                appendRows.add(GenericRow.of(i % 2 == 0 ? null : commit, (long) i, BinaryString.fromString("name " + i),
                        Decimal.fromBigDecimal(new BigDecimal("12345678901234.5" + i), 20, 2), Timestamp.fromEpochMillis(1_700_000_000_000L + i, 123_000), null));
            }
            commit(appendTable, appendRows, false, false);
        }

        Identifier embedded = Identifier.create("db", "embedded");
        catalog.createTable(embedded, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .option("file-index.bloom-filter.columns", "name")
                .option("file-index.in-manifest-threshold", "1 mb")
                .build(), false);
        embeddedIndexTable = (FileStoreTable) catalog.getTable(embedded);
        commit(embeddedIndexTable, List.of(GenericRow.of(1, BinaryString.fromString("one")), GenericRow.of(2, BinaryString.fromString("two"))), false, false);
    }

    private List<FileStoreTable> tables()
    {
        return List.of(primaryKeyTable, appendTable, embeddedIndexTable);
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws IOException
    {
        if (directory != null) {
            try (Stream<Path> paths = Files.walk(directory)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    @SuppressWarnings("try")
    private void commit(FileStoreTable table, List<GenericRow> rows, boolean compact, boolean fullCompaction)
            throws Exception
    {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(IOManager.create(directory.toString()));
            for (GenericRow row : rows) {
                write.write(row);
            }
            if (compact) {
                for (String dt : List.of("2024-01-01", "2024-01-02")) {
                    for (int bucket = 0; bucket < 2; bucket++) {
                        write.compact(paimonPartition(dt), bucket, fullCompaction);
                    }
                }
            }
            commit.commit(write.prepareCommit());
        }
    }

    @Test
    public void testReadPaimonManifests()
            throws Exception
    {
        for (FileStoreTable table : tables()) {
            int manifests = 0;
            for (Snapshot snapshot : snapshots(table)) {
                for (String list : manifestLists(snapshot)) {
                    List<org.apache.paimon.manifest.ManifestFileMeta> expected = table.store().manifestListFactory().create().read(list);
                    List<ManifestFileMeta> actual = ManifestListFile.read(manifestBytes(table, list), list);
                    assertThat(actual).isEqualTo(expected.stream().map(TestManifestFiles::manifestFileMeta).toList());
                    for (org.apache.paimon.manifest.ManifestFileMeta meta : expected) {
                        List<org.apache.paimon.manifest.ManifestEntry> expectedEntries = table.store().manifestFileFactory().create().read(meta.fileName());
                        List<ManifestEntry> actualEntries = ManifestFile.read(manifestBytes(table, meta.fileName()), meta.fileName());
                        // Paimon's reader does not keep the stored order of entries; Avro's own reader gives it
                        assertThat(actualEntries).containsExactlyInAnyOrderElementsOf(expectedEntries.stream().map(TestManifestFiles::manifestEntry).toList());
                        assertThat(actualEntries.stream().map(entry -> entry.file().fileName() + "@" + entry.file().level() + entry.kind()).toList())
                                .isEqualTo(avroRecords(manifestBytes(table, meta.fileName())).stream()
                                        .map(record -> ((GenericRecord) record.get("_FILE")).get("_FILE_NAME") + "@" + ((GenericRecord) record.get("_FILE")).get("_LEVEL")
                                                + FileKind.fromByteValue((Integer) record.get("_KIND")))
                                        .toList());
                        manifests++;
                    }
                }
            }
            assertThat(manifests).isGreaterThan(0);
        }
        Snapshot embedded = embeddedIndexTable.snapshotManager().latestSnapshot();
        ManifestFileMeta embeddedManifest = ManifestListFile.read(manifestBytes(embeddedIndexTable, embedded.deltaManifestList()), embedded.deltaManifestList()).get(0);
        assertThat(ManifestFile.read(manifestBytes(embeddedIndexTable, embeddedManifest.fileName()), embeddedManifest.fileName()))
                .isNotEmpty()
                .allSatisfy(entry -> assertThat(entry.file().embeddedIndex()).isNotEmpty());

        // the compaction upgraded level-0 files: DELETE at level 0 plus ADD at level 5 with the same name
        List<ManifestEntry> entries = new ArrayList<>();
        Snapshot compacted = primaryKeyTable.snapshotManager().snapshot(2);
        for (ManifestFileMeta meta : ManifestListFile.read(manifestBytes(primaryKeyTable, compacted.deltaManifestList()), compacted.deltaManifestList())) {
            entries.addAll(ManifestFile.read(manifestBytes(primaryKeyTable, meta.fileName()), meta.fileName()));
        }
        assertThat(entries).anySatisfy(entry -> assertThat(entry.kind()).isEqualTo(FileKind.DELETE));
        assertThat(entries).anySatisfy(entry -> assertThat(entry.file().level()).isEqualTo(5));
    }

    @Test
    public void testReadPaimonIndexManifest()
            throws Exception
    {
        Snapshot snapshot = primaryKeyTable.snapshotManager().latestSnapshot();
        String name = snapshot.indexManifest();
        assertThat(name).isNotNull();
        List<org.apache.paimon.manifest.IndexManifestEntry> expected = primaryKeyTable.store().indexManifestFileFactory().create().read(name);
        List<IndexManifestEntry> actual = IndexManifestFile.read(manifestBytes(primaryKeyTable, name), name);
        assertThat(actual).isEqualTo(expected.stream().map(TestManifestFiles::indexManifestEntry).toList());
        assertThat(actual).anySatisfy(entry -> {
            assertThat(entry.indexType()).isEqualTo(IndexManifestEntry.DELETION_VECTORS_INDEX);
            assertThat(entry.deletionVectorRanges().orElseThrow()).isNotEmpty();
        });
    }

    @Test
    public void testPartitionPathsOfLiveFiles()
            throws Exception
    {
        Map<FileStoreTable, RowType> partitionTypes = Map.of(
                primaryKeyTable, RowType.of(List.of(new DataField(0, "dt", io.tarn.types.DataTypes.string().withNullable(false)))),
                appendTable, RowType.of(List.of(new DataField(0, "p", io.tarn.types.DataTypes.integer()))));
        for (Map.Entry<FileStoreTable, RowType> table : partitionTypes.entrySet()) {
            Snapshot snapshot = table.getKey().snapshotManager().latestSnapshot();
            Set<String> directories = new HashSet<>();
            for (String list : List.of(snapshot.baseManifestList(), snapshot.deltaManifestList())) {
                for (ManifestFileMeta meta : ManifestListFile.read(manifestBytes(table.getKey(), list), list)) {
                    for (ManifestEntry entry : ManifestFile.read(manifestBytes(table.getKey(), meta.fileName()), meta.fileName())) {
                        String directory = PartitionPath.of(entry.partition(), table.getValue(), PartitionPath.DEFAULT_PARTITION_NAME, true);
                        directories.add(directory);
                        Path dataFile = manifestPath(table.getKey(), "x").getParent().getParent().resolve(directory + "bucket-" + entry.bucket()).resolve(entry.file().fileName());
                        assertThat(dataFile).exists();
                    }
                }
            }
            assertThat(directories).isNotEmpty();
        }
        assertThat(manifestPath(appendTable, "x").getParent().getParent().resolve("p=__DEFAULT_PARTITION__")).isDirectory();
    }

    @Test
    public void testSchemasMatchPaimon()
            throws Exception
    {
        // Tarn writes Paimon 1.3's schemas; Paimon 1.4 appends fields Tarn knows and leaves unread
        Snapshot snapshot = primaryKeyTable.snapshotManager().latestSnapshot();
        String list = snapshot.deltaManifestList();
        assertThat(withoutTrailingFields(schemaOf(manifestBytes(primaryKeyTable, list)), "_MIN_ROW_ID", "_MAX_ROW_ID")).isEqualTo(ManifestSchemas.MANIFEST_LIST);
        String manifest = ManifestListFile.read(manifestBytes(primaryKeyTable, list), list).get(0).fileName();
        assertThat(schemaOf(manifestBytes(primaryKeyTable, manifest))).isEqualTo(ManifestSchemas.MANIFEST_ENTRY);
        assertThat(withoutTrailingFields(schemaOf(manifestBytes(primaryKeyTable, snapshot.indexManifest())), "_GLOBAL_INDEX")).isEqualTo(ManifestSchemas.INDEX_MANIFEST_ENTRY);
    }

    @Test
    public void testPaimonReadsWhatWeWrite()
            throws Exception
    {
        int counter = 0;
        for (FileStoreTable table : tables()) {
            for (Snapshot snapshot : snapshots(table)) {
                for (String list : manifestLists(snapshot)) {
                    for (String compression : List.of("zstd", "none", "deflate", "snappy")) {
                        String copy = "manifest-list-tarn-" + counter++;
                        Files.write(manifestPath(table, copy), ManifestListFile.write(ManifestListFile.read(manifestBytes(table, list), list), compression));
                        List<org.apache.paimon.manifest.ManifestFileMeta> expected = table.store().manifestListFactory().create().read(list);
                        assertThat(table.store().manifestListFactory().create().read(copy)).isEqualTo(expected);

                        for (org.apache.paimon.manifest.ManifestFileMeta meta : expected) {
                            String manifestCopy = "manifest-tarn-" + counter++;
                            Files.write(manifestPath(table, manifestCopy), ManifestFile.write(ManifestFile.read(manifestBytes(table, meta.fileName()), meta.fileName()), compression));
                            assertThat(table.store().manifestFileFactory().create().read(manifestCopy))
                                    .isEqualTo(table.store().manifestFileFactory().create().read(meta.fileName()));
                        }
                    }
                }
                if (snapshot.indexManifest() != null) {
                    String copy = "index-manifest-tarn-" + counter++;
                    Files.write(manifestPath(table, copy), IndexManifestFile.write(IndexManifestFile.read(manifestBytes(table, snapshot.indexManifest()), snapshot.indexManifest())));
                    assertThat(table.store().indexManifestFileFactory().create().read(copy))
                            .isEqualTo(table.store().indexManifestFileFactory().create().read(snapshot.indexManifest()));
                }
            }
        }
    }

    @Test
    public void testCorruptFiles()
            throws Exception
    {
        Snapshot snapshot = primaryKeyTable.snapshotManager().latestSnapshot();
        String list = snapshot.deltaManifestList();
        byte[] bytes = manifestBytes(primaryKeyTable, list);

        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 20);
        assertThatThrownBy(() -> ManifestListFile.read(truncated, "manifest-list-truncated"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-list-truncated");
        assertThatThrownBy(() -> ManifestListFile.read(Arrays.copyOf(bytes, 10), "manifest-list-short"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-list-short");

        byte[] corruptBlock = bytes.clone();
        corruptBlock[blockDataStart(corruptBlock)] ^= (byte) 0xFF;
        assertThatThrownBy(() -> ManifestListFile.read(corruptBlock, "manifest-list-corrupt"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-list-corrupt");

        byte[] badSync = bytes.clone();
        badSync[badSync.length - 1] ^= 1;
        assertThatThrownBy(() -> ManifestListFile.read(badSync, "manifest-list-sync"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-list-sync")
                .hasMessageContaining("sync");

        byte[] hugeBlock = bytes.clone();
        int start = headerEnd(hugeBlock);
        hugeBlock[start + 1] = (byte) 0xFE;
        assertThatThrownBy(() -> ManifestListFile.read(hugeBlock, "manifest-list-huge"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-list-huge");

        // a manifest where a list is expected: required fields are missing
        String manifest = ManifestListFile.read(bytes, list).get(0).fileName();
        assertThatThrownBy(() -> ManifestListFile.read(manifestBytes(primaryKeyTable, manifest), manifest))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining(manifest);
        assertThatThrownBy(() -> ManifestFile.read("not avro".getBytes(java.nio.charset.StandardCharsets.UTF_8), "manifest-text"))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-text");
    }

    @Test
    public void testUnsupportedVersions()
            throws Exception
    {
        Snapshot snapshot = primaryKeyTable.snapshotManager().latestSnapshot();
        String list = snapshot.deltaManifestList();
        List<ManifestFileMeta> metas = ManifestListFile.read(manifestBytes(primaryKeyTable, list), list);

        byte[] listBytes = ManifestListFile.write(metas.subList(0, 1), "none");
        listBytes[blockDataStart(listBytes)] = 6;
        assertThatThrownBy(() -> ManifestListFile.read(listBytes, "manifest-list-v3"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("manifest-list-v3")
                .hasMessageContaining("version 3");

        String manifest = metas.get(0).fileName();
        byte[] manifestBytes = ManifestFile.write(ManifestFile.read(manifestBytes(primaryKeyTable, manifest), manifest).subList(0, 1), "none");
        manifestBytes[blockDataStart(manifestBytes)] = 6;
        assertThatThrownBy(() -> ManifestFile.read(manifestBytes, "manifest-v3"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("manifest-v3")
                .hasMessageContaining("version 3");

        byte[] indexBytes = IndexManifestFile.write(IndexManifestFile.read(manifestBytes(primaryKeyTable, snapshot.indexManifest()), snapshot.indexManifest()).subList(0, 1), "none");
        indexBytes[blockDataStart(indexBytes)] = 4;
        assertThatThrownBy(() -> IndexManifestFile.read(indexBytes, "index-manifest-v2"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("index-manifest-v2")
                .hasMessageContaining("version 2");
    }

    @Test
    public void testIdentifier()
            throws Exception
    {
        Snapshot snapshot = primaryKeyTable.snapshotManager().snapshot(2);
        List<ManifestEntry> entries = new ArrayList<>();
        for (ManifestFileMeta meta : ManifestListFile.read(manifestBytes(primaryKeyTable, snapshot.deltaManifestList()), snapshot.deltaManifestList())) {
            entries.addAll(ManifestFile.read(manifestBytes(primaryKeyTable, meta.fileName()), meta.fileName()));
        }
        ManifestEntry entry = entries.get(0);
        ManifestEntry sameFile = new ManifestEntry(FileKind.ADD, BinaryRow.of(entry.partition().arity(), entry.partition().toBytes()), entry.bucket(), 7, entry.file());
        assertThat(sameFile.identifier()).isEqualTo(entry.identifier());
        assertThat(sameFile.identifier().hashCode()).isEqualTo(entry.identifier().hashCode());
        assertThat(new ManifestEntry(entry.kind(), entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file().withLevel(entry.file().level() + 1)).identifier())
                .isNotEqualTo(entry.identifier());
    }

    private static int headerEnd(byte[] file)
    {
        byte[] sync = Arrays.copyOfRange(file, file.length - 16, file.length);
        for (int i = 4; i + 16 <= file.length; i++) {
            if (Arrays.equals(Arrays.copyOfRange(file, i, i + 16), sync)) {
                return i + 16;
            }
        }
        throw new AssertionError("no sync marker");
    }

    /** The offset of the first data byte of the first block: after the header and two varints. */
    private static int blockDataStart(byte[] file)
    {
        int position = headerEnd(file);
        for (int varint = 0; varint < 2; varint++) {
            while ((file[position] & 0x80) != 0) {
                position++;
            }
            position++;
        }
        return position;
    }

    private static org.apache.avro.Schema schemaOf(byte[] file)
            throws IOException
    {
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(new SeekableByteArrayInput(file), new GenericDatumReader<>())) {
            return reader.getSchema();
        }
    }

    private static org.apache.avro.Schema withoutTrailingFields(org.apache.avro.Schema record, String... names)
    {
        List<org.apache.avro.Schema.Field> fields = record.getFields();
        int kept = fields.size() - names.length;
        assertThat(fields.subList(kept, fields.size()).stream().map(org.apache.avro.Schema.Field::name).toList()).containsExactly(names);
        List<org.apache.avro.Schema.Field> copies = new ArrayList<>();
        for (org.apache.avro.Schema.Field field : fields.subList(0, kept)) {
            copies.add(new org.apache.avro.Schema.Field(field, field.schema()));
        }
        return org.apache.avro.Schema.createRecord(record.getName(), record.getDoc(), record.getNamespace(), record.isError(), copies);
    }

    private static List<GenericRecord> avroRecords(byte[] file)
            throws IOException
    {
        List<GenericRecord> records = new ArrayList<>();
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(new SeekableByteArrayInput(file), new GenericDatumReader<>())) {
            reader.forEach(records::add);
        }
        return records;
    }

    private static List<Snapshot> snapshots(FileStoreTable table)
    {
        List<Snapshot> snapshots = new ArrayList<>();
        for (long id = 1; id <= table.snapshotManager().latestSnapshotId(); id++) {
            snapshots.add(table.snapshotManager().snapshot(id));
        }
        return snapshots;
    }

    private static List<String> manifestLists(Snapshot snapshot)
    {
        List<String> lists = new ArrayList<>(List.of(snapshot.baseManifestList(), snapshot.deltaManifestList()));
        if (snapshot.changelogManifestList() != null) {
            lists.add(snapshot.changelogManifestList());
        }
        return lists;
    }

    private Path manifestPath(FileStoreTable table, String name)
    {
        return directory.resolve("warehouse").resolve("db.db").resolve(table.name()).resolve("manifest").resolve(name);
    }

    private byte[] manifestBytes(FileStoreTable table, String name)
            throws IOException
    {
        return Files.readAllBytes(manifestPath(table, name));
    }

    private static org.apache.paimon.data.BinaryRow paimonPartition(String dt)
    {
        org.apache.paimon.data.BinaryRow row = new org.apache.paimon.data.BinaryRow(1);
        BinaryRowWriter writer = new BinaryRowWriter(row);
        writer.writeString(0, BinaryString.fromString(dt));
        writer.complete();
        return row;
    }

    // Apache Paimon's objects converted field by field into Tarn's

    private static BinaryRow row(org.apache.paimon.data.BinaryRow row)
    {
        return BinaryRow.of(row.getFieldCount(), row.toBytes());
    }

    private static SimpleStats stats(org.apache.paimon.stats.SimpleStats stats)
    {
        List<Long> nullCounts = new ArrayList<>();
        for (int i = 0; i < stats.nullCounts().size(); i++) {
            nullCounts.add(stats.nullCounts().isNullAt(i) ? null : stats.nullCounts().getLong(i));
        }
        return new SimpleStats(row(stats.minValues()), row(stats.maxValues()), nullCounts);
    }

    private static OptionalInt optionalInt(Integer value)
    {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    private static OptionalLong optionalLong(Long value)
    {
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    private static ManifestFileMeta manifestFileMeta(org.apache.paimon.manifest.ManifestFileMeta meta)
    {
        return new ManifestFileMeta(meta.fileName(), meta.fileSize(), meta.numAddedFiles(), meta.numDeletedFiles(), stats(meta.partitionStats()), meta.schemaId(),
                optionalInt(meta.minBucket()), optionalInt(meta.maxBucket()), optionalInt(meta.minLevel()), optionalInt(meta.maxLevel()));
    }

    private static ManifestEntry manifestEntry(org.apache.paimon.manifest.ManifestEntry entry)
    {
        org.apache.paimon.io.DataFileMeta file = entry.file();
        DataFileMeta meta = new DataFileMeta(
                file.fileName(),
                file.fileSize(),
                file.rowCount(),
                row(file.minKey()),
                row(file.maxKey()),
                stats(file.keyStats()),
                stats(file.valueStats()),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                file.schemaId(),
                file.level(),
                file.extraFiles(),
                file.creationTime() == null ? OptionalLong.empty() : OptionalLong.of(file.creationTime().getMillisecond()),
                optionalLong(file.deleteRowCount().orElse(null)),
                file.embeddedIndex(),
                file.fileSource().map(source -> OptionalInt.of(source.toByteValue())).orElse(OptionalInt.empty()),
                Optional.ofNullable(file.valueStatsCols()),
                file.externalPath(),
                optionalLong(file.firstRowId()),
                Optional.ofNullable(file.writeCols()));
        return new ManifestEntry(FileKind.fromByteValue(entry.kind().toByteValue()), row(entry.partition()), entry.bucket(), entry.totalBuckets(), meta);
    }

    private static IndexManifestEntry indexManifestEntry(org.apache.paimon.manifest.IndexManifestEntry entry)
    {
        org.apache.paimon.index.IndexFileMeta file = entry.indexFile();
        return new IndexManifestEntry(
                FileKind.fromByteValue(entry.kind().toByteValue()),
                row(entry.partition()),
                entry.bucket(),
                file.indexType(),
                file.fileName(),
                file.fileSize(),
                file.rowCount(),
                Optional.ofNullable(file.dvRanges()).map(ranges -> ranges.values().stream()
                        .map(range -> new DeletionVectorMeta(range.dataFileName(), range.offset(), range.length(), optionalLong(range.cardinality())))
                        .toList()),
                Optional.ofNullable(file.externalPath()));
    }
}
