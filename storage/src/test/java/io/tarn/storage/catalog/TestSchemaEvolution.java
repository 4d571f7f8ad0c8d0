package io.tarn.storage.catalog;

import io.tarn.storage.ColumnAlreadyExistsException;
import io.tarn.storage.ColumnNotFoundException;
import io.tarn.storage.TableNotEmptyException;
import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.storage.schema.TableSchema;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
import io.tarn.types.RowType;
import org.testng.annotations.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each change applied to a schema on its own: ids, positions, refusals. The same changes are
 * checked against Apache Paimon's own schema evolution in {@link TestSchemaChangeCommit}.
 */
public class TestSchemaEvolution
{
    private static final String TABLE = "db.t";

    // a INT (id 0), p STRING (id 1, partition key), k BIGINT (id 2, bucket key); id 3 was dropped before
    private static final TableSchema SCHEMA = new TableSchema(TableSchema.CURRENT_VERSION, 4,
            List.of(new DataField(0, "a", DataTypes.integer()), new DataField(1, "p", DataTypes.string()), new DataField(2, "k", DataTypes.bigint(), Optional.of("key"), Optional.empty())),
            3, List.of("p"), List.of(), Map.of(TableSchema.BUCKET_OPTION, "2", TableSchema.BUCKET_KEY_OPTION, "k"), Optional.of("table comment"), 1);

    @Test
    public void testAddColumnAtPositions()
            throws Exception
    {
        TableSchema next = apply(
                new SchemaChange.AddColumn("last", DataTypes.doubleType(), Optional.of("at the end"), ColumnPosition.last()),
                new SchemaChange.AddColumn("first", DataTypes.integer(), Optional.empty(), ColumnPosition.first()),
                new SchemaChange.AddColumn("second", DataTypes.string(), Optional.empty(), ColumnPosition.after("first")),
                new SchemaChange.AddColumn("after_a", DataTypes.bigint(), Optional.empty(), ColumnPosition.after("a")));
        assertThat(next.fieldNames()).containsExactly("first", "second", "a", "after_a", "p", "k", "last");
        // new ids follow the highest id ever given, in the order of the changes; none is reused
        assertThat(next.fields().stream().map(DataField::id).toList()).containsExactly(5, 6, 0, 7, 1, 2, 4);
        assertThat(next.highestFieldId()).isEqualTo(7);
        assertThat(next.fields().get(6)).isEqualTo(new DataField(4, "last", DataTypes.doubleType(), Optional.of("at the end"), Optional.empty()));
        // the rest of the schema is carried over into the next id
        assertThat(next.id()).isEqualTo(5);
        assertThat(next.partitionKeys()).isEqualTo(SCHEMA.partitionKeys());
        assertThat(next.options()).isEqualTo(SCHEMA.options());
        assertThat(next.comment()).isEqualTo(SCHEMA.comment());
        assertThat(next.fields().get(5)).isEqualTo(SCHEMA.fields().get(2));
    }

    @Test
    public void testAddNestedColumnTakesFreshIds()
            throws Exception
    {
        // ids given by the caller are ignored: the column takes 4, then each nested field an id
        // after those of the fields nested in it, as Paimon numbers them
        DataType inner = RowType.of(List.of(new DataField(99, "z", DataTypes.integer())));
        DataType type = RowType.of(List.of(
                new DataField(99, "x", DataTypes.integer()),
                new DataField(99, "y", new ArrayType(inner, true)),
                new DataField(99, "m", new MapType(DataTypes.string().withNullable(false), inner, true))));
        TableSchema next = apply(new SchemaChange.AddColumn("n", type, Optional.empty(), ColumnPosition.last()));
        DataType expectedInnerOfY = RowType.of(List.of(new DataField(6, "z", DataTypes.integer())));
        DataType expectedInnerOfM = RowType.of(List.of(new DataField(8, "z", DataTypes.integer())));
        assertThat(next.fields().get(3)).isEqualTo(new DataField(4, "n", RowType.of(List.of(
                new DataField(5, "x", DataTypes.integer()),
                new DataField(7, "y", new ArrayType(expectedInnerOfY, true)),
                new DataField(9, "m", new MapType(DataTypes.string().withNullable(false), expectedInnerOfM, true))))));
        assertThat(next.highestFieldId()).isEqualTo(9);
    }

    @Test
    public void testAddColumnRefusals()
    {
        assertThatThrownBy(() -> apply(new SchemaChange.AddColumn("a", DataTypes.integer(), Optional.empty(), ColumnPosition.last())))
                .isInstanceOf(ColumnAlreadyExistsException.class)
                .hasMessage("Table db.t already has a column 'a'");
        assertThatThrownBy(() -> apply(new SchemaChange.AddColumn("b", DataTypes.integer(), Optional.empty(), ColumnPosition.after("nothing"))))
                .isInstanceOf(ColumnNotFoundException.class)
                .hasMessage("Table db.t has no column 'nothing' to add a column after");
        assertThatThrownBy(() -> new SchemaChange.AddColumn("", DataTypes.integer(), Optional.empty(), ColumnPosition.last()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void testAddNotNullColumnNeedsEmptyTable()
            throws Exception
    {
        SchemaChange notNull = new SchemaChange.AddColumn("b", DataTypes.integer().withNullable(false), Optional.empty(), ColumnPosition.last());
        assertThat(SchemaEvolution.needsEmptyTable(notNull)).isTrue();
        assertThat(SchemaEvolution.needsEmptyTable(new SchemaChange.AddColumn("b", DataTypes.integer(), Optional.empty(), ColumnPosition.last()))).isFalse();
        assertThat(SchemaEvolution.needsEmptyTable(new SchemaChange.DropColumn("a"))).isFalse();

        TableSchema next = SchemaEvolution.apply(TABLE, SCHEMA, List.of(notNull), true);
        assertThat(next.fields().get(3).type().nullable()).isFalse();
        assertThatThrownBy(() -> SchemaEvolution.apply(TABLE, SCHEMA, List.of(notNull), false))
                .isInstanceOf(TableNotEmptyException.class)
                .hasMessage("Unable to add NOT NULL column 'b' for non-empty table: db.t");
    }

    @Test
    public void testRenameColumn()
            throws Exception
    {
        TableSchema next = apply(new SchemaChange.RenameColumn("a", "a2"));
        // the field id, type and comment stay: files written before still hold the column
        assertThat(next.fields().get(0)).isEqualTo(new DataField(0, "a2", DataTypes.integer()));
        assertThat(next.highestFieldId()).isEqualTo(SCHEMA.highestFieldId());

        assertThatThrownBy(() -> apply(new SchemaChange.RenameColumn("a", "p")))
                .isInstanceOf(ColumnAlreadyExistsException.class)
                .hasMessage("Table db.t already has a column 'p'");
        assertThatThrownBy(() -> apply(new SchemaChange.RenameColumn("nothing", "b")))
                .isInstanceOf(ColumnNotFoundException.class)
                .hasMessage("Table db.t has no column 'nothing'");
        assertThatThrownBy(() -> apply(new SchemaChange.RenameColumn("p", "p2")))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot rename column 'p' of table db.t: it is a partition, primary or bucket key");
        assertThatThrownBy(() -> apply(new SchemaChange.RenameColumn("k", "k2")))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("bucket key");
    }

    @Test
    public void testDropColumn()
            throws Exception
    {
        TableSchema next = apply(new SchemaChange.DropColumn("a"));
        assertThat(next.fieldNames()).containsExactly("p", "k");
        // the id of the dropped column is never given again
        assertThat(next.highestFieldId()).isEqualTo(SCHEMA.highestFieldId());

        assertThatThrownBy(() -> apply(new SchemaChange.DropColumn("nothing")))
                .isInstanceOf(ColumnNotFoundException.class)
                .hasMessage("Table db.t has no column 'nothing'");
        assertThatThrownBy(() -> apply(new SchemaChange.DropColumn("k")))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot drop column 'k' of table db.t: it is a partition, primary or bucket key");
        TableSchema single = new TableSchema(TableSchema.CURRENT_VERSION, 0, List.of(new DataField(0, "a", DataTypes.integer())), 0, List.of(), List.of(), Map.of(), Optional.empty(), 1);
        assertThatThrownBy(() -> SchemaEvolution.apply(TABLE, single, List.of(new SchemaChange.DropColumn("a")), true))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot drop the only column of table db.t");
    }

    @Test
    public void testChangesApplyInOrder()
            throws Exception
    {
        // each change sees the schema the ones before it left
        TableSchema next = apply(
                new SchemaChange.AddColumn("b", DataTypes.integer(), Optional.empty(), ColumnPosition.after("a")),
                new SchemaChange.DropColumn("a"),
                new SchemaChange.RenameColumn("b", "a"),
                new SchemaChange.AddColumn("c", DataTypes.integer(), Optional.empty(), ColumnPosition.after("a")));
        assertThat(next.fields()).containsExactly(
                new DataField(4, "a", DataTypes.integer()),
                new DataField(5, "c", DataTypes.integer()),
                SCHEMA.fields().get(1),
                SCHEMA.fields().get(2));
        assertThatThrownBy(() -> apply(new SchemaChange.DropColumn("a"), new SchemaChange.RenameColumn("a", "b")))
                .isInstanceOf(ColumnNotFoundException.class);
    }

    private static TableSchema apply(SchemaChange... changes)
            throws Exception
    {
        return SchemaEvolution.apply(TABLE, SCHEMA, List.of(changes), true);
    }
}
