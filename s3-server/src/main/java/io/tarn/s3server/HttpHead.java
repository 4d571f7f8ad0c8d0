package io.tarn.s3server;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.util.Objects.requireNonNull;

/**
 * The head of an HTTP/1.1 message, its start line and header lines, kept as the bytes that
 * arrived so that it is forwarded unchanged (a signed request stays valid), and parsed enough to
 * find where the body ends.
 */
record HttpHead(byte[] raw, String startLine, List<String> headerLines)
{
    // far more than any S3 request or answer carries; a longer head is not HTTP we expect
    private static final int MAX_HEAD_BYTES = 256 * 1024;
    private static final int COPY_BUFFER_BYTES = 64 * 1024;

    HttpHead
    {
        requireNonNull(raw, "raw is null");
        requireNonNull(startLine, "startLine is null");
        headerLines = List.copyOf(requireNonNull(headerLines, "headerLines is null"));
    }

    /**
     * The next head on {@code in}, or {@code null} if the stream ends before its first byte (the
     * peer closed an idle connection).
     */
    static HttpHead read(InputStream in)
            throws IOException
    {
        ByteArrayOutputStream raw = new ByteArrayOutputStream(512);
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int value = in.read();
            if (value < 0) {
                if (raw.size() == 0) {
                    return null;
                }
                throw new EOFException("The connection closed inside an HTTP head");
            }
            raw.write(value);
            if (raw.size() > MAX_HEAD_BYTES) {
                throw new IOException("HTTP head longer than " + MAX_HEAD_BYTES + " bytes");
            }
            if (value != '\n') {
                if (value != '\r') {
                    line.write(value);
                }
                continue;
            }
            String text = line.toString(ISO_8859_1);
            line.reset();
            if (text.isEmpty()) {
                if (lines.isEmpty()) {
                    // stray line breaks between messages are allowed before a start line
                    raw.reset();
                    continue;
                }
                return new HttpHead(raw.toByteArray(), lines.get(0), lines.subList(1, lines.size()));
            }
            lines.add(text);
        }
    }

    String method()
    {
        int space = startLine.indexOf(' ');
        return space < 0 ? startLine : startLine.substring(0, space);
    }

    /**
     * The request target ({@code /bucket/key?query}) of a request head.
     */
    String target()
    {
        String[] parts = startLine.split(" ", 3);
        return parts.length < 2 ? "" : parts[1];
    }

    /**
     * The status code of a response head.
     */
    int status()
            throws IOException
    {
        String[] parts = startLine.split(" ", 3);
        try {
            return Integer.parseInt(parts[1]);
        }
        catch (RuntimeException e) {
            throw new IOException("Not an HTTP status line: " + startLine, e);
        }
    }

    Optional<String> header(String name)
    {
        for (String line : headerLines) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                return Optional.of(line.substring(colon + 1).strip());
            }
        }
        return Optional.empty();
    }

    boolean hasToken(String name, String token)
    {
        return header(name).map(value -> {
            for (String part : value.split(",")) {
                if (part.strip().equalsIgnoreCase(token)) {
                    return true;
                }
            }
            return false;
        }).orElse(false);
    }

    boolean chunked()
    {
        return header("Transfer-Encoding").map(value -> value.toLowerCase(Locale.ROOT).strip().endsWith("chunked")).orElse(false);
    }

    /**
     * The declared body length, or -1 if the head declares none.
     */
    long contentLength()
            throws IOException
    {
        Optional<String> value = header("Content-Length");
        if (value.isEmpty()) {
            return -1;
        }
        try {
            long length = Long.parseLong(value.get());
            if (length < 0) {
                throw new NumberFormatException();
            }
            return length;
        }
        catch (NumberFormatException e) {
            throw new IOException("Invalid Content-Length: " + value.get(), e);
        }
    }

    /**
     * Copies the body of a request with this head, framed by its chunks or its declared length;
     * a request that declares neither has none.
     */
    void copyRequestBody(InputStream in, OutputStream out)
            throws IOException
    {
        if (chunked()) {
            copyChunked(in, out);
        }
        else if (contentLength() > 0) {
            copyExactly(in, out, contentLength());
        }
    }

    /**
     * Copies the body of a response with this head to a request of method {@code requestMethod}:
     * none for HEAD, 1xx, 204 and 304, else framed by chunks or length, else up to the end of
     * the stream.
     */
    void copyResponseBody(String requestMethod, InputStream in, OutputStream out)
            throws IOException
    {
        int status = status();
        if (requestMethod.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304) {
            return;
        }
        if (chunked()) {
            copyChunked(in, out);
        }
        else if (contentLength() >= 0) {
            copyExactly(in, out, contentLength());
        }
        else {
            in.transferTo(out);
        }
    }

    private static void copyExactly(InputStream in, OutputStream out, long length)
            throws IOException
    {
        byte[] buffer = new byte[(int) Math.min(COPY_BUFFER_BYTES, Math.max(1, length))];
        long left = length;
        while (left > 0) {
            int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (read < 0) {
                throw new EOFException("The connection closed %d bytes before the end of a body of %d".formatted(left, length));
            }
            out.write(buffer, 0, read);
            left -= read;
        }
    }

    /**
     * Copies a chunked body as it came, chunk sizes, extensions and trailers included.
     */
    private static void copyChunked(InputStream in, OutputStream out)
            throws IOException
    {
        while (true) {
            String sizeLine = copyLine(in, out);
            int end = sizeLine.indexOf(';');
            long size;
            try {
                size = Long.parseLong((end < 0 ? sizeLine : sizeLine.substring(0, end)).strip(), 16);
            }
            catch (NumberFormatException e) {
                throw new IOException("Invalid chunk size line: " + sizeLine, e);
            }
            if (size == 0) {
                // trailer lines up to an empty one
                while (!copyLine(in, out).isEmpty()) {
                    // copied
                }
                return;
            }
            copyExactly(in, out, size);
            if (!copyLine(in, out).isEmpty()) {
                throw new IOException("A chunk of " + size + " bytes does not end with a line break");
            }
        }
    }

    /**
     * Copies one line and returns it without its line break.
     */
    private static String copyLine(InputStream in, OutputStream out)
            throws IOException
    {
        StringBuilder line = new StringBuilder();
        while (true) {
            int value = in.read();
            if (value < 0) {
                throw new EOFException("The connection closed inside a chunked body");
            }
            out.write(value);
            if (value == '\n') {
                return line.toString();
            }
            if (value != '\r') {
                line.append((char) value);
            }
            if (line.length() > 8192) {
                throw new IOException("Chunk line longer than 8192 bytes");
            }
        }
    }
}
