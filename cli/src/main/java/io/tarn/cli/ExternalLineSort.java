package io.tarn.cli;

import io.tarn.storage.sort.SpillDirectory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.PriorityQueue;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Sorts canonical lines within a memory budget, for {@code tarn dump} of tables larger than the
 * heap. Lines are collected, as UTF-8, until they take {@code memoryBudget} bytes; then they are
 * sorted and written as a run to a file in a temporary directory under the spill directory. The
 * output merges the runs (at most {@link #MAX_FAN_IN} at once, in as many passes as needed) with
 * the lines still in memory: the same lines in the same order, and the same last line, as
 * {@link io.tarn.vector.rows.CanonicalRowSet#text()} of all of them, which sorts by the unsigned
 * bytes of the UTF-8 encoding. A run file holds its lines each followed by LF, which the canonical
 * form always escapes within a line.
 *
 * <p>{@link #close()} deletes the temporary directory and everything in it.
 */
final class ExternalLineSort
        implements AutoCloseable
{
    static final int MAX_FAN_IN = 64;
    private static final int STREAM_BUFFER = 1 << 16;
    // the heap of a line besides its bytes: the array header and the list's reference to it
    private static final long LINE_OVERHEAD = 32;

    private final SpillDirectory spillDirectory;
    private final long memoryBudget;
    private final List<byte[]> lines = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();
    private long bufferedBytes;
    private long lineCount;
    private Path temporaryDirectory;
    private int nextRun;

    ExternalLineSort(SpillDirectory spillDirectory, long memoryBudget)
    {
        this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
        if (memoryBudget <= 0) {
            throw new IllegalArgumentException("Memory budget must be positive: " + memoryBudget);
        }
        this.memoryBudget = memoryBudget;
    }

    /**
     * Adds a line, which must not contain LF.
     */
    void add(String line)
            throws IOException
    {
        if (line.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("Canonical line contains an unescaped LF: " + line);
        }
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        lines.add(bytes);
        lineCount++;
        bufferedBytes += bytes.length + LINE_OVERHEAD;
        if (bufferedBytes >= memoryBudget) {
            spill();
        }
    }

    /**
     * The run files written so far.
     */
    int spilledRuns()
    {
        return runs.size();
    }

    /**
     * Writes every line added, sorted, each followed by LF, then {@code rows=N sha256=H} and LF,
     * where H is the SHA-256 of the lines before it; returns that last line. {@code out} is
     * flushed, not closed.
     */
    String writeTo(OutputStream out)
            throws IOException
    {
        lines.sort(Arrays::compareUnsigned);
        while (runs.size() > MAX_FAN_IN - 1) {
            // the lines in memory take the last place of the final merge
            List<Path> batch = new ArrayList<>(runs.subList(0, MAX_FAN_IN));
            Path merged = newRunFile();
            try (OutputStream run = new BufferedOutputStream(Files.newOutputStream(merged), STREAM_BUFFER)) {
                merge(batch, List.of(), run, null);
            }
            for (Path path : batch) {
                Files.delete(path);
            }
            runs.subList(0, MAX_FAN_IN).clear();
            runs.add(merged);
        }
        MessageDigest digest = newDigest();
        BufferedOutputStream buffered = new BufferedOutputStream(out, STREAM_BUFFER);
        merge(runs, lines, buffered, digest);
        String summary = "rows=" + lineCount + " sha256=" + HexFormat.of().formatHex(digest.digest());
        buffered.write((summary + "\n").getBytes(StandardCharsets.UTF_8));
        buffered.flush();
        return summary;
    }

    @Override
    public void close()
            throws IOException
    {
        lines.clear();
        runs.clear();
        if (temporaryDirectory == null) {
            return;
        }
        try (Stream<Path> files = Files.list(temporaryDirectory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(temporaryDirectory);
        temporaryDirectory = null;
    }

    private void spill()
            throws IOException
    {
        lines.sort(Arrays::compareUnsigned);
        Path run = newRunFile();
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(run), STREAM_BUFFER)) {
            for (byte[] line : lines) {
                out.write(line);
                out.write('\n');
            }
        }
        runs.add(run);
        lines.clear();
        bufferedBytes = 0;
    }

    private Path newRunFile()
            throws IOException
    {
        if (temporaryDirectory == null) {
            temporaryDirectory = spillDirectory.createOwned();
        }
        return temporaryDirectory.resolve("run-" + nextRun++);
    }

    /**
     * Merges the sorted runs and the sorted lines in memory into {@code out}, each line followed
     * by LF, digesting what it writes when {@code digest} is given.
     */
    private static void merge(List<Path> runFiles, List<byte[]> memory, OutputStream out, MessageDigest digest)
            throws IOException
    {
        PriorityQueue<Source> queue = new PriorityQueue<>((left, right) -> Arrays.compareUnsigned(
                left.line, 0, left.length, right.line, 0, right.length));
        List<Source> sources = new ArrayList<>();
        try {
            for (Path file : runFiles) {
                sources.add(new RunSource(new BufferedInputStream(Files.newInputStream(file), STREAM_BUFFER), file));
            }
            if (!memory.isEmpty()) {
                sources.add(new MemorySource(memory));
            }
            for (Source source : sources) {
                if (source.advance()) {
                    queue.add(source);
                }
            }
            while (!queue.isEmpty()) {
                Source next = queue.poll();
                out.write(next.line, 0, next.length);
                out.write('\n');
                if (digest != null) {
                    digest.update(next.line, 0, next.length);
                    digest.update((byte) '\n');
                }
                if (next.advance()) {
                    queue.add(next);
                }
            }
        }
        finally {
            for (Source source : sources) {
                source.close();
            }
        }
    }

    private static MessageDigest newDigest()
    {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * A sorted sequence of lines; {@code line[0..length)} is the current one after
     * {@link #advance()} returned true.
     */
    private abstract static class Source
            implements AutoCloseable
    {
        byte[] line = new byte[0];
        int length;

        abstract boolean advance()
                throws IOException;

        @Override
        public void close()
                throws IOException
        {
        }
    }

    private static final class MemorySource
            extends Source
    {
        private final List<byte[]> lines;
        private int next;

        MemorySource(List<byte[]> lines)
        {
            this.lines = lines;
        }

        @Override
        boolean advance()
        {
            if (next == lines.size()) {
                return false;
            }
            line = lines.get(next++);
            length = line.length;
            return true;
        }
    }

    private static final class RunSource
            extends Source
    {
        private final InputStream input;
        private final Path file;

        RunSource(InputStream input, Path file)
        {
            this.input = input;
            this.file = file;
            this.line = new byte[256];
        }

        @Override
        boolean advance()
                throws IOException
        {
            length = 0;
            while (true) {
                int next = input.read();
                if (next < 0) {
                    if (length > 0) {
                        throw new IOException("Spill file " + file + " ends inside a line");
                    }
                    return false;
                }
                if (next == '\n') {
                    return true;
                }
                if (length == line.length) {
                    line = Arrays.copyOf(line, line.length * 2);
                }
                line[length++] = (byte) next;
            }
        }

        @Override
        public void close()
                throws IOException
        {
            input.close();
        }
    }
}
