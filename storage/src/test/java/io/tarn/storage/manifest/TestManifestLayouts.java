package io.tarn.storage.manifest;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.BinaryRowWriter;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.types.DataTypes;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Files of older Paimon releases have fewer trailing fields (and one field spelled differently);
 * they are made here by rewriting a 1.3 file under the older schema with Avro itself.
 */
public class TestManifestLayouts
{
    private static final BinaryRow PARTITION = BinaryRowWriter.encode(List.of(DataTypes.string()), List.of("2024-01-01"));
    private static final SimpleStats STATS = new SimpleStats(
            BinaryRowWriter.encode(List.of(DataTypes.integer(), DataTypes.string()), Arrays.asList(1, null)),
            BinaryRowWriter.encode(List.of(DataTypes.integer(), DataTypes.string()), Arrays.asList(9, null)),
            Arrays.asList(0L, null));

    private static final DataFileMeta FILE = new DataFileMeta(
            "data-1.parquet", 1000, 10,
            BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(1)),
            BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(9)),
            new SimpleStats(BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(1)), BinaryRowWriter.encode(List.of(DataTypes.integer()), List.of(9)), List.of(0L)),
            STATS, 0, 9, 0, 5,
            List.of("data-1.parquet.index"),
            OptionalLong.of(1_700_000_000_000L),
            OptionalLong.of(2),
            new byte[] {1, 2, 3},
            OptionalInt.of(1),
            Optional.of(List.of("id", "name")),
            Optional.of("file:/elsewhere/data-1.parquet"),
            OptionalLong.of(100),
            Optional.of(List.of("id")));

    @Test
    public void testManifestPrefixes()
            throws IOException
    {
        ManifestEntry entry = new ManifestEntry(FileKind.DELETE, PARTITION, 1, 4, FILE);
        byte[] current = ManifestFile.write(List.of(entry));
        assertThat(ManifestFile.read(current, "manifest-13")).containsExactly(entry);
        for (String compression : List.of("none", "deflate", "zstd", "snappy")) {
            assertThat(ManifestFile.read(ManifestFile.write(List.of(entry, entry), compression), "manifest-" + compression)).containsExactly(entry, entry);
        }

        // 1.0 .. 1.2: no _FIRST_ROW_ID, _WRITE_COLS
        DataFileMeta file10 = copy(FILE, 18);
        assertThat(ManifestFile.read(rewrite(current, Set.of("_FIRST_ROW_ID", "_WRITE_COLS"), Map.of()), "manifest-10"))
                .containsExactly(new ManifestEntry(FileKind.DELETE, PARTITION, 1, 4, file10));
        // 0.9: no _VALUE_STATS_COLS, _EXTERNAL_PATH either
        assertThat(ManifestFile.read(rewrite(current, Set.of("_VALUE_STATS_COLS", "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS"), Map.of()), "manifest-09"))
                .containsExactly(new ManifestEntry(FileKind.DELETE, PARTITION, 1, 4, copy(FILE, 16)));
        // 0.8: no _FILE_SOURCE either
        Set<String> missingBefore09 = Set.of("_FILE_SOURCE", "_VALUE_STATS_COLS", "_EXTERNAL_PATH", "_FIRST_ROW_ID", "_WRITE_COLS");
        assertThat(ManifestFile.read(rewrite(current, missingBefore09, Map.of()), "manifest-08"))
                .containsExactly(new ManifestEntry(FileKind.DELETE, PARTITION, 1, 4, copy(FILE, 15)));
        // a field from the future may change what the entry means: refused, not skipped
        assertThatThrownBy(() -> ManifestFile.read(rewrite(current, missingBefore09, Map.of(), true), "manifest-future"))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("manifest-future")
                .hasMessageContaining("_FROM_THE_FUTURE");
    }

    @Test
    public void testManifestListBefore11()
            throws IOException
    {
        ManifestFileMeta meta = new ManifestFileMeta("manifest-1", 2000, 3, 1, STATS, 2, OptionalInt.of(0), OptionalInt.of(3), OptionalInt.of(0), OptionalInt.of(5));
        byte[] current = ManifestListFile.write(List.of(meta));
        assertThat(ManifestListFile.read(current, "list-13")).containsExactly(meta);
        assertThat(ManifestListFile.read(rewrite(current, Set.of("_MIN_BUCKET", "_MAX_BUCKET", "_MIN_LEVEL", "_MAX_LEVEL"), Map.of()), "list-10"))
                .containsExactly(new ManifestFileMeta("manifest-1", 2000, 3, 1, STATS, 2, OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty()));
    }

    @Test
    public void testIndexManifestLegacySpelling()
            throws IOException
    {
        IndexManifestEntry entry = new IndexManifestEntry(FileKind.ADD, PARTITION, 0, IndexManifestEntry.DELETION_VECTORS_INDEX, "index-1", 300, 2,
                Optional.of(List.of(new DeletionVectorMeta("data-1.parquet", 1, 20, OptionalLong.of(3)), new DeletionVectorMeta("data-2.parquet", 21, 30, OptionalLong.of(4)))),
                Optional.of("file:/elsewhere/index-1"));
        IndexManifestEntry hash = new IndexManifestEntry(FileKind.ADD, PARTITION, 1, IndexManifestEntry.HASH_INDEX, "index-2", 40, 10, Optional.empty(), Optional.empty());
        byte[] current = IndexManifestFile.write(List.of(entry, hash));
        assertThat(IndexManifestFile.read(current, "index-13")).containsExactly(entry, hash);

        // before 1.0: _DELETION_VECTORS_RANGES, no _EXTERNAL_PATH; 0.8 also lacks _CARDINALITY
        byte[] legacy = rewrite(current, Set.of("_EXTERNAL_PATH", "_CARDINALITY"), Map.of("_DELETIONS_VECTORS_RANGES", "_DELETION_VECTORS_RANGES"));
        assertThat(IndexManifestFile.read(legacy, "index-08")).containsExactly(
                new IndexManifestEntry(FileKind.ADD, PARTITION, 0, IndexManifestEntry.DELETION_VECTORS_INDEX, "index-1", 300, 2,
                        Optional.of(List.of(new DeletionVectorMeta("data-1.parquet", 1, 20, OptionalLong.empty()), new DeletionVectorMeta("data-2.parquet", 21, 30, OptionalLong.empty()))),
                        Optional.empty()),
                hash);
    }

    @Test
    public void testArraysCompareByContent()
    {
        byte[] index = {1, 2, 3};
        DataFileMeta file = copy(FILE, 20);
        DataFileMeta withOwnArray = new DataFileMeta(file.fileName(), file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(),
                file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTime(), file.deleteRowCount(),
                index, file.fileSource(), file.valueStatsCols(), file.externalPath(), file.firstRowId(), file.writeCols());
        index[0] = 9;
        assertThat(withOwnArray).isEqualTo(FILE);
        assertThat(withOwnArray.hashCode()).isEqualTo(FILE.hashCode());
        withOwnArray.embeddedIndex()[1] = 9;
        assertThat(withOwnArray.embeddedIndex()).containsExactly(1, 2, 3);

        ManifestEntry add = new ManifestEntry(FileKind.ADD, PARTITION, 1, 4, FILE);
        ManifestEntry delete = new ManifestEntry(FileKind.DELETE, BinaryRow.fromSerialized(PARTITION.toSerialized()), 1, 2, withOwnArray);
        assertThat(delete.identifier()).isEqualTo(add.identifier());
        assertThat(delete.identifier().hashCode()).isEqualTo(add.identifier().hashCode());
        assertThat(new ManifestEntry(FileKind.ADD, PARTITION, 1, 4, FILE.withLevel(4)).identifier()).isNotEqualTo(add.identifier());
        assertThat(new ManifestEntry(FileKind.ADD, PARTITION, 2, 4, FILE).identifier()).isNotEqualTo(add.identifier());
    }

    /** {@code FILE} as a reader sees it in a file that has only its first {@code fields} fields. */
    private static DataFileMeta copy(DataFileMeta file, int fields)
    {
        return new DataFileMeta(file.fileName(), file.fileSize(), file.rowCount(), file.minKey(), file.maxKey(), file.keyStats(), file.valueStats(),
                file.minSequenceNumber(), file.maxSequenceNumber(), file.schemaId(), file.level(), file.extraFiles(), file.creationTime(), file.deleteRowCount(),
                file.embeddedIndex(),
                fields > 15 ? file.fileSource() : OptionalInt.empty(),
                fields > 16 ? file.valueStatsCols() : Optional.empty(),
                fields > 17 ? file.externalPath() : Optional.empty(),
                fields > 18 ? file.firstRowId() : OptionalLong.empty(),
                fields > 19 ? file.writeCols() : Optional.empty());
    }

    private static byte[] rewrite(byte[] file, Set<String> drop, Map<String, String> rename)
            throws IOException
    {
        return rewrite(file, drop, rename, false);
    }

    /** Rewrites an Avro file under its schema with fields dropped or renamed (at any depth), and optionally an extra trailing field. */
    private static byte[] rewrite(byte[] file, Set<String> drop, Map<String, String> rename, boolean extraField)
            throws IOException
    {
        List<GenericRecord> records = new ArrayList<>();
        Schema schema;
        try (DataFileReader<GenericRecord> reader = new DataFileReader<>(new SeekableByteArrayInput(file), new GenericDatumReader<>())) {
            schema = reader.getSchema();
            reader.forEach(records::add);
        }
        Schema newSchema = reshape(schema, drop, rename, extraField);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>(newSchema))) {
            writer.create(newSchema, out);
            for (GenericRecord record : records) {
                writer.append(convert(record, newSchema));
            }
        }
        return out.toByteArray();
    }

    private static Schema reshape(Schema schema, Set<String> drop, Map<String, String> rename, boolean extraField)
    {
        switch (schema.getType()) {
            case RECORD -> {
                List<Schema.Field> fields = new ArrayList<>();
                for (Schema.Field field : schema.getFields()) {
                    if (!drop.contains(field.name())) {
                        fields.add(new Schema.Field(rename.getOrDefault(field.name(), field.name()), reshape(field.schema(), drop, rename, false), field.doc(), field.defaultVal()));
                    }
                }
                if (extraField) {
                    fields.add(new Schema.Field("_FROM_THE_FUTURE", Schema.create(Schema.Type.STRING), null, null));
                }
                return Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), false, fields);
            }
            case UNION -> {
                return Schema.createUnion(schema.getTypes().stream().map(type -> reshape(type, drop, rename, false)).toList());
            }
            case ARRAY -> {
                return Schema.createArray(reshape(schema.getElementType(), drop, rename, false));
            }
            default -> {
                return schema;
            }
        }
    }

    private static Object convert(Object value, Schema schema)
    {
        if (value == null) {
            return null;
        }
        if (schema.getType() == Schema.Type.UNION) {
            Schema branch = schema.getTypes().get(1);
            return convert(value, branch);
        }
        if (schema.getType() == Schema.Type.ARRAY) {
            return ((List<?>) value).stream().map(item -> convert(item, schema.getElementType())).toList();
        }
        if (schema.getType() == Schema.Type.RECORD) {
            GenericRecord source = (GenericRecord) value;
            GenericData.Record target = new GenericData.Record(schema);
            for (Schema.Field field : schema.getFields()) {
                Schema.Field sourceField = source.getSchema().getField(field.name());
                if (sourceField == null) {
                    sourceField = source.getSchema().getField("_DELETIONS_VECTORS_RANGES");
                }
                target.put(field.pos(), sourceField == null ? "future value" : convert(source.get(sourceField.pos()), field.schema()));
            }
            return target;
        }
        return value;
    }
}
