package io.tarn.vector.orc;

import org.testng.annotations.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ORC writer's options read from table options as Paimon 1.4 hands them to orc-core, and the
 * values Tarn refuses before writing anything.
 */
public class TestOrcWriteOptions
{
    @Test
    public void testDefaultsAreThoseOfPaimon()
    {
        OrcWriteOptions options = OrcWriteOptions.fromTableOptions(Map.of());
        // Paimon's file.compression and zstd level; orc-core's block size, stripe size and stride
        assertThat(options).isEqualTo(new OrcWriteOptions("ZSTD", 1, 256 * 1024, 64L * 1024 * 1024, 10_000, true));
        assertThat(OrcWriteOptions.defaults()).isEqualTo(options);
    }

    @Test
    public void testOrcOptionsWinOverFileOptions()
    {
        OrcWriteOptions options = OrcWriteOptions.fromTableOptions(Map.of(
                "file.compression", "snappy",
                "orc.compress", "zlib",
                "file.compression.zstd-level", "3",
                "orc.compression.zstd.level", "7",
                "orc.compress.size", "65536",
                "orc.stripe.size", "1000",
                "orc.row.index.stride", "5000",
                "orc.timestamp-ltz.legacy.type", "false"));
        assertThat(options).isEqualTo(new OrcWriteOptions("ZLIB", 7, 65536, 1000, 5000, false));
        // Paimon sets orc.stripe.size from file.block-size when that is set
        assertThat(OrcWriteOptions.fromTableOptions(Map.of("file.block-size", "32 mb", "orc.stripe.size", "1000")).stripeSize()).isEqualTo(32L * 1024 * 1024);
        assertThat(OrcWriteOptions.fromTableOptions(Map.of("file.compression", "lz4", "file.compression.zstd-level", "9")))
                .isEqualTo(new OrcWriteOptions("LZ4", 9, 256 * 1024, 64L * 1024 * 1024, 10_000, true));
        assertThat(OrcWriteOptions.fromTableOptions(Map.of("file.compression", "none")).compression()).isEqualTo("NONE");
    }

    @Test
    public void testBloomFilterColumns()
    {
        OrcWriteOptions options = OrcWriteOptions.fromTableOptions(Map.of("orc.bloom.filter.columns", " id, name,,id ", "orc.bloom.filter.fpp", "0.05"));
        assertThat(options.bloomFilterColumns()).containsExactly("id", "name");
        assertThat(options.bloomFilterFpp()).isEqualTo(0.05);
        // orc-core's default false positive rate
        assertThat(OrcWriteOptions.fromTableOptions(Map.of("orc.bloom.filter.columns", "id")).bloomFilterFpp()).isEqualTo(0.01);
        assertThat(OrcWriteOptions.defaults().bloomFilterColumns()).isEmpty();
        assertThat(OrcWriteOptions.fromTableOptions(Map.of("orc.bloom.filter.write.version", "utf8")).bloomFilterColumns()).isEmpty();
    }

    @Test
    public void testValuesTarnCannotHonourAreRefused()
    {
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.compress", "lzo")))
                .hasMessage("ORC compression LZO is not written by Tarn yet; use NONE, ZLIB, SNAPPY, LZ4 or ZSTD");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("file.compression", "gzip")))
                .hasMessage("Unknown ORC compression: GZIP");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.compression.zstd.level", "23")))
                .hasMessage("ZSTD level must be between 1 and 22: 23");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.compress.size", "8388608")))
                .hasMessageContaining("ORC compression block size must be between 1 and 8388607");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.row.index.stride", "0")))
                .hasMessageContaining("ORC row index stride must be positive");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.stripe.size", "big")))
                .hasMessage("Option orc.stripe.size is not a number: big");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.bloom.filter.columns", "id", "orc.bloom.filter.write.version", "original")))
                .hasMessage("Tarn writes ORC Bloom filters in the utf8 encoding only (orc.bloom.filter.write.version=original)");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.bloom.filter.columns", "id", "orc.bloom.filter.fpp", "1")))
                .hasMessage("ORC Bloom filter false positive rate must be between 0 and 1 (exclusive): 1.0");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.bloom.filter.fpp", "often")))
                .hasMessage("Option orc.bloom.filter.fpp is not a number: often");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.encrypt", "key:id")))
                .hasMessageContaining("Tarn does not write encrypted or masked ORC files");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.proleptic.gregorian", "true")))
                .hasMessageContaining("proleptic Gregorian calendar");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.create.index", "false")))
                .hasMessageContaining("Tarn always writes an ORC row index");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.write.format", "0.11")))
                .hasMessageContaining("Tarn writes ORC format 0.12 only");
        assertThatThrownBy(() -> OrcWriteOptions.fromTableOptions(Map.of("orc.timestamp-ltz.legacy.type", "maybe")))
                .hasMessage("Option orc.timestamp-ltz.legacy.type is not a boolean: maybe");
    }
}
