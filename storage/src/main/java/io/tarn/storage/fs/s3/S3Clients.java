package io.tarn.storage.fs.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The S3 client of a store's settings: endpoint, path style, credentials (static keys or the AWS
 * default chain) and region (the setting, the AWS default chain, else {@code us-east-1}).
 */
final class S3Clients
{
    private S3Clients() {}

    static S3ClientBuilder builder(S3Settings settings)
    {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(64))
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
