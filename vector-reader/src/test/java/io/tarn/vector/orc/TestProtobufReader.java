package io.tarn.vector.orc;

import io.tarn.vector.CorruptDataException;
import org.testng.annotations.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestProtobufReader
{
    @Test
    public void testVarintsOfTheSpecification()
    {
        // the table of ORC's specification (the protobuf varint)
        long[] values = {0, 1, 127, 128, 129, 16_383, 16_384, 16_385};
        int[][] encodings = {{0x00}, {0x01}, {0x7f}, {0x80, 0x01}, {0x81, 0x01}, {0xff, 0x7f}, {0x80, 0x80, 0x01}, {0x81, 0x80, 0x01}};
        for (int i = 0; i < values.length; i++) {
            byte[] bytes = bytes(encodings[i]);
            assertThat(new ProtobufReader(bytes, 0, bytes.length).readVarint()).isEqualTo(values[i]);
        }
        byte[] max = bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
        assertThat(new ProtobufReader(max, 0, max.length).readVarint()).isEqualTo(-1L);
    }

    @Test
    public void testZigzag()
    {
        assertThat(ProtobufReader.zigzag(0)).isEqualTo(0);
        assertThat(ProtobufReader.zigzag(1)).isEqualTo(-1);
        assertThat(ProtobufReader.zigzag(2)).isEqualTo(1);
        assertThat(ProtobufReader.zigzag(3)).isEqualTo(-2);
        assertThat(ProtobufReader.zigzag(4)).isEqualTo(2);
        assertThat(ProtobufReader.zigzag(-1L)).isEqualTo(Long.MIN_VALUE);
        assertThat(ProtobufReader.zigzag(-2L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    public void testFieldsOfEveryWireTypeAndUnknownFieldsSkipped()
    {
        byte[] message = bytes(
                0x08, 0x96, 0x01, // 1: varint 150
                0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f, // 2: double 1.5
                0x1a, 0x03, 'O', 'R', 'C', // 3: string
                0x25, 0x01, 0x02, 0x03, 0x04, // 4: fixed32, skipped
                0xf8, 0x01, 0x05, // 31: unknown varint, skipped
                0x2a, 0x04, 0x08, 0x03, 0x10, 0x04, // 5: message {1: 3, 2: 4}
                0x30, 0x03, // 6: sint64 -2
                0x3a, 0x03, 0x01, 0x80, 0x01, // 7: packed [1, 128]
                0x38, 0x05); // 7: unpacked 5
        ProtobufReader reader = new ProtobufReader(message, 0, message.length);
        assertThat(reader.nextField()).isEqualTo(1);
        assertThat(reader.readUnsigned()).isEqualTo(150);
        assertThat(reader.nextField()).isEqualTo(2);
        assertThat(reader.readDouble()).isEqualTo(1.5);
        assertThat(reader.nextField()).isEqualTo(3);
        assertThat(reader.readString()).isEqualTo("ORC");
        assertThat(reader.nextField()).isEqualTo(4);
        reader.skip();
        assertThat(reader.nextField()).isEqualTo(31);
        reader.skip();
        assertThat(reader.nextField()).isEqualTo(5);
        ProtobufReader inner = reader.readMessage();
        assertThat(inner.nextField()).isEqualTo(1);
        assertThat(inner.readUnsigned()).isEqualTo(3);
        assertThat(inner.nextField()).isEqualTo(2);
        assertThat(inner.readUnsignedInt()).isEqualTo(4);
        assertThat(inner.nextField()).isEqualTo(-1);
        assertThat(reader.nextField()).isEqualTo(6);
        assertThat(reader.readSigned()).isEqualTo(-2);
        LongList values = new LongList();
        assertThat(reader.nextField()).isEqualTo(7);
        reader.readUnsignedRepeated(values);
        assertThat(reader.nextField()).isEqualTo(7);
        reader.readUnsignedRepeated(values);
        assertThat(values.toArray()).containsExactly(1, 128, 5);
        assertThat(reader.nextField()).isEqualTo(-1);
    }

    @Test
    public void testMessagesOfTheTail()
    {
        // postscript {footerLength: 100, compression: ZSTD, blockSize: 262144, version: [0, 12], metadataLength: 7, writerVersion: 9, magic: "ORC"}
        byte[] bytes = bytes(0x08, 0x64, 0x10, 0x05, 0x18, 0x80, 0x80, 0x10, 0x22, 0x02, 0x00, 0x0c, 0x28, 0x07, 0x30, 0x09, 0x82, 0xf4, 0x03, 0x03, 'O', 'R', 'C');
        PostScript postScript = PostScript.parse(new ProtobufReader(bytes, 0, bytes.length));
        assertThat(postScript).isEqualTo(new PostScript(100, 5, 262_144, java.util.List.of(0, 12), 7, 9, "ORC"));
    }

    @Test
    public void testBrokenMessages()
    {
        // a varint that runs past the end
        assertCorrupt(bytes(0x08, 0x80));
        // eleven bytes of varint
        assertCorrupt(bytes(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
        // a length beyond the message
        assertCorrupt(bytes(0x1a, 0x05, 'O', 'R', 'C'));
        // a negative length
        assertCorrupt(bytes(0x1a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
        // field number 0
        assertCorrupt(bytes(0x00, 0x01));
        // a group (wire type 3)
        assertCorrupt(bytes(0x0b, 0x0c));
        // a fixed64 cut short
        assertCorrupt(bytes(0x11, 0x00, 0x00));
        // an unsigned value beyond a long
        byte[] large = bytes(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
        ProtobufReader reader = new ProtobufReader(large, 0, large.length);
        reader.nextField();
        assertThatThrownBy(reader::readUnsigned).isInstanceOf(CorruptDataException.class);
        // a field of the wrong wire type
        byte[] wrong = bytes(0x08, 0x01);
        ProtobufReader typed = new ProtobufReader(wrong, 0, wrong.length);
        typed.nextField();
        assertThatThrownBy(typed::readString).isInstanceOf(CorruptDataException.class);
        // a message outside its buffer
        assertThatThrownBy(() -> new ProtobufReader(new byte[4], 2, 3)).isInstanceOf(CorruptDataException.class);
    }

    private static void assertCorrupt(byte[] message)
    {
        assertThatThrownBy(() -> {
            ProtobufReader reader = new ProtobufReader(message, 0, message.length);
            for (int field = reader.nextField(); field >= 0; field = reader.nextField()) {
                reader.skip();
            }
        }).as(Arrays.toString(message)).isInstanceOf(CorruptDataException.class);
    }

    static byte[] bytes(int... values)
    {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
