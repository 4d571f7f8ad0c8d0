package io.tarn.vector.orc;

import io.tarn.types.DataField;
import io.tarn.vector.DataFileCorruptionException;
import io.tarn.vector.DataFileUnsupportedException;
import io.tarn.vector.io.DataFileInput;
import io.tarn.vector.reader.ParquetTestFiles;
import io.tarn.vector.reader.ReadOptions;
import io.tarn.vector.reader.TestDataGenerator;
import org.apache.arrow.memory.RootAllocator;
import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Broken ORC files fail with {@link DataFileCorruptionException} (or, for features Tarn lacks,
 * {@link DataFileUnsupportedException}) naming the file: truncated files, broken postscripts,
 * stream lengths that do not fit the stripe, broken compression chunks.
 */
public class TestOrcReaderCorruption
{
    private static final List<DataField> FIELDS = ParquetTestFiles.tarnFields(TestDataGenerator.ALL_TYPES);
    private static final String NAME = "broken.orc";

    private final RootAllocator allocator = new RootAllocator();
    private final byte[] plain = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(3).rows(TestDataGenerator.ALL_TYPES, 60), Map.of(), "none");
    private final byte[] zlib = OrcTestFiles.write(TestDataGenerator.ALL_TYPES, new TestDataGenerator(3).rows(TestDataGenerator.ALL_TYPES, 60), Map.of(), "zlib");

    @AfterClass(alwaysRun = true)
    public void tearDown()
    {
        assertThat(allocator.getAllocatedMemory()).isEqualTo(0);
        allocator.close();
    }

    @Test
    public void testValidFilesRead()
            throws IOException
    {
        assertThat(readAll(plain)).isEqualTo(60);
        assertThat(readAll(zlib)).isEqualTo(60);
    }

    @Test
    public void testTruncated()
    {
        for (byte[] file : List.of(plain, zlib)) {
            for (int length : new int[] {0, 1, 3, 4, 10, file.length / 3, file.length / 2, file.length - 30, file.length - 10, file.length - 2, file.length - 1}) {
                assertCorrupt(Arrays.copyOf(file, length));
            }
        }
    }

    @Test
    public void testBrokenPostscript()
    {
        int postScriptLength = plain[plain.length - 1] & 0xFF;
        // a postscript length of 0, and one that reaches before the file
        assertCorrupt(withByte(plain, plain.length - 1, 0));
        byte[] tiny = Arrays.copyOfRange(plain, plain.length - 40, plain.length);
        tiny[tiny.length - 1] = (byte) 200;
        assertCorrupt(tiny);
        // the magic "ORC" broken: not an ORC file
        int magic = indexOf(plain, plain.length - 1 - postScriptLength, "ORC".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> readAll(withByte(plain, magic, 'X')))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("not an ORC file");
        // a postscript length that lands inside the footer: garbage protobuf or a wrong footer
        assertCorrupt(withByte(plain, plain.length - 1, postScriptLength - 1));
        // compression LZO (field 2 of the postscript, 0x10 then the kind)
        int compression = indexOf(plain, plain.length - 1 - postScriptLength, new byte[] {0x10, 0x00});
        assertThatThrownBy(() -> readAll(withByte(plain, compression + 1, 3)))
                .isInstanceOf(DataFileUnsupportedException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("LZO");
        // the footer length (field 1) made larger than the file
        assertThat(plain[plain.length - 1 - postScriptLength]).isEqualTo((byte) 0x08);
        assertCorrupt(withByte(plain, plain.length - postScriptLength, 0x7f));
    }

    @Test
    public void testStreamLengthsBeyondTheStripe()
            throws IOException
    {
        OrcTail tail = OrcTail.read(DataFileInput.of(NAME, plain));
        StripeInformation stripe = tail.footer().stripes().get(0);
        int footerStart = (int) (stripe.offset() + stripe.indexLength() + stripe.dataLength());
        int footerEnd = footerStart + (int) stripe.footerLength();
        // each Stream message (field 1 of the stripe footer) ends with its length (field 3): make it as large as its varint allows
        int position = footerStart;
        int changed = 0;
        while (position < footerEnd && plain[position] == 0x0a) {
            int length = plain[position + 1];
            int end = position + 2 + length;
            int lengthField = indexOf(plain, position + 2, new byte[] {0x18});
            if (lengthField < end - 1) {
                byte[] broken = plain.clone();
                for (int i = lengthField + 1; i < end - 1; i++) {
                    broken[i] = (byte) 0xff;
                }
                broken[end - 1] = 0x7f;
                assertThatThrownBy(() -> readAll(broken))
                        .isInstanceOf(DataFileCorruptionException.class)
                        .hasMessageContaining(NAME)
                        .hasMessageContaining("stripe 0");
                changed++;
            }
            position = end;
        }
        assertThat(changed).isGreaterThan(10);
    }

    @Test
    public void testBrokenCompressionChunks()
            throws IOException
    {
        OrcTail tail = OrcTail.read(DataFileInput.of(NAME, zlib));
        StripeInformation stripe = tail.footer().stripes().get(0);
        int data = (int) (stripe.offset() + stripe.indexLength());
        // the first chunk of the first data stream claims the most bytes a header can say
        byte[] longer = zlib.clone();
        longer[data] = (byte) 0xfe;
        longer[data + 1] = (byte) 0xff;
        longer[data + 2] = (byte) 0xff;
        assertThatThrownBy(() -> readAll(longer))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME)
                .hasMessageContaining("compression chunk");
        // the footer's first chunk made an original of a wrong length
        int footer = zlib.length - 1 - (zlib[zlib.length - 1] & 0xFF) - (int) tail.postScript().footerLength();
        byte[] original = zlib.clone();
        original[footer] |= 1;
        assertCorrupt(original);
    }

    @Test
    public void testMessagesNameTheFileForEveryColumnRead()
    {
        // a string column's data cut: every column of the first stripe's data section zeroed in turn
        byte[] broken = plain.clone();
        OrcTail tail;
        try {
            tail = OrcTail.read(DataFileInput.of(NAME, plain));
        }
        catch (IOException e) {
            throw new AssertionError(e);
        }
        StripeInformation stripe = tail.footer().stripes().get(0);
        Arrays.fill(broken, (int) (stripe.offset() + stripe.indexLength()), (int) (stripe.offset() + stripe.indexLength() + stripe.dataLength()), (byte) 0xff);
        assertCorrupt(broken);
    }

    private void assertCorrupt(byte[] file)
    {
        assertThatThrownBy(() -> readAll(file))
                .isInstanceOf(DataFileCorruptionException.class)
                .hasMessageContaining(NAME);
    }

    private long readAll(byte[] file)
            throws IOException
    {
        long rows = 0;
        try (OrcReader reader = OrcReader.open(DataFileInput.of(NAME, file), ReadOptions.of(FIELDS), FIELDS, allocator)) {
            while (reader.nextBatch()) {
                rows += reader.root().getRowCount();
            }
        }
        return rows;
    }

    private static byte[] withByte(byte[] file, int position, int value)
    {
        byte[] copy = file.clone();
        copy[position] = (byte) value;
        return copy;
    }

    private static int indexOf(byte[] bytes, int from, byte[] pattern)
    {
        for (int i = from; i <= bytes.length - pattern.length; i++) {
            if (Arrays.equals(bytes, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        throw new AssertionError("Pattern not found");
    }
}
