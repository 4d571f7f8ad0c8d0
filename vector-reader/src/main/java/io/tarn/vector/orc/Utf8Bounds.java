package io.tarn.vector.orc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Bounds of a UTF-8 string too long for ORC's string statistics, cut at a character boundary at
 * most {@code limit} bytes in: the lower bound is the cut prefix; the upper bound is the prefix
 * without its last character, followed by that character's code point plus one.
 */
final class Utf8Bounds
{
    private Utf8Bounds() {}

    static byte[] truncateLower(byte[] text, int from, int limit)
    {
        int cut = characterStart(text, from, from + limit);
        byte[] result = new byte[cut - from];
        System.arraycopy(text, from, result, 0, result.length);
        return result;
    }

    static byte[] truncateUpper(byte[] text, int from, int limit)
    {
        int following = characterStart(text, from, from + limit);
        int last = characterStart(text, from, following - 1);
        ByteArrayOutputStream result = new ByteArrayOutputStream(limit + 4);
        result.write(text, from, last - from);
        int codePoint = new String(text, last, following - last, StandardCharsets.UTF_8).codePointAt(0) + 1;
        result.writeBytes(new String(Character.toChars(Math.min(codePoint, Character.MAX_CODE_POINT))).getBytes(StandardCharsets.UTF_8));
        return result.toByteArray();
    }

    private static int characterStart(byte[] text, int from, int position)
    {
        for (int i = position; i >= from; i--) {
            if ((text[i] & 0xC0) != 0x80) {
                return i;
            }
        }
        throw new IllegalArgumentException("No UTF-8 character starts in the string's first bytes");
    }
}
