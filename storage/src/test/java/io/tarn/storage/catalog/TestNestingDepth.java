package io.tarn.storage.catalog;

import io.tarn.storage.UnsupportedTableFeatureException;
import io.tarn.types.ArrayType;
import io.tarn.types.DataField;
import io.tarn.types.DataType;
import io.tarn.types.DataTypes;
import io.tarn.types.MapType;
import io.tarn.types.MultisetType;
import io.tarn.types.RowType;
import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestNestingDepth
{
    @Test
    public void testDepthFollowsTheParquetLayout()
    {
        assertThat(NestingDepth.of(DataTypes.integer())).isEqualTo(1);
        // optional group a (LIST) { repeated group list { optional int32 element } }
        assertThat(NestingDepth.of(new ArrayType(DataTypes.integer(), true))).isEqualTo(3);
        // optional group m (MAP) { repeated group key_value { required key; optional value } }
        assertThat(NestingDepth.of(new MapType(DataTypes.integer(), DataTypes.string(), true))).isEqualTo(3);
        assertThat(NestingDepth.of(new MultisetType(DataTypes.string(), true))).isEqualTo(3);
        assertThat(NestingDepth.of(RowType.of(List.of(new DataField(0, "x", DataTypes.integer()), new DataField(1, "y", new ArrayType(DataTypes.integer(), true))))))
                .isEqualTo(4);
        assertThat(NestingDepth.of(arrays(31, DataTypes.integer()))).isEqualTo(63);
    }

    @Test
    public void testColumnsDeeperThanTheReaderReadsAreRefused()
            throws Exception
    {
        NestingDepth.check("db.t", List.of(new DataField(0, "a", arrays(31, DataTypes.integer()))));
        NestingDepth.check("db.t", List.of(new DataField(0, "a", arrays(31, RowType.of(List.of(new DataField(1, "x", DataTypes.integer())))))));
        assertThatThrownBy(() -> NestingDepth.check("db.t", List.of(new DataField(0, "ok", DataTypes.integer()), new DataField(1, "a", arrays(32, DataTypes.integer())))))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Table db.t: column 'a' of type ")
                .hasMessageContaining("nests 65 levels deep in Parquet; at most 64 levels can be read back");
        assertThatThrownBy(() -> NestingDepth.check("db.t", List.of(new DataField(0, "m", new MapType(DataTypes.integer(), arrays(31, DataTypes.integer()), true)))))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("column 'm'");
    }

    private static DataType arrays(int depth, DataType element)
    {
        DataType type = element;
        for (int i = 0; i < depth; i++) {
            type = new ArrayType(type, true);
        }
        return type;
    }
}
