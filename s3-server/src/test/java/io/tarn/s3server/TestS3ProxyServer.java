package io.tarn.s3server;

import org.testng.annotations.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

public class TestS3ProxyServer
{
    @Test
    public void testServesTheBucketsOfItsDirectory()
            throws Exception
    {
        Path work = Files.createTempDirectory("tarn-s3proxy");
        try (S3ProxyServer server = S3ProxyServer.start(work)) {
            Files.writeString(server.bucket("tarn-bucket").resolve("object.txt"), "hello");
            assertThat(server.endpoint().getHost()).isEqualTo("127.0.0.1");
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/tarn-bucket/object.txt")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("hello");
            assertThat(server.clientProperties()).containsEntry("s3.endpoint", server.endpoint().toString());
        }
        finally {
            try (Stream<Path> paths = Files.walk(work)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }
}
