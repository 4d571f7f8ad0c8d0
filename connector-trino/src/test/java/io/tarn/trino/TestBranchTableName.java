package io.tarn.trino;

import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestBranchTableName
{
    @Test
    public void testParse()
    {
        assertThat(BranchTableName.parse(new SchemaTableName("s", "t$branch_b1")))
                .contains(new BranchTableName(new SchemaTableName("s", "t"), "b1"));
        assertThat(BranchTableName.parse(new SchemaTableName("s", "t$branch_2024_q1")))
                .contains(new BranchTableName(new SchemaTableName("s", "t"), "2024_q1"));
        for (String name : List.of("t", "t$snapshots", "t$branch_b1$snapshots", "t$branch_", "$branch_b1")) {
            assertThat(BranchTableName.parse(new SchemaTableName("s", name))).as(name).isEmpty();
        }
        assertThat(BranchTableName.isBranch("t$branch_b1")).isTrue();
        assertThat(BranchTableName.isBranch("t$branch_b1$snapshots")).isFalse();
    }

    @Test
    public void testBranchNameRulesAreTheStorageRules()
    {
        // all digits would be a snapshot id to Paimon; '..' could leave the table's directory
        assertThatThrownBy(() -> BranchTableName.parse(new SchemaTableName("s", "t$branch_123")))
                .isInstanceOf(TrinoException.class)
                .hasMessage("Invalid table name s.t$branch_123: Branch name '123' is all digits, which Paimon reserves for snapshot ids")
                .satisfies(e -> assertThat(((TrinoException) e).getErrorCode()).isEqualTo(TarnErrorCode.TARN_INVALID_NAME.toErrorCode()));
        assertThatThrownBy(() -> BranchTableName.parse(new SchemaTableName("s", "t$branch_a..b")))
                .isInstanceOf(TrinoException.class)
                .hasMessageContaining("'a..b' contains a path separator, '..' or NUL");
    }
}
