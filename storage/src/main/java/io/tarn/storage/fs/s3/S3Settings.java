package io.tarn.storage.fs.s3;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
 */
public record S3Settings(
        Optional<URI> endpoint,
        Optional<String> region,
        boolean pathStyleAccess,
        Optional<String> accessKey,
        Optional<String> secretKey,
        boolean allowUnsafeCommits)
{
    public static final String ENDPOINT = "s3.endpoint";
    public static final String REGION = "s3.region";
    public static final String PATH_STYLE_ACCESS = "s3.path-style-access";
    public static final String ACCESS_KEY = "s3.aws-access-key";
    public static final String SECRET_KEY = "s3.aws-secret-key";
    public static final String ALLOW_UNSAFE_COMMITS = "s3.allow-unsafe-commits";
    // Trino's native S3 file system: false says the store does not honour conditional writes
    public static final String EXCLUSIVE_CREATE = "s3.exclusive-create";
    // Apache Paimon's names for the same settings
    private static final String PAIMON_ACCESS_KEY = "s3.access-key";
    private static final String PAIMON_SECRET_KEY = "s3.secret-key";
    private static final String PAIMON_PATH_STYLE_ACCESS = "s3.path.style.access";

    /**
     * Every property name this class reads.
     */
    public static final Set<String> PROPERTY_NAMES = Set.of(ENDPOINT, REGION, PATH_STYLE_ACCESS, ACCESS_KEY, SECRET_KEY, ALLOW_UNSAFE_COMMITS, EXCLUSIVE_CREATE,
            PAIMON_ACCESS_KEY, PAIMON_SECRET_KEY, PAIMON_PATH_STYLE_ACCESS);

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
        if (accessKey.isPresent() != secretKey.isPresent()) {
            throw new IllegalArgumentException("Give both %s and %s, or neither".formatted(ACCESS_KEY, SECRET_KEY));
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
                flag(properties, ALLOW_UNSAFE_COMMITS) || (properties.containsKey(EXCLUSIVE_CREATE) && !flag(properties, EXCLUSIVE_CREATE)));
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

    @Override
    public String toString()
    {
        // never the secret
        return "S3Settings{endpoint=%s, region=%s, pathStyleAccess=%s, accessKey=%s}".formatted(endpoint.map(URI::toString).orElse("AWS"), region.orElse("default"), pathStyleAccess, accessKey.isPresent() ? "set" : "default chain");
    }
}
