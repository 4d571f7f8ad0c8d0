package io.tarn.s3server;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A fault that {@link FaultInjectingProxy} injects into the next {@link #times} requests that
 * match: every request, or only those of one HTTP method, or only those whose target contains a
 * text. The target is the path, bucket and key (path-style), and the query, percent-decoded:
 * {@code /bucket/warehouse/db.db/t/snapshot/snapshot-2}, {@code /bucket/key?uploads} (a
 * multipart upload begins), {@code /bucket/key?partNumber=1&uploadId=...} (one of its parts),
 * {@code /bucket?list-type=2&delimiter=/&prefix=dir/} (a listing).
 *
 * @param status the HTTP status of the proxy's own answer ({@link Kind#INTERNAL_ERROR},
 *         {@link Kind#SLOW_DOWN}, {@link Kind#ERROR}), else 0
 * @param code the S3 error code of that answer, else empty
 * @param delay how long the first byte of the response is held back ({@link Kind#FIRST_BYTE_DELAY})
 * @param bodyBytes how many bytes of the response body are sent before the connection is closed
 *         ({@link Kind#BODY_CUT})
 * @param times how many matching requests the fault hits; {@link Integer#MAX_VALUE} is for ever
 */
public record Fault(Kind kind, int status, String code, Duration delay, long bodyBytes, int times, Optional<String> method, Optional<String> targetContains)
{
    public enum Kind
    {
        /**
         * {@code 500 InternalError}, answered by the proxy: the store never sees the request.
         */
        INTERNAL_ERROR,
        /**
         * {@code 503 SlowDown}, S3's answer to a client that sends too many requests; answered by
         * the proxy.
         */
        SLOW_DOWN,
        /**
         * Any other S3 error, answered by the proxy: {@code 404 NoSuchUpload}, say.
         */
        ERROR,
        /**
         * The connection is reset (TCP RST) once the request's head arrived, with no answer: the
         * store never sees the request.
         */
        CONNECTION_RESET,
        /**
         * The store answers, and its answer is held back before the first byte: a slow store,
         * or, beyond the client's read timeout, an answer lost after the store acted.
         */
        FIRST_BYTE_DELAY,
        /**
         * The store answers, and the proxy resets the connection instead of passing the answer
         * on: the store acted, and the client never learns it.
         */
        ANSWER_LOST,
        /**
         * The store answers, and the connection closes after the first bytes of the body, the
         * declared length unchanged.
         */
        BODY_CUT,
    }

    public Fault
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(code, "code is null");
        requireNonNull(delay, "delay is null");
        requireNonNull(method, "method is null");
        requireNonNull(targetContains, "targetContains is null");
        if (delay.isNegative() || bodyBytes < 0) {
            throw new IllegalArgumentException("Negative delay or body length: " + delay + ", " + bodyBytes);
        }
        if (times < 1) {
            throw new IllegalArgumentException("A fault hits at least one request: " + times);
        }
        method = method.map(name -> name.toUpperCase(Locale.ROOT));
    }

    public static Fault internalError()
    {
        return answer(Kind.INTERNAL_ERROR, 500, "InternalError");
    }

    public static Fault slowDown()
    {
        return answer(Kind.SLOW_DOWN, 503, "SlowDown");
    }

    /**
     * An answer with HTTP status {@code status} and S3 error code {@code code}.
     */
    public static Fault error(int status, String code)
    {
        if (status < 300 || status > 599) {
            throw new IllegalArgumentException("Not an error status: " + status);
        }
        return answer(Kind.ERROR, status, code);
    }

    public static Fault connectionReset()
    {
        return new Fault(Kind.CONNECTION_RESET, 0, "", Duration.ZERO, 0, 1, Optional.empty(), Optional.empty());
    }

    public static Fault firstByteDelay(Duration delay)
    {
        return new Fault(Kind.FIRST_BYTE_DELAY, 0, "", delay, 0, 1, Optional.empty(), Optional.empty());
    }

    public static Fault answerLost()
    {
        return new Fault(Kind.ANSWER_LOST, 0, "", Duration.ZERO, 0, 1, Optional.empty(), Optional.empty());
    }

    public static Fault bodyCutAfter(long bytes)
    {
        return new Fault(Kind.BODY_CUT, 0, "", Duration.ZERO, bytes, 1, Optional.empty(), Optional.empty());
    }

    private static Fault answer(Kind kind, int status, String code)
    {
        return new Fault(kind, status, code, Duration.ZERO, 0, 1, Optional.empty(), Optional.empty());
    }

    /**
     * This fault for the next {@code count} matching requests.
     */
    public Fault times(int count)
    {
        return new Fault(kind, status, code, delay, bodyBytes, count, method, targetContains);
    }

    /**
     * This fault for every matching request until the proxy's faults are cleared.
     */
    public Fault always()
    {
        return times(Integer.MAX_VALUE);
    }

    /**
     * This fault only for requests of HTTP method {@code method} ({@code GET}, {@code PUT},
     * {@code HEAD}, {@code POST}, {@code DELETE}).
     */
    public Fault onMethod(String method)
    {
        return new Fault(kind, status, code, delay, bodyBytes, times, Optional.of(method), targetContains);
    }

    /**
     * This fault only for requests whose target contains {@code text}.
     */
    public Fault onTargetContaining(String text)
    {
        return new Fault(kind, status, code, delay, bodyBytes, times, method, Optional.of(text));
    }

    boolean matches(String requestMethod, String target)
    {
        return method.map(requestMethod::equalsIgnoreCase).orElse(true) && targetContains.map(target::contains).orElse(true);
    }
}
