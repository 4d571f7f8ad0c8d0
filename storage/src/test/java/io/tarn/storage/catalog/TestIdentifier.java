package io.tarn.storage.catalog;

import io.tarn.storage.InvalidNameException;
import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestIdentifier
{
    @Test
    public void testParse()
    {
        assertThat(Identifier.parse("db.table")).isEqualTo(new Identifier("db", "table"));
        assertThat(Identifier.parse("db.table").fullName()).isEqualTo("db.table");
        assertThat(Identifier.parse("my_db.t-1")).isEqualTo(new Identifier("my_db", "t-1"));
        assertThatThrownBy(() -> Identifier.parse("table"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("'table'");
    }

    @Test
    public void testInvalidNames()
    {
        for (String bad : List.of("", " ", ".", "..", "../x", "a/b", "/abs", "a\\b", "x\0y", "C:", "c:evil", "a..b")) {
            assertThatThrownBy(() -> new Identifier("db", bad))
                    .as(bad)
                    .isInstanceOf(InvalidNameException.class)
                    .hasMessageContaining("table");
            assertThatThrownBy(() -> new Identifier(bad, "t"))
                    .as(bad)
                    .isInstanceOf(InvalidNameException.class)
                    .hasMessageContaining("database");
        }
        assertThatThrownBy(() -> Identifier.parse("db../etc"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("./etc");
        assertThatThrownBy(() -> Identifier.parse("db.a/b"))
                .isInstanceOf(InvalidNameException.class)
                .hasMessageContaining("'a/b'");
    }

    @Test
    public void testDollarIsRefusedInNewNames()
    {
        // existing names with '$' stay addressable by the storage API; new ones are refused
        assertThat(new Identifier("db", "x$y").table()).isEqualTo("x$y");
        Identifier.validateNewName("table", "plain_name");
        for (String bad : List.of("x$y", "$", "t$snapshots", "a$")) {
            assertThatThrownBy(() -> Identifier.validateNewName("table", bad))
                    .as(bad)
                    .isInstanceOf(InvalidNameException.class)
                    .hasMessageStartingWith("Invalid table name '%s': '$' separates a table from its metadata tables".formatted(bad));
        }
        assertThatThrownBy(() -> Identifier.validateNewName("database", "../x")).isInstanceOf(InvalidNameException.class).hasMessageContaining("'..'");
    }
}
