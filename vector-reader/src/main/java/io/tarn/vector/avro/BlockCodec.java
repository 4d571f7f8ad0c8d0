package io.tarn.vector.avro;

import io.tarn.vector.DataFileUnsupportedException;

/**
 * The codecs of Avro container blocks that Paimon writes (its {@code avro.codec} option, or its
 * {@code file.compression} mapped to an Avro codec, zstd by default): the block's bytes as they
 * are; raw deflate (RFC 1951, no zlib header); a raw Snappy block followed by the big-endian
 * CRC-32 of the uncompressed bytes; ZSTD frames. Avro's bzip2 and xz codecs are not read.
 */
enum BlockCodec
{
    NULL("null"),
    DEFLATE("deflate"),
    SNAPPY("snappy"),
    ZSTANDARD("zstandard");

    private final String avroName;

    BlockCodec(String avroName)
    {
        this.avroName = avroName;
    }

    String avroName()
    {
        return avroName;
    }

    /**
     * The codec named by a file's {@code avro.codec} metadata (absent means {@code null}).
     */
    static BlockCodec forName(String name, String file)
            throws DataFileUnsupportedException
    {
        for (BlockCodec codec : values()) {
            if (codec.avroName.equals(name)) {
                return codec;
            }
        }
        // the name comes from the file: quote it, and cut a long (corrupt) one short
        String shown = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        throw new DataFileUnsupportedException("File " + file + " uses the Avro codec '" + shown
                + "', which Tarn does not read (it reads null, deflate, snappy and zstandard)");
    }
}
