package io.tarn.storage.schema;

import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.tarn.storage.schema.TestSchemaJson.assertSameSchema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSchemaManager
{
    private final LocalFileIO fileIO = new LocalFileIO();
    private PaimonTables paimon;

    @BeforeClass
    public void setUp()
    {
        paimon = new PaimonTables();
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testPaimonSchemas()
            throws Exception
    {
        FileStoreTable table = paimon.create("evolved", Schema.newBuilder()
                .column("a", org.apache.paimon.types.DataTypes.INT())
                .column("b", org.apache.paimon.types.DataTypes.STRING())
                .build());
        Identifier identifier = Identifier.create("db", "evolved");
        paimon.catalog().alterTable(identifier, List.of(SchemaChange.addColumn("c", org.apache.paimon.types.DataTypes.DOUBLE())), false);
        paimon.catalog().alterTable(identifier, List.of(SchemaChange.renameColumn("b", "b2")), false);
        table = paimon.table("evolved");

        SchemaManager schemas = new SchemaManager(fileIO, table.location().toUri().getPath(), "main");
        assertThat(schemas.listIds()).containsExactly(0L, 1L, 2L);
        for (long id : schemas.listIds()) {
            assertSameSchema(schemas.schema(id), table.schemaManager().schema(id));
        }
        assertSameSchema(schemas.latest().orElseThrow(), table.schemaManager().latest().orElseThrow());
        // the rename kept the field id
        assertThat(schemas.schema(2).fields().get(1).id()).isEqualTo(schemas.schema(0).fields().get(1).id());
        assertThat(schemas.schema(2).fields().get(1).name()).isEqualTo("b2");

        assertThatThrownBy(() -> schemas.schema(9))
                .isInstanceOf(MissingFileException.class)
                .hasMessageContaining("Schema 9")
                .hasMessageContaining(schemas.schemaPath(9))
                .hasMessageContaining("[0, 1, 2]");
    }

    @Test
    public void testCommitReadByPaimon()
            throws Exception
    {
        FileStoreTable table = paimon.create("ours", Schema.newBuilder()
                .column("a", org.apache.paimon.types.DataTypes.INT())
                .build());
        SchemaManager schemas = new SchemaManager(fileIO, table.location().toUri().getPath(), "main");
        TableSchema current = schemas.latest().orElseThrow();
        List<DataField> fields = new ArrayList<>(current.fields());
        fields.add(new DataField(1, "added", DataTypes.decimal(12, 3).withNullable(false)));
        Map<String, String> options = new LinkedHashMap<>(current.options());
        options.put("snapshot.num-retained.min", "5");
        TableSchema next = new TableSchema(3, 1, fields, 1, List.of(), List.of(), options, current.comment(), current.timeMillis() + 1);

        assertThat(schemas.commit(next)).isTrue();
        assertThat(schemas.commit(next)).isFalse();
        assertSameSchema(next, table.schemaManager().latest().orElseThrow());
        assertThat(paimon.table("ours").schema().fieldNames()).containsExactly("a", "added");
    }

    @Test
    public void testNoSchemas()
            throws Exception
    {
        SchemaManager schemas = new SchemaManager(fileIO, paimon.warehouse() + "/db.db/missing", "main");
        assertThat(schemas.listIds()).isEmpty();
        assertThat(schemas.latest()).isEmpty();
        assertThatThrownBy(() -> schemas.schema(0))
                .isInstanceOf(MissingFileException.class)
                .hasMessageContaining("db.db/missing");
    }
}
