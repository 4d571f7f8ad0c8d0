package io.tarn.trino;

import io.tarn.storage.CorruptFileException;
import io.trino.spi.TrinoException;
import org.testng.annotations.Test;

import java.io.IOException;
import java.io.UncheckedIOException;

import static io.tarn.trino.TarnErrorCode.TARN_CORRUPT_FILE;
import static io.tarn.trino.TarnErrorCode.TARN_FILESYSTEM_ERROR;
import static io.tarn.trino.TarnErrorCode.TARN_INVALID_METADATA;
import static io.trino.spi.ErrorType.INTERNAL_ERROR;
import static io.trino.spi.StandardErrorCode.GENERIC_INTERNAL_ERROR;
import static org.assertj.core.api.Assertions.assertThat;

public class TestTarnExceptions
{
    @Test
    public void testTableNamedOnceAndCauseKept()
    {
        CorruptFileException corrupt = new CorruptFileException("Table db.t: data file f.parquet has a bad footer");
        TrinoException translated = TarnExceptions.translate("Cannot read table db.t at snapshot 3", corrupt);
        assertThat(translated.getMessage()).isEqualTo("Cannot read table db.t at snapshot 3: data file f.parquet has a bad footer");
        assertThat(translated.getErrorCode()).isEqualTo(TARN_CORRUPT_FILE.toErrorCode());
        assertThat(translated.getCause()).isSameAs(corrupt);
    }

    @Test
    public void testOtherTableStaysNamed()
    {
        // db.t is a prefix of db.tt: the context does not name the table of the message
        TrinoException translated = TarnExceptions.translate("Cannot read table db.tt", new CorruptFileException("Table db.t: data file f.parquet is truncated"));
        assertThat(translated.getMessage()).isEqualTo("Cannot read table db.tt: Table db.t: data file f.parquet is truncated");
    }

    @Test
    public void testUncheckedIoUnwrapped()
    {
        IOException io = new IOException("disk gone");
        TrinoException translated = TarnExceptions.translate("Cannot write table db.t", new UncheckedIOException(io));
        assertThat(translated.getErrorCode()).isEqualTo(TARN_FILESYSTEM_ERROR.toErrorCode());
        assertThat(translated.getCause()).isSameAs(io);
    }

    @Test
    public void testRefusedMetadata()
    {
        TrinoException translated = TarnExceptions.translate("Cannot plan table db.t", new IllegalArgumentException("Table db.t has an unknown merge-engine: foo"));
        assertThat(translated.getErrorCode()).isEqualTo(TARN_INVALID_METADATA.toErrorCode());
        assertThat(translated.getMessage()).isEqualTo("Cannot plan table db.t: Table db.t has an unknown merge-engine: foo");
    }

    @Test
    public void testBugsAreInternalErrors()
    {
        TrinoException translated = TarnExceptions.translate("Cannot plan table db.t", new IllegalStateException("no batch"));
        assertThat(translated.getErrorCode()).isEqualTo(GENERIC_INTERNAL_ERROR.toErrorCode());
        assertThat(translated.getErrorCode().getType()).isEqualTo(INTERNAL_ERROR);
        assertThat(translated.getMessage()).isEqualTo("Cannot plan table db.t: no batch");
    }
}
