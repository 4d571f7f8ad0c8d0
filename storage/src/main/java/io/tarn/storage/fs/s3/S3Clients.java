package io.tarn.storage.fs.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import java.io.IOException;
import java.time.Duration;

/**
 * The S3 client of a store's settings: endpoint, path style, credentials (static keys or the AWS
 * default chain), region (the setting, the AWS default chain, else {@code us-east-1}), socket
 * timeout and retries.
 * <p>
 * Retries are explicit rather than the SDK's defaults, which depend on the environment
 * ({@code AWS_RETRY_MODE}, profiles): every request (GET, HEAD, LIST, PUT, each step of a
 * multipart upload) that fails with a 5xx answer, a throttling answer ({@code 503 SlowDown}) or
 * an I/O error (a reset connection, a timeout, an answer cut short before the SDK handed it over)
 * is sent again up to {@link S3Settings#maxErrorRetries} times, after a pause drawn at random up
 * to a bound that doubles from {@link S3Settings#retryBaseDelay} (ten times that for throttling).
 * The SDK's retry quota, which stops retrying once many requests of one client failed, is off:
 * it would fail reads that a later retry saves when a whole scan's requests fail at once, and the
 * bound on retries already limits the load a failing store gets.
 */
final class S3Clients
{
    // the AWS SDK's bound on one pause, in every retry mode
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(20);
    // the AWS SDK's standard mode waits ten times longer after a throttling answer (1 s vs 100 ms)
    private static final int THROTTLING_FACTOR = 10;

    private S3Clients() {}

    static S3ClientBuilder builder(S3Settings settings)
    {
        ApacheHttpClient.Builder httpClient = ApacheHttpClient.builder().maxConnections(64);
        settings.socketTimeout().ifPresent(httpClient::socketTimeout);
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(httpClient)
                .overrideConfiguration(configuration -> configuration.retryStrategy(retryStrategy(settings)))
                .forcePathStyle(settings.pathStyleAccess())
                .credentialsProvider(credentials(settings))
                .region(Region.of(settings.region().orElseGet(S3Clients::defaultRegion)));
        settings.endpoint().ifPresent(endpoint -> {
            builder.endpointOverride(endpoint);
            // S3-compatible stores (MinIO, Ceph, OSS, older S3Proxy) do not all accept the
            // checksum trailers that the SDK adds by default since 2.30; send them only when required
            builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
            builder.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        });
        return builder;
    }

    static RetryStrategy retryStrategy(S3Settings settings)
    {
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(settings.maxErrorRetries() + 1)
                .backoffStrategy(backoff(settings.retryBaseDelay()))
                .throttlingBackoffStrategy(backoff(settings.retryBaseDelay().multipliedBy(THROTTLING_FACTOR)))
                .retryOnException(S3Clients::brokeOff)
                .circuitBreakerEnabled(false)
                .build();
    }

    /**
     * Whether an I/O failure lies under {@code failure}: an answer cut short while the SDK
     * parsed it (a listing's XML) fails as a parse error around the connection's error, which
     * the SDK would not retry by itself.
     */
    private static boolean brokeOff(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The pauses between attempts: full jitter under a bound that doubles from {@code baseDelay}.
     */
    static BackoffStrategy backoff(Duration baseDelay)
    {
        if (baseDelay.isZero()) {
            return BackoffStrategy.retryImmediately();
        }
        return BackoffStrategy.exponentialDelay(baseDelay, baseDelay.compareTo(MAX_BACKOFF) > 0 ? baseDelay : MAX_BACKOFF);
    }

    private static AwsCredentialsProvider credentials(S3Settings settings)
    {
        if (settings.accessKey().isPresent()) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create(settings.accessKey().get(), settings.secretKey().orElseThrow()));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    private static String defaultRegion()
    {
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion().id();
        }
        catch (SdkException e) {
            // no region configured anywhere: S3-compatible stores accept any, AWS redirects
            return "us-east-1";
        }
    }
}
