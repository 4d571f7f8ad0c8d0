package io.tarn.storage.fs.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * How to reach an object store through the S3 API, read from properties spelled as Trino's native
 * S3 file system spells them ({@code s3.endpoint}, {@code s3.region}, {@code s3.path-style-access},
 * {@code s3.aws-access-key}, {@code s3.aws-secret-key}); Apache Paimon's spellings
 * ({@code s3.access-key}, {@code s3.secret-key}, {@code s3.path.style.access}) are accepted too,
 * so that a Paimon catalog file works unchanged. Without keys the AWS default credential chain
 * applies ({@code AWS_ACCESS_KEY_ID} and the rest).
 *
 * @param allowUnsafeCommits commit even to a store that does not honour conditional writes
 *         ({@code s3.allow-unsafe-commits}, or Trino's {@code s3.exclusive-create=false}): two
 *         writers committing at once may then lose a snapshot, so this is only for a store with
 *         a single writer
 * @param maxErrorRetries how often a failed request, or a body that broke off, is sent again
 *         ({@code s3.max-error-retries}, Trino's name and default)
 * @param retryBaseDelay the longest pause before the first retry; each later one may pause up
 *         to twice as long as the one before, up to 20 s, and a store that asks to slow down
 *         ({@code 503 SlowDown}) gets ten times these pauses ({@code s3.retry-base-delay})
 * @param socketTimeout how long a request waits for the next bytes of an answer before it fails
 *         and is retried ({@code s3.socket-timeout}, Trino's {@code s3.socket-read-timeout}
 *         too); the SDK's 30 s when empty
 * @param smallObjectThreshold the largest data file, by the length its manifest entry records,
 *         that is fetched whole by its first read, one request, and read from memory after
 *         ({@code s3.small-object-threshold}, default 3 MB as Trino's
 *         {@code parquet.small-file-threshold}); a larger one is read by its footer and ranges
 */
public record S3Settings(
        Optional<URI> endpoint,
        Optional<String> region,
        boolean pathStyleAccess,
        Optional<String> accessKey,
        Optional<String> secretKey,
        boolean allowUnsafeCommits,
        int maxErrorRetries,
        Duration retryBaseDelay,
        Optional<Duration> socketTimeout,
        long smallObjectThreshold)
{
    public static final String ENDPOINT = "s3.endpoint";
    public static final String REGION = "s3.region";
    public static final String PATH_STYLE_ACCESS = "s3.path-style-access";
    public static final String ACCESS_KEY = "s3.aws-access-key";
    public static final String SECRET_KEY = "s3.aws-secret-key";
    public static final String ALLOW_UNSAFE_COMMITS = "s3.allow-unsafe-commits";
    // Trino's native S3 file system: false says the store does not honour conditional writes
    public static final String EXCLUSIVE_CREATE = "s3.exclusive-create";
    public static final String MAX_ERROR_RETRIES = "s3.max-error-retries";
    public static final String RETRY_BASE_DELAY = "s3.retry-base-delay";
    public static final String SOCKET_TIMEOUT = "s3.socket-timeout";
    public static final String SMALL_OBJECT_THRESHOLD = "s3.small-object-threshold";
    // Trino's name for the socket timeout before release 477
    private static final String SOCKET_READ_TIMEOUT = "s3.socket-read-timeout";
    // Trino's default; a request is thus sent at most eleven times
    static final int DEFAULT_MAX_ERROR_RETRIES = 10;
    // the AWS SDK's base delay of its standard retry mode
    static final Duration DEFAULT_RETRY_BASE_DELAY = Duration.ofMillis(100);
    // Trino's parquet.small-file-threshold: a request costs about what a few MB take to transfer
    static final long DEFAULT_SMALL_OBJECT_THRESHOLD = 3L << 20;
    // an object held whole lives in one array
    static final long MAX_SMALL_OBJECT_THRESHOLD = 1L << 30;
    // a data size as Trino (airlift) writes one: 3MB, 512kB, 100B; a bare number is bytes
    private static final Pattern DATA_SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(B|kB|MB|GB)?");
    // a duration as Trino (airlift) writes one: 100ms, 1.5s, 2m
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m|h|d)");
    // Apache Paimon's names for the same settings
    private static final String PAIMON_ACCESS_KEY = "s3.access-key";
    private static final String PAIMON_SECRET_KEY = "s3.secret-key";
    private static final String PAIMON_PATH_STYLE_ACCESS = "s3.path.style.access";

    /**
     * Every property name this class reads.
     */
    public static final Set<String> PROPERTY_NAMES = Set.of(ENDPOINT, REGION, PATH_STYLE_ACCESS, ACCESS_KEY, SECRET_KEY, ALLOW_UNSAFE_COMMITS, EXCLUSIVE_CREATE,
            MAX_ERROR_RETRIES, RETRY_BASE_DELAY, SOCKET_TIMEOUT, SOCKET_READ_TIMEOUT, SMALL_OBJECT_THRESHOLD, PAIMON_ACCESS_KEY, PAIMON_SECRET_KEY, PAIMON_PATH_STYLE_ACCESS);

    /**
     * {@code properties} without the keys that carry credentials: what may travel with a split
     * to a worker that reaches the store with credentials of its own.
     */
    public static Map<String, String> withoutCredentials(Map<String, String> properties)
    {
        Set<String> secret = Set.of(ACCESS_KEY, SECRET_KEY, PAIMON_ACCESS_KEY, PAIMON_SECRET_KEY);
        return properties.entrySet().stream()
                .filter(entry -> !secret.contains(entry.getKey()))
                .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    public S3Settings
    {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(region, "region is null");
        requireNonNull(accessKey, "accessKey is null");
        requireNonNull(secretKey, "secretKey is null");
        requireNonNull(retryBaseDelay, "retryBaseDelay is null");
        requireNonNull(socketTimeout, "socketTimeout is null");
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw new IllegalArgumentException("Give both %s and %s, or neither".formatted(ACCESS_KEY, SECRET_KEY));
        }
        if (maxErrorRetries < 0) {
            throw new IllegalArgumentException("%s must not be negative: %s".formatted(MAX_ERROR_RETRIES, maxErrorRetries));
        }
        if (retryBaseDelay.isNegative()) {
            throw new IllegalArgumentException("%s must not be negative: %s".formatted(RETRY_BASE_DELAY, retryBaseDelay));
        }
        if (socketTimeout.isPresent() && (socketTimeout.get().isNegative() || socketTimeout.get().isZero())) {
            throw new IllegalArgumentException("%s must be positive: %s".formatted(SOCKET_TIMEOUT, socketTimeout.get()));
        }
        if (smallObjectThreshold < 0 || smallObjectThreshold > MAX_SMALL_OBJECT_THRESHOLD) {
            throw new IllegalArgumentException("%s must be between 0 and 1GB: %s bytes".formatted(SMALL_OBJECT_THRESHOLD, smallObjectThreshold));
        }
    }

    /**
     * The settings in {@code properties}; names this class does not know are ignored.
     *
     * @throws IllegalArgumentException naming the property whose value is not valid
     */
    public static S3Settings fromProperties(Map<String, String> properties)
    {
        requireNonNull(properties, "properties is null");
        Optional<URI> endpoint = value(properties, ENDPOINT).map(text -> {
            URI uri;
            try {
                uri = URI.create(text);
            }
            catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("%s is not a URI: %s".formatted(ENDPOINT, text), e);
            }
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("%s must be an http:// or https:// address: %s".formatted(ENDPOINT, text));
            }
            return uri;
        });
        return new S3Settings(
                endpoint,
                value(properties, REGION),
                flag(properties, PATH_STYLE_ACCESS, PAIMON_PATH_STYLE_ACCESS),
                value(properties, ACCESS_KEY, PAIMON_ACCESS_KEY),
                value(properties, SECRET_KEY, PAIMON_SECRET_KEY),
                flag(properties, ALLOW_UNSAFE_COMMITS) || (properties.containsKey(EXCLUSIVE_CREATE) && !flag(properties, EXCLUSIVE_CREATE)),
                value(properties, MAX_ERROR_RETRIES).map(text -> count(MAX_ERROR_RETRIES, text)).orElse(DEFAULT_MAX_ERROR_RETRIES),
                value(properties, RETRY_BASE_DELAY).map(text -> duration(RETRY_BASE_DELAY, text)).orElse(DEFAULT_RETRY_BASE_DELAY),
                value(properties, SOCKET_TIMEOUT, SOCKET_READ_TIMEOUT).map(text -> duration(SOCKET_TIMEOUT, text)),
                value(properties, SMALL_OBJECT_THRESHOLD).map(text -> dataSize(SMALL_OBJECT_THRESHOLD, text)).orElse(DEFAULT_SMALL_OBJECT_THRESHOLD));
    }

    private static Optional<String> value(Map<String, String> properties, String... names)
    {
        for (String name : names) {
            String value = properties.get(name);
            if (value != null && !value.isBlank()) {
                return Optional.of(value.strip());
            }
        }
        return Optional.empty();
    }

    private static boolean flag(Map<String, String> properties, String... names)
    {
        Optional<String> value = value(properties, names);
        if (value.isEmpty()) {
            return false;
        }
        return switch (value.get().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("%s must be true or false: %s".formatted(names[0], value.get()));
        };
    }

    private static int count(String name, String text)
    {
        try {
            int value = Integer.parseInt(text);
            if (value >= 0) {
                return value;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("%s must be a whole number, 0 or more: %s".formatted(name, text));
    }

    /**
     * A duration in Trino's spelling: a number and a unit ({@code ns}, {@code us}, {@code ms},
     * {@code s}, {@code m}, {@code h}, {@code d}).
     */
    private static Duration duration(String name, String text)
    {
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("%s must be a duration such as 100ms, 10s or 1m: %s".formatted(name, text));
        }
        TimeUnit unit = switch (matcher.group(2)) {
            case "ns" -> TimeUnit.NANOSECONDS;
            case "us" -> TimeUnit.MICROSECONDS;
            case "ms" -> TimeUnit.MILLISECONDS;
            case "s" -> TimeUnit.SECONDS;
            case "m" -> TimeUnit.MINUTES;
            case "h" -> TimeUnit.HOURS;
            default -> TimeUnit.DAYS;
        };
        double nanos = Double.parseDouble(matcher.group(1)) * unit.toNanos(1);
        if (nanos > Long.MAX_VALUE) {
            throw new IllegalArgumentException("%s is too long: %s".formatted(name, text));
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /**
     * A data size in Trino's spelling: a number and a unit ({@code B}, {@code kB}, {@code MB},
     * {@code GB}, each 1024 times the one before), or a number of bytes.
     */
    private static long dataSize(String name, String text)
    {
        Matcher matcher = DATA_SIZE.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("%s must be a data size such as 3MB, 512kB or 0B: %s".formatted(name, text));
        }
        long unit = switch (matcher.group(2) == null ? "B" : matcher.group(2)) {
            case "kB" -> 1L << 10;
            case "MB" -> 1L << 20;
            case "GB" -> 1L << 30;
            default -> 1;
        };
        // saturates at Long.MAX_VALUE, which the bounds check of the setting refuses
        return Math.round(Double.parseDouble(matcher.group(1)) * unit);
    }

    @Override
    public String toString()
    {
        // never the secret
        return "S3Settings{endpoint=%s, region=%s, pathStyleAccess=%s, accessKey=%s, maxErrorRetries=%s, smallObjectThreshold=%s}".formatted(endpoint.map(URI::toString).orElse("AWS"), region.orElse("default"), pathStyleAccess,
                accessKey.isPresent() ? "set" : "default chain", maxErrorRetries, smallObjectThreshold);
    }
}
