package io.tarn.storage.read;

import io.tarn.testing.ReferenceLayout;
import org.testng.annotations.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reads of {@link TestTableReadAgainstPaimon}, every reference table at every version and
 * under filters, on the tables written with {@code file.format.per.level=0:avro}: the level-0
 * files of primary-key tables (their fresh writes) Avro, compacted files and the files of append
 * tables (which have no levels) Parquet, often both formats in one table version.
 */
public class TestAvroLevel0TableReadAgainstPaimon
        extends TestTableReadAgainstPaimon
{
    @Override
    protected ReferenceLayout layout()
    {
        return ReferenceLayout.AVRO_LEVEL_0;
    }

    @Test
    public void testPrimaryKeyTablesMixAvroAndParquet()
    {
        Map<String, Long> files = ReferenceDataFiles.countByFormat(warehouse().resolve("ref.db").resolve("pk_dv"));
        assertThat(files).containsOnlyKeys("avro", "parquet");
        assertThat(ReferenceDataFiles.countByFormat(warehouse().resolve("ref.db").resolve("append_all_types")))
                .containsOnlyKeys("parquet");
    }
}
