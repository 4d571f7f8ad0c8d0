package io.tarn.cli;

import io.tarn.storage.sort.SpillDirectory;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestExternalLineSort
{
    @Test
    public void testSpilledRunsMergeIntoTheSortedLines()
            throws Exception
    {
        long seed = System.nanoTime();
        System.out.println("TestExternalLineSort seed " + seed);
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            // duplicates, empty lines, prefixes of one another and characters beyond ASCII
            StringBuilder line = new StringBuilder();
            int length = random.nextInt(12);
            for (int c = 0; c < length; c++) {
                line.append("ab\tzé€\uD83D\uDE00".charAt(random.nextInt(8)));
            }
            lines.add(line.toString());
        }
        // a budget of a few lines: far more runs than one merge takes, so merges run in passes
        assertSorted(lines, 2_000, true);
        // a budget that holds every line: nothing spills
        assertSorted(lines, Long.MAX_VALUE, false);
        assertSorted(List.of(), 100, false);
    }

    @Test
    public void testLineWithLineFeedIsRejected()
            throws IOException
    {
        Path spill = TemporaryDirectories.create("tarn-line-sort");
        try (ExternalLineSort sort = new ExternalLineSort(SpillDirectory.open(spill), 1000)) {
            assertThatThrownBy(() -> sort.add("a\nb")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unescaped LF");
        }
        finally {
            TemporaryDirectories.deleteRecursively(spill);
        }
    }

    private static void assertSorted(List<String> lines, long budget, boolean spills)
            throws Exception
    {
        List<byte[]> expected = new ArrayList<>();
        for (String line : lines) {
            expected.add(line.getBytes(StandardCharsets.UTF_8));
        }
        expected.sort(Arrays::compareUnsigned);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        for (byte[] line : expected) {
            text.write(line);
            text.write('\n');
            digest.update(line);
            digest.update((byte) '\n');
        }
        String summary = "rows=" + lines.size() + " sha256=" + HexFormat.of().formatHex(digest.digest());
        text.write((summary + "\n").getBytes(StandardCharsets.UTF_8));

        Path spill = TemporaryDirectories.create("tarn-line-sort");
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ExternalLineSort sort = new ExternalLineSort(SpillDirectory.open(spill), budget)) {
                for (String line : lines) {
                    sort.add(line);
                }
                if (spills) {
                    assertThat(sort.spilledRuns()).isGreaterThan(ExternalLineSort.MAX_FAN_IN);
                }
                else {
                    assertThat(sort.spilledRuns()).isZero();
                }
                assertThat(sort.writeTo(out)).isEqualTo(summary);
            }
            assertThat(out.toByteArray()).isEqualTo(text.toByteArray());
            try (Stream<Path> left = Files.list(spill)) {
                assertThat(left.toList()).isEmpty();
            }
        }
        finally {
            TemporaryDirectories.deleteRecursively(spill);
        }
    }
}
