package io.tarn.storage.read;

import io.tarn.testing.ReferenceLayout;
import org.testng.annotations.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reads of {@link TestTableReadAgainstPaimon}, every reference table at every version and
 * under filters, on the tables written with {@code file.format=orc}: every data file ORC.
 */
public class TestOrcTableReadAgainstPaimon
        extends TestTableReadAgainstPaimon
{
    @Override
    protected ReferenceLayout layout()
    {
        return ReferenceLayout.ORC;
    }

    @Test
    public void testEveryDataFileIsOrc()
    {
        assertThat(ReferenceDataFiles.countByFormat(warehouse()))
                .containsOnlyKeys("orc");
    }
}
