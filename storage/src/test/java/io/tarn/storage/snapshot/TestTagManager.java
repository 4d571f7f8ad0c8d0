package io.tarn.storage.snapshot;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.fs.LocalFileIO;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataTypes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tags that Apache Paimon creates, listed and deleted by Tarn, with Paimon's view of them after.
 */
public class TestTagManager
{
    private PaimonTables paimon;
    private FileStoreTable table;
    private TagManager tags;

    @BeforeClass
    public void setUp()
            throws Exception
    {
        paimon = new PaimonTables();
        table = paimon.create("tagged", Schema.newBuilder().column("a", DataTypes.INT()).build());
        paimon.write(table, GenericRow.of(1));
        paimon.write(table, GenericRow.of(2));
        table.createTag("kept", 1);
        table.createTag("dropped", 2);
        tags = new TagManager(new LocalFileIO(), table.location().toUri().getPath(), "main");
    }

    @AfterClass(alwaysRun = true)
    public void tearDown()
            throws Exception
    {
        paimon.close();
    }

    @Test
    public void testDeleteTag()
            throws Exception
    {
        assertThat(tags.tagNames()).containsExactly("dropped", "kept");
        assertThat(tags.deleteTag("dropped")).isTrue();
        assertThat(tags.tagNames()).containsExactly("kept");
        assertThat(table.tagManager().tagExists("dropped")).isFalse();
        assertThat(table.tagManager().tagExists("kept")).isTrue();
        assertThat(tags.tag("kept").orElseThrow().snapshot().id()).isEqualTo(1);
        // a second delete finds nothing
        assertThat(tags.deleteTag("dropped")).isFalse();
        assertThatThrownBy(() -> tags.deleteTag("../kept")).isInstanceOf(InvalidNameException.class);
        assertThat(table.tagManager().tagExists("kept")).isTrue();
    }
}
