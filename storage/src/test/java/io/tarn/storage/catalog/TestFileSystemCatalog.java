package io.tarn.storage.catalog;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.DatabaseNotEmptyException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.TableNotFoundException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.PaimonTables;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import org.apache.paimon.schema.Schema;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestFileSystemCatalog
{
    private PaimonTables paimon;
    private FileSystemCatalog catalog;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        paimon.catalog().createDatabase("other", false);
        for (String name : List.of("t1", "t2")) {
            paimon.create(name, Schema.newBuilder().column("a", org.apache.paimon.types.DataTypes.INT()).build());
        }
        // a directory that is not a table: no schema file
        Files.createDirectories(Path.of(paimon.warehouse(), "db.db", "not_a_table", "schema"));
        // names as other Paimon tools store them: upper case, and names differing only in case
        paimon.catalog().createDatabase("UPPER", false);
        paimon.catalog().createDatabase("Dup", false);
        paimon.catalog().createDatabase("dup", false);
        for (String name : List.of("UPPER.OnlyUpper", "db.MixedCase", "db.mixedcase")) {
            paimon.catalog().createTable(org.apache.paimon.catalog.Identifier.fromString(name), Schema.newBuilder().column("a", org.apache.paimon.types.DataTypes.INT()).build(), false);
        }
        catalog = new FileSystemCatalog(new LocalFileIO(), paimon.warehouse() + "/");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testListing()
            throws Exception
    {
        assertThat(catalog.listDatabases()).isEqualTo(paimon.catalog().listDatabases().stream().sorted().toList());
        assertThat(catalog.listTables("db")).isEqualTo(paimon.catalog().listTables("db").stream().sorted().toList());
        assertThat(catalog.listTables("db")).contains("t1", "t2").doesNotContain("not_a_table");
        assertThat(catalog.listTables("other")).isEmpty();
        assertThat(catalog.listTables("nonexistent")).isEmpty();
        assertThat(catalog.tablePath(new Identifier("db", "t1")))
                .isEqualTo(paimon.table("t1").location().toUri().getPath());
    }

    @Test
    public void testUnknownTable()
    {
        assertThatThrownBy(() -> catalog.tablePath(Identifier.parse("db.nope")))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("db.nope")
                .hasMessageContaining(paimon.warehouse());
        assertThatThrownBy(() -> catalog.tablePath(Identifier.parse("db.not_a_table")))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("db.not_a_table");
        assertThatThrownBy(() -> catalog.tablePath(Identifier.parse("nodb.t1")))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("nodb.t1");
    }

    @Test
    public void testNamesCannotEscapeWarehouse()
    {
        assertThatThrownBy(() -> catalog.listTables("../db"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("'../db'");
        assertThatThrownBy(() -> catalog.tablePath(Identifier.parse("db...")))
                .isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> catalog.tablePath(Identifier.parse("db.t1/../t2")))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("'t1/../t2'");
        assertThatThrownBy(() -> catalog.createDatabase("a/b"))
                .isInstanceOf(InvalidNameException.class);
    }

    @Test
    public void testCreateTableReadByPaimon()
            throws Exception
    {
        catalog.createDatabase("created");
        assertThat(paimon.catalog().listDatabases()).contains("created");
        TableSchema schema = new TableSchema(3, 7,
                List.of(new DataField(0, "k", DataTypes.bigint().withNullable(false)), new DataField(1, "v", DataTypes.string(), Optional.of("value"), Optional.empty())),
                1, List.of(), List.of("k"), Map.of("bucket", "1"), Optional.of("made by tarn"), 1_795_000_000_000L);
        Identifier identifier = new Identifier("created", "tbl");
        TableSchema written = catalog.createTable(identifier, schema);
        assertThat(written.id()).isZero();

        org.apache.paimon.table.Table table = paimon.catalog().getTable(org.apache.paimon.catalog.Identifier.create("created", "tbl"));
        assertThat(table.rowType().getFieldNames()).containsExactly("k", "v");
        assertThat(table.primaryKeys()).containsExactly("k");
        assertThat(table.comment()).contains("made by tarn");
        assertThat(catalog.listTables("created")).containsExactly("tbl");

        assertThatThrownBy(() -> catalog.createTable(identifier, schema))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("created.tbl");
        assertThatThrownBy(() -> catalog.createTable(new Identifier("nodb", "x"), schema))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("'nodb'");
    }

    @Test
    public void testNamesResolveIgnoringCase()
            throws Exception
    {
        assertThat(catalog.listDatabases()).contains("UPPER", "Dup", "dup");
        assertThat(catalog.findDatabase("upper")).contains("UPPER");
        assertThat(catalog.findDatabase("UPPER")).contains("UPPER");
        assertThat(catalog.findDatabase("nodb")).isEmpty();
        assertThat(catalog.findTable(new Identifier("upper", "onlyupper"))).contains(new Identifier("UPPER", "OnlyUpper"));
        assertThat(catalog.findTable(new Identifier("db", "T1"))).contains(new Identifier("db", "t1"));
        assertThat(catalog.findTable(new Identifier("db", "nope"))).isEmpty();
        // a directory without a schema file is no candidate
        assertThat(catalog.findTable(new Identifier("db", "NOT_A_TABLE"))).isEmpty();
        assertThat(catalog.tablePath(catalog.findTable(new Identifier("upper", "onlyupper")).orElseThrow()))
                .endsWith("/UPPER.db/OnlyUpper");
    }

    @Test
    public void testNamesDifferingOnlyInCaseAreAmbiguous()
    {
        for (String table : List.of("mixedcase", "MixedCase", "MIXEDCASE")) {
            assertThatThrownBy(() -> catalog.findTable(new Identifier("db", table)))
                    .isInstanceOf(InvalidNameException.class)
                    .hasMessageContaining("Table name '%s' is ambiguous in database db".formatted(table))
                    .hasMessageContaining("'MixedCase' and 'mixedcase'");
        }
        assertThatThrownBy(() -> catalog.findDatabase("dup"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("Database name 'dup' is ambiguous")
                .hasMessageContaining("'Dup' and 'dup'");
        assertThatThrownBy(() -> catalog.findTable(new Identifier("DUP", "t")))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("'Dup' and 'dup'");
    }

    @Test
    public void testCreateRefusesWhatCouldNotBeAddressedOrReadBack()
            throws Exception
    {
        catalog.createDatabase("checked");
        List<DataField> fields = List.of(new DataField(0, "k", DataTypes.bigint()));
        assertThatThrownBy(() -> catalog.createTable(new Identifier("checked", "x$y"), schema(fields, Map.of())))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("Invalid table name 'x$y'");
        assertThatThrownBy(() -> catalog.createDatabase("a$b"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("Invalid database name 'a$b'");
        assertThatThrownBy(() -> catalog.createTable(new Identifier("checked", "escapes"), schema(fields, Map.of("data-file.path-directory", "../../elsewhere"))))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("checked.escapes")
                .hasMessageContaining("leaves the table directory");
        assertThatThrownBy(() -> catalog.createTable(new Identifier("checked", "external"), schema(fields, Map.of("data-file.external-paths", "file:/elsewhere"))))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("data-file.external-paths");
        io.tarn.types.DataType deep = DataTypes.integer();
        for (int i = 0; i < 32; i++) {
            deep = new ArrayType(deep, true);
        }
        io.tarn.types.DataType tooDeep = deep;
        assertThatThrownBy(() -> catalog.createTable(new Identifier("checked", "deep"), schema(List.of(new DataField(0, "a", tooDeep)), Map.of())))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("column 'a'")
                .hasMessageContaining("nests 65 levels deep");
        assertThat(catalog.listTables("checked")).isEmpty();
        assertThat(Path.of(paimon.warehouse(), "checked.db")).isEmptyDirectory();
        assertThat(Path.of(paimon.warehouse(), "a$b.db")).doesNotExist();

        catalog.createTable(new Identifier("checked", "inside"), schema(fields, Map.of("data-file.path-directory", "./data/")));
        assertThat(catalog.listTables("checked")).containsExactly("inside");
    }

    private static TableSchema schema(List<DataField> fields, Map<String, String> options)
    {
        return new TableSchema(3, 0, fields, fields.size() - 1, List.of(), List.of(), options, Optional.empty(), 1_795_000_000_000L);
    }

    @Test
    public void testRenameTableMovesItsDirectory()
            throws Exception
    {
        catalog.createDatabase("renames");
        catalog.createDatabase("renames_target");
        TableSchema schema = schema(List.of(new DataField(0, "k", DataTypes.bigint())), Map.of());
        catalog.createTable(new Identifier("renames", "before"), schema);
        catalog.createTable(new Identifier("renames", "taken"), schema);

        assertThatThrownBy(() -> catalog.renameTable(new Identifier("renames", "before"), new Identifier("renames", "x$y")))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("Invalid table name 'x$y'");
        assertThatThrownBy(() -> catalog.renameTable(new Identifier("renames", "before"), new Identifier("renames", "taken")))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("renames.taken already exists");
        assertThatThrownBy(() -> catalog.renameTable(new Identifier("renames", "before"), new Identifier("nodb", "t")))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("'nodb'");
        assertThat(catalog.listTables("renames")).containsExactly("before", "taken");

        catalog.renameTable(new Identifier("renames", "before"), new Identifier("renames_target", "after"));
        assertThat(catalog.listTables("renames")).containsExactly("taken");
        assertThat(catalog.listTables("renames_target")).containsExactly("after");
        org.apache.paimon.table.Table renamed = paimon.catalog().getTable(org.apache.paimon.catalog.Identifier.create("renames_target", "after"));
        assertThat(renamed.rowType().getFieldNames()).containsExactly("k");
    }

    @Test
    public void testDropDatabase()
            throws Exception
    {
        TableSchema schema = schema(List.of(new DataField(0, "k", DataTypes.bigint())), Map.of());
        catalog.createDatabase("drop_empty");
        catalog.dropDatabase("drop_empty", false);
        assertThat(catalog.databaseExists("drop_empty")).isFalse();
        assertThatThrownBy(() -> catalog.dropDatabase("drop_empty", false))
                .isInstanceOf(TableNotFoundException.class)
                .hasMessageContaining("'drop_empty' does not exist");

        catalog.createDatabase("drop_full");
        catalog.createTable(new Identifier("drop_full", "t"), schema);
        assertThatThrownBy(() -> catalog.dropDatabase("drop_full", false))
                .isInstanceOf(DatabaseNotEmptyException.class)
                .hasMessageContaining("holds tables [t]");
        assertThat(catalog.listTables("drop_full")).containsExactly("t");

        // links are deleted, not followed: what they point to outside the database stays
        Path outside = Files.createTempDirectory("tarn-outside");
        Files.writeString(outside.resolve("keep"), "keep");
        Path database = Path.of(paimon.warehouse(), "drop_full.db");
        Files.createSymbolicLink(database.resolve("link"), outside);
        Files.createSymbolicLink(database.resolve("t").resolve("link"), outside);
        Files.createDirectories(database.resolve("not_a_table"));
        catalog.dropDatabase("drop_full", true);
        assertThat(database).doesNotExist();
        assertThat(outside.resolve("keep")).hasContent("keep");
        assertThat(paimon.catalog().listDatabases()).doesNotContain("drop_full");
    }

    @Test
    public void testNamesLongerThanAFileNameAreRefused()
            throws Exception
    {
        catalog.createDatabase("d".repeat(FileSystemCatalog.MAX_DATABASE_NAME_BYTES));
        assertThatThrownBy(() -> catalog.createDatabase("d".repeat(FileSystemCatalog.MAX_DATABASE_NAME_BYTES + 1)))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("253 bytes long in UTF-8, longer than the 252 bytes a database name may have");
        catalog.createDatabase("long_names");
        TableSchema schema = schema(List.of(new DataField(0, "k", DataTypes.bigint())), Map.of());
        // 2 bytes a character in UTF-8
        String longest = "é".repeat(FileSystemCatalog.MAX_TABLE_NAME_BYTES / 2);
        catalog.createTable(new Identifier("long_names", longest), schema);
        assertThatThrownBy(() -> catalog.createTable(new Identifier("long_names", longest + "é"), schema))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("longer than the 255 bytes a table name may have");
        assertThatThrownBy(() -> catalog.renameTable(new Identifier("long_names", longest), new Identifier("long_names", "t".repeat(256))))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("256 bytes long");
        assertThat(catalog.listTables("long_names")).containsExactly(longest);
    }
}
