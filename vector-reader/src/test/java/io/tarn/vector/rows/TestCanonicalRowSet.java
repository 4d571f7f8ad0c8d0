package io.tarn.vector.rows;

import io.tarn.testing.CanonicalRows;
import org.testng.annotations.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestCanonicalRowSet
{
    @Test
    public void testSortsByUtf8BytesAndDigests()
    {
        // String.compareTo would put U+1F600 (a surrogate pair, D83D...) before U+FFFD; UTF-8 bytes put it after
        List<String> lines = List.of("b", "\ud83d\ude00", "a", "\u00e9", "z", "\ufffd", "A");
        CanonicalRowSet set = CanonicalRowSet.of(lines);
        assertThat(set.lines()).containsExactly("A", "a", "b", "z", "\u00e9", "\ufffd", "\ud83d\ude00");
        assertThat(set.rowCount()).isEqualTo(7);
        // printf 'A\na\nb\nz\n\xc3\xa9\n\xef\xbf\xbd\n\xf0\x9f\x98\x80\n' | sha256sum
        assertThat(set.sha256()).isEqualTo("bd94091d93b8dbc99923839899708582046b12be6a54cd09e270f585bb14449f");
        assertThat(set.summary()).isEqualTo("rows=7 sha256=bd94091d93b8dbc99923839899708582046b12be6a54cd09e270f585bb14449f");
        assertThat(set.text()).isEqualTo("A\na\nb\nz\n\u00e9\n\ufffd\n\ud83d\ude00\nrows=7 sha256=bd94091d93b8dbc99923839899708582046b12be6a54cd09e270f585bb14449f\n");
        assertThat(set.text()).isEqualTo(CanonicalRows.of(lines).text());
        assertThat(set).isEqualTo(CanonicalRowSet.of(set.lines())).hasSameHashCodeAs(CanonicalRowSet.of(set.lines()));
    }

    @Test
    public void testEmpty()
    {
        CanonicalRowSet set = CanonicalRowSet.of(List.of());
        // printf '' | sha256sum
        assertThat(set.text()).isEqualTo("rows=0 sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n");
        assertThat(set.text()).isEqualTo(CanonicalRows.of(List.of()).text());
    }

    @Test
    public void testDuplicatesAndTabsKept()
    {
        List<String> lines = List.of("1\tx", "1\tx", "1\t\\N", "10\ta");
        CanonicalRowSet set = CanonicalRowSet.of(lines);
        assertThat(set.lines()).containsExactly("1\t\\N", "1\tx", "1\tx", "10\ta");
        assertThat(set.text()).isEqualTo(CanonicalRows.of(lines).text());
    }

    @Test
    public void testRejectsUnescapedLineFeed()
    {
        assertThatThrownBy(() -> CanonicalRowSet.of(List.of("a\nb")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unescaped LF");
    }
}
