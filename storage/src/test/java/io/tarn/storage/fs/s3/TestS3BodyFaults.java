package io.tarn.storage.fs.s3;

import io.tarn.s3server.S3ProxyServer;
import io.tarn.storage.fs.InputFile;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bodies that break off mid-transfer, as a reset connection leaves them: the client receives the
 * first bytes of a GET's body, then an {@link IOException}. Reads send the GET again and succeed,
 * or, when every attempt breaks, fail with an error naming the object.
 */
public class TestS3BodyFaults
{
    private static final String PATH = "s3://tarn-bucket/faults/object";

    private final AtomicInteger bodiesToBreak = new AtomicInteger();
    private final AtomicInteger bodiesBroken = new AtomicInteger();
    private Path serverDirectory;
    private S3ProxyServer server;
    private S3FileIO fileIO;
    private byte[] content;

    @BeforeClass
    public void startServer()
            throws IOException
    {
        serverDirectory = TemporaryDirectories.create("tarn-s3-faults");
        server = S3ProxyServer.start(serverDirectory);
        content = new byte[200_000];
        new Random(11).nextBytes(content);
        Files.createDirectories(server.bucket("tarn-bucket").resolve("faults"));
        Files.write(server.bucket("tarn-bucket").resolve("faults").resolve("object"), content);
        Map<String, String> properties = new HashMap<>(server.clientProperties());
        properties.put(S3Settings.MAX_ERROR_RETRIES, "3");
        properties.put(S3Settings.RETRY_BASE_DELAY, "20ms");
        // added to the client's configuration, which a new one would replace (its retries included)
        fileIO = new S3FileIO(S3Settings.fromProperties(properties), builder -> builder.overrideConfiguration(builder.overrideConfiguration().toBuilder().addExecutionInterceptor(new BreakingBodies()).build()));
    }

    @AfterClass(alwaysRun = true)
    public void stopServer()
    {
        if (fileIO != null) {
            fileIO.close();
        }
        if (server != null) {
            server.close();
        }
        TemporaryDirectories.deleteRecursively(serverDirectory);
    }

    @Test
    public void testBrokenBodiesAreFetchedAgain()
            throws IOException
    {
        bodiesToBreak.set(2);
        bodiesBroken.set(0);
        InputFile file = fileIO.newInputFile(PATH);
        // the tail: the first GET breaks, the second brings it
        assertThat(file.length()).isEqualTo(content.length);
        byte[] range = new byte[50_000];
        // a range outside the tail: breaks once more, then arrives
        file.readFully(1000, range, 0, range.length);
        assertThat(range).isEqualTo(Arrays.copyOfRange(content, 1000, 51_000));
        assertThat(fileIO.newInputFile(PATH).readAllBytes()).isEqualTo(content);
        assertThat(bodiesBroken.get()).isEqualTo(2);
    }

    @Test
    public void testABodyThatAlwaysBreaksFailsNamingTheObject()
    {
        bodiesToBreak.set(Integer.MAX_VALUE);
        try {
            assertThatThrownBy(() -> fileIO.newInputFile(PATH).readFully(1000, new byte[50_000], 0, 50_000))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(PATH)
                    .hasMessageContaining("broke off 4 times");
        }
        finally {
            bodiesToBreak.set(0);
        }
    }

    /**
     * Breaks the bodies of the next GETs after their first kilobyte.
     */
    private final class BreakingBodies
            implements ExecutionInterceptor
    {
        @Override
        public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context, ExecutionAttributes attributes)
        {
            Optional<InputStream> body = context.responseBody();
            if (body.isEmpty() || context.httpRequest().method() != SdkHttpMethod.GET || bodiesToBreak.getAndUpdate(left -> Math.max(0, left - 1)) == 0) {
                return body;
            }
            bodiesBroken.incrementAndGet();
            return Optional.of(new FilterInputStream(body.get())
            {
                private long delivered;

                @Override
                public int read()
                        throws IOException
                {
                    breakOff();
                    int value = super.read();
                    delivered++;
                    return value;
                }

                @Override
                public int read(byte[] buffer, int offset, int length)
                        throws IOException
                {
                    breakOff();
                    int read = super.read(buffer, offset, (int) Math.min(length, Math.max(1, 1024 - delivered)));
                    delivered += Math.max(read, 0);
                    return read;
                }

                private void breakOff()
                        throws SocketException
                {
                    if (delivered >= 1024) {
                        throw new SocketException("Connection reset (injected after " + delivered + " bytes)");
                    }
                }
            });
        }
    }
}
