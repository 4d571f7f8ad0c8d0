package io.tarn.vector.writer;

import org.testng.annotations.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestParquetWriteOptions
{
    @Test
    public void testDefaultsArePaimons()
    {
        // Paimon 1.3: file.compression zstd at level 1; parquet-mr: 128 MB row groups, 1 MB pages, dictionary on
        ParquetWriteOptions expected = new ParquetWriteOptions("zstd", 1, 134_217_728L, 1_048_576, true);
        assertThat(ParquetWriteOptions.defaults()).isEqualTo(expected);
        assertThat(ParquetWriteOptions.fromTableOptions(Map.of())).isEqualTo(expected);
    }

    @Test
    public void testFromTableOptions()
    {
        ParquetWriteOptions options = ParquetWriteOptions.fromTableOptions(Map.of(
                "file.compression", "SNAPPY",
                "file.compression.zstd-level", "9",
                "parquet.block.size", "1048576",
                "parquet.page.size", "4096",
                "parquet.enable.dictionary", "false"));
        assertThat(options).isEqualTo(new ParquetWriteOptions("snappy", 9, 1_048_576L, 4096, false));
    }

    @Test
    public void testParquetPrefixedOptionsWin()
    {
        ParquetWriteOptions options = ParquetWriteOptions.fromTableOptions(Map.of(
                "file.compression", "snappy",
                "parquet.compression", "gzip",
                "file.compression.zstd-level", "9",
                "parquet.compression.codec.zstd.level", "3",
                "parquet.block.size", "1048576",
                "file.block-size", "64 mb"));
        assertThat(options).isEqualTo(new ParquetWriteOptions("gzip", 3, 67_108_864L, 1_048_576, true));
    }

    @Test
    public void testWithers()
    {
        ParquetWriteOptions options = ParquetWriteOptions.defaults()
                .withCompression("lz4")
                .withZstdLevel(5)
                .withRowGroupSize(10)
                .withPageSize(20)
                .withDictionary(false);
        assertThat(options).isEqualTo(new ParquetWriteOptions("lz4", 5, 10, 20, false));
    }

    @Test
    public void testInvalidOptions()
    {
        assertThatThrownBy(() -> ParquetWriteOptions.defaults().withCompression("brotli"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("brotli");
        assertThatThrownBy(() -> ParquetWriteOptions.defaults().withPageSize(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ParquetWriteOptions.fromTableOptions(Map.of("parquet.enable.dictionary", "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parquet.enable.dictionary");
        assertThatThrownBy(() -> ParquetWriteOptions.fromTableOptions(Map.of("parquet.page.size", "big")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parquet.page.size");
    }
}
