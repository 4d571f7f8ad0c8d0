package io.tarn.types;

import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

public class TestDataType
{
    private static final DataType VARIANT = DataTypes.of(TypeRoot.VARIANT);

    @Test
    public void testContainsFindsARootAtAnyDepth()
    {
        assertThat(VARIANT.contains(TypeRoot.VARIANT)).isTrue();
        assertThat(DataTypes.bigint().contains(TypeRoot.VARIANT)).isFalse();
        assertThat(new ArrayType(VARIANT, true).contains(TypeRoot.VARIANT)).isTrue();
        assertThat(new MultisetType(VARIANT, true).contains(TypeRoot.VARIANT)).isTrue();
        assertThat(new MapType(DataTypes.string(), VARIANT, true).contains(TypeRoot.VARIANT)).isTrue();
        assertThat(new MapType(VARIANT, DataTypes.string(), true).contains(TypeRoot.VARIANT)).isTrue();
        RowType nested = RowType.of(List.of(
                new DataField(1, "a", DataTypes.integer()),
                new DataField(2, "b", new ArrayType(RowType.of(List.of(new DataField(3, "c", VARIANT))), true))));
        assertThat(nested.contains(TypeRoot.VARIANT)).isTrue();
        RowType plain = RowType.of(List.of(new DataField(1, "a", DataTypes.integer()), new DataField(2, "m", new MapType(DataTypes.string(), DataTypes.date(), true))));
        assertThat(plain.contains(TypeRoot.VARIANT)).isFalse();
        // a composite root counts too, not only the leaves
        assertThat(plain.contains(TypeRoot.MAP)).isTrue();
        assertThat(plain.contains(TypeRoot.ROW)).isTrue();
        assertThat(plain.contains(TypeRoot.ARRAY)).isFalse();
    }
}
