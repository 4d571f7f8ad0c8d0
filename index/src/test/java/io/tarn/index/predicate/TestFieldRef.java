package io.tarn.index.predicate;

import io.tarn.types.DataField;
import io.tarn.types.DataTypes;
import org.testng.annotations.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestFieldRef
{
    @Test
    public void testFromDataField()
    {
        FieldRef field = FieldRef.of(new DataField(7, "price", DataTypes.decimal(10, 2)));
        assertThat(field).isEqualTo(new FieldRef(7, "price", DataTypes.decimal(10, 2)));
        assertThat(field.toString()).isEqualTo("price#7 DECIMAL(10, 2)");
        assertThatThrownBy(() -> new FieldRef(1, null, DataTypes.integer()))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("name is null");
    }
}
