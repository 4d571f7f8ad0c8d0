package io.tarn.s3server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.testng.annotations.AfterClass;
import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The proxy in front of a small HTTP server of the JDK's: requests and answers pass unchanged
 * over kept-alive connections, bodies framed by length or by chunks both ways, and each armed
 * fault hits exactly the requests it matches.
 */
public class TestFaultInjectingProxy
{
    private static final byte[] OBJECT = randomBytes(100_000);

    private HttpServer server;
    private FaultInjectingProxy proxy;
    // what the server last received, as echoed
    private volatile byte[] lastBody;

    @BeforeClass
    public void start()
            throws IOException
    {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        // GET answers the object, sized; any other method echoes the body it got, chunked
        server.createContext("/", exchange -> {
            try {
                byte[] received = exchange.getRequestBody().readAllBytes();
                if (exchange.getRequestMethod().equals("GET") || exchange.getRequestMethod().equals("HEAD")) {
                    exchange.getResponseHeaders().add("X-Path", exchange.getRequestURI().getRawPath());
                    exchange.sendResponseHeaders(200, exchange.getRequestMethod().equals("HEAD") ? -1 : OBJECT.length);
                    if (exchange.getRequestMethod().equals("GET")) {
                        exchange.getResponseBody().write(OBJECT);
                    }
                    return;
                }
                echo(exchange, received);
            }
            finally {
                exchange.close();
            }
        });
        server.start();
        proxy = FaultInjectingProxy.start(URI.create("http://127.0.0.1:" + server.getAddress().getPort()));
    }

    private void echo(HttpExchange exchange, byte[] received)
            throws IOException
    {
        lastBody = received;
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(received);
        }
    }

    @AfterClass(alwaysRun = true)
    public void stop()
    {
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.stop(0);
        }
    }

    @AfterMethod(alwaysRun = true)
    public void disarm()
    {
        proxy.clearFaults();
        proxy.setLatency(Duration.ZERO);
    }

    @Test
    public void testRequestsPassOverOneKeptAliveConnection()
            throws IOException
    {
        long before = proxy.requestCount();
        long getsBefore = proxy.requestCount("GET");
        long headsBefore = proxy.requestCount("HEAD");
        long bytesBefore = proxy.answeredBytes();
        long faultsBefore = proxy.faultCount();
        try (Connection connection = new Connection()) {
            for (int i = 0; i < 3; i++) {
                Answer answer = connection.send("GET /bucket/some%3Dkey?x=1 HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]);
                assertThat(answer.status()).isEqualTo(200);
                assertThat(answer.head().contentLength()).isEqualTo(OBJECT.length);
                assertThat(answer.body()).isEqualTo(OBJECT);
                assertThat(answer.head().header("X-Path")).contains("/bucket/some%3Dkey");
            }
            Answer head = connection.send("HEAD /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
            assertThat(connection.send("GET /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).body()).isEqualTo(OBJECT);
        }
        assertThat(proxy.requestCount() - before).isEqualTo(5);
        assertThat(proxy.requestCount("GET") - getsBefore).isEqualTo(4);
        assertThat(proxy.requestCount("HEAD") - headsBefore).isEqualTo(1);
        assertThat(proxy.answeredBytes() - bytesBefore).isEqualTo(4L * OBJECT.length);
        assertThat(proxy.faultCount() - faultsBefore).isZero();
    }

    @Test
    public void testRequestsAreLoggedByMethodAndDecodedTarget()
            throws IOException
    {
        proxy.clearRequestLog();
        try (Connection connection = new Connection()) {
            connection.send("GET /bucket/some%3Dkey?x=1 HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]);
            connection.send("HEAD /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]);
        }
        assertThat(proxy.requestLog()).containsExactly("GET /bucket/some=key?x=1", "HEAD /bucket/key");
        proxy.clearRequestLog();
        assertThat(proxy.requestLog()).isEmpty();
    }

    @Test
    public void testBodiesPassFramedByLengthOrByChunks()
            throws IOException
    {
        byte[] content = randomBytes(70_000);
        try (Connection connection = new Connection()) {
            Answer sized = connection.send("PUT /bucket/sized HTTP/1.1\r\nHost: proxy\r\nContent-Length: " + content.length + "\r\n\r\n", content);
            assertThat(sized.head().chunked()).isTrue();
            assertThat(sized.body()).isEqualTo(content);

            ByteArrayOutputStream chunked = new ByteArrayOutputStream();
            chunked.writeBytes("1000;ext=1\r\n".getBytes(ISO_8859_1));
            chunked.write(content, 0, 0x1000);
            chunked.writeBytes("\r\n%x\r\n".formatted(content.length - 0x1000).getBytes(ISO_8859_1));
            chunked.write(content, 0x1000, content.length - 0x1000);
            // the JDK's server takes no trailers, which the framing test below covers
            chunked.writeBytes("\r\n0\r\n\r\n".getBytes(ISO_8859_1));
            Answer echoed = connection.send("POST /bucket/chunked?uploads HTTP/1.1\r\nHost: proxy\r\nTransfer-Encoding: chunked\r\n\r\n", chunked.toByteArray());
            assertThat(echoed.body()).isEqualTo(content);
        }
    }

    /**
     * A chunked body is copied as it came, up to its end and not a byte further; a sized one
     * likewise.
     */
    @Test
    public void testFramingFindsTheEndOfABody()
            throws IOException
    {
        byte[] chunked = "4;name=value\r\nabcd\r\n0\r\nX-Trailer: yes\r\n\r\nNEXT".getBytes(ISO_8859_1);
        InputStream in = new ByteArrayInputStream(chunked);
        HttpHead request = HttpHead.read(new ByteArrayInputStream("PUT /b/k HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(ISO_8859_1)));
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        request.copyRequestBody(in, copy);
        assertThat(copy.toByteArray()).isEqualTo(Arrays.copyOf(chunked, chunked.length - 4));
        assertThat(in.readAllBytes()).isEqualTo("NEXT".getBytes(ISO_8859_1));

        HttpHead sized = HttpHead.read(new ByteArrayInputStream("HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\n".getBytes(ISO_8859_1)));
        in = new ByteArrayInputStream("abcdef".getBytes(ISO_8859_1));
        copy.reset();
        sized.copyResponseBody("GET", in, copy);
        assertThat(copy.toString(ISO_8859_1)).isEqualTo("abc");
        copy.reset();
        sized.copyResponseBody("HEAD", in, copy);
        assertThat(copy.size()).isZero();
        assertThatThrownBy(() -> sized.copyResponseBody("GET", new ByteArrayInputStream(new byte[2]), new ByteArrayOutputStream()))
                .isInstanceOf(EOFException.class);
    }

    @Test
    public void testContinueIsRelayedBeforeTheBody()
            throws IOException
    {
        byte[] content = randomBytes(5000);
        try (Connection connection = new Connection()) {
            connection.write(("PUT /bucket/continued HTTP/1.1\r\nHost: proxy\r\nExpect: 100-continue\r\nContent-Length: " + content.length + "\r\n\r\n").getBytes(ISO_8859_1));
            HttpHead interim = HttpHead.read(connection.in);
            assertThat(interim.status()).isEqualTo(100);
            connection.write(content);
            Answer answer = connection.readAnswer("PUT");
            assertThat(answer.body()).isEqualTo(content);
        }
    }

    @Test
    public void testErrorsHitTheMatchingRequestsOnly()
            throws IOException
    {
        long internalErrors = proxy.faultCount(Fault.Kind.INTERNAL_ERROR);
        long slowDowns = proxy.faultCount(Fault.Kind.SLOW_DOWN);
        proxy.inject(Fault.internalError().times(2).onMethod("get").onTargetContaining("/bucket/wanted"));
        proxy.inject(Fault.slowDown().onMethod("PUT"));
        proxy.inject(Fault.error(404, "NoSuchUpload").onMethod("POST").onTargetContaining("uploadId=7"));
        try (Connection connection = new Connection()) {
            Answer noSuchUpload = connection.send("POST /bucket/key?uploadId=7 HTTP/1.1\r\nHost: proxy\r\nContent-Length: 0\r\n\r\n", new byte[0]);
            assertThat(noSuchUpload.status()).isEqualTo(404);
            assertThat(new String(noSuchUpload.body(), UTF_8)).contains("<Code>NoSuchUpload</Code>");
            assertThat(connection.send("POST /bucket/key?uploadId=8 HTTP/1.1\r\nHost: proxy\r\nContent-Length: 0\r\n\r\n", new byte[0]).status()).isEqualTo(200);
            assertThat(connection.send("GET /bucket/other HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).status()).isEqualTo(200);
            Answer first = connection.send("GET /bucket/wanted%2Fkey HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]);
            assertThat(first.status()).isEqualTo(500);
            assertThat(new String(first.body(), UTF_8)).contains("<Code>InternalError</Code>").contains("<Resource>/bucket/wanted/key</Resource>");
            // the connection stays usable after an injected answer
            assertThat(connection.send("GET /bucket/wanted/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).status()).isEqualTo(500);
            assertThat(connection.send("GET /bucket/wanted/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).body()).isEqualTo(OBJECT);

            byte[] content = randomBytes(100);
            Answer slowDown = connection.send("PUT /bucket/put HTTP/1.1\r\nHost: proxy\r\nContent-Length: 100\r\n\r\n", content);
            assertThat(slowDown.status()).isEqualTo(503);
            assertThat(new String(slowDown.body(), UTF_8)).contains("<Code>SlowDown</Code>");
            assertThat(connection.send("PUT /bucket/put HTTP/1.1\r\nHost: proxy\r\nContent-Length: 100\r\n\r\n", content).body()).isEqualTo(content);
        }
        assertThat(proxy.faultCount(Fault.Kind.INTERNAL_ERROR) - internalErrors).isEqualTo(2);
        assertThat(proxy.faultCount(Fault.Kind.SLOW_DOWN) - slowDowns).isEqualTo(1);
    }

    /**
     * A client that holds back its body until it hears {@code 100 Continue} and hears an error
     * instead is told the connection closes: it never sends the body.
     */
    @Test
    public void testAnErrorBeforeAHeldBackBodyClosesTheConnection()
            throws IOException
    {
        proxy.inject(Fault.slowDown());
        try (Connection connection = new Connection()) {
            connection.write("PUT /bucket/held HTTP/1.1\r\nHost: proxy\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n".getBytes(ISO_8859_1));
            Answer answer = connection.readAnswer("PUT");
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.head().header("Connection")).contains("close");
            assertThat(connection.in.read()).isEqualTo(-1);
        }
    }

    @Test
    public void testResetAnswersNothing()
            throws IOException
    {
        proxy.inject(Fault.connectionReset().always());
        try (Connection connection = new Connection()) {
            connection.write("GET /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n".getBytes(ISO_8859_1));
            assertThatThrownBy(() -> {
                if (connection.in.read() < 0) {
                    throw new SocketException("closed without an answer");
                }
            }).isInstanceOf(SocketException.class);
        }
        proxy.clearFaults();
        try (Connection connection = new Connection()) {
            assertThat(connection.send("GET /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).status()).isEqualTo(200);
        }
    }

    /**
     * The server gets the request and answers; the client gets a reset instead.
     */
    @Test
    public void testAnswerIsLostAfterTheServerActed()
            throws IOException
    {
        byte[] content = randomBytes(10);
        proxy.inject(Fault.answerLost().onMethod("PUT"));
        try (Connection connection = new Connection()) {
            connection.write(("PUT /bucket/lost HTTP/1.1\r\nHost: proxy\r\nContent-Length: 10\r\n\r\n").getBytes(ISO_8859_1));
            connection.write(content);
            assertThatThrownBy(() -> {
                if (connection.in.read() < 0) {
                    throw new SocketException("closed without an answer");
                }
            }).isInstanceOf(SocketException.class);
        }
        assertThat(lastBody).isEqualTo(content);
    }

    @Test
    public void testBodyIsCutAfterItsFirstBytes()
            throws IOException
    {
        proxy.inject(Fault.bodyCutAfter(1000));
        try (Connection connection = new Connection()) {
            connection.write("GET /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n".getBytes(ISO_8859_1));
            HttpHead head = HttpHead.read(connection.in);
            assertThat(head.contentLength()).isEqualTo(OBJECT.length);
            byte[] received = connection.in.readAllBytes();
            assertThat(received).isEqualTo(Arrays.copyOf(OBJECT, 1000));
        }
        assertThat(proxy.faultCount(Fault.Kind.BODY_CUT)).isEqualTo(1);
    }

    @Test
    public void testAnswersAreHeldBack()
            throws IOException
    {
        proxy.inject(Fault.firstByteDelay(Duration.ofMillis(400)).onMethod("GET"));
        try (Connection connection = new Connection()) {
            long start = System.nanoTime();
            assertThat(connection.send("GET /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).body()).isEqualTo(OBJECT);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));

            proxy.setLatency(Duration.ofMillis(150));
            start = System.nanoTime();
            for (int i = 0; i < 3; i++) {
                assertThat(connection.send("HEAD /bucket/key HTTP/1.1\r\nHost: proxy\r\n\r\n", new byte[0]).status()).isEqualTo(200);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(450));
        }
        assertThat(proxy.faultCount(Fault.Kind.FIRST_BYTE_DELAY)).isEqualTo(1);
    }

    @Test
    public void testClientPropertiesPointAtTheProxy()
    {
        Map<String, String> properties = proxy.clientProperties(Map.of("s3.endpoint", "http://127.0.0.1:1", "s3.region", "us-east-1"));
        assertThat(properties).containsEntry("s3.endpoint", proxy.endpoint().toString()).containsEntry("s3.region", "us-east-1");
        assertThat(FaultInjectingProxy.percentDecoded("/b/dt%3D2024/a+b%20c?prefix=x%2F")).isEqualTo("/b/dt=2024/a+b c?prefix=x/");
        assertThatThrownBy(() -> Fault.internalError().times(0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] randomBytes(int length)
    {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    private record Answer(HttpHead head, byte[] body)
    {
        int status()
                throws IOException
        {
            return head.status();
        }
    }

    /**
     * A client connection to the proxy, speaking HTTP/1.1 by hand.
     */
    private final class Connection
            implements AutoCloseable
    {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Connection()
                throws IOException
        {
            socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
            socket.setSoTimeout(10_000);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        Answer send(String head, byte[] body)
                throws IOException
        {
            write(head.getBytes(ISO_8859_1));
            write(body);
            return readAnswer(head.substring(0, head.indexOf(' ')));
        }

        void write(byte[] bytes)
                throws IOException
        {
            out.write(bytes);
            out.flush();
        }

        Answer readAnswer(String method)
                throws IOException
        {
            HttpHead head = HttpHead.read(in);
            assertThat(head).as("an answer").isNotNull();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            head.copyResponseBody(method, in, body);
            byte[] bytes = body.toByteArray();
            if (head.chunked()) {
                bytes = dechunk(bytes);
            }
            return new Answer(head, bytes);
        }

        @Override
        public void close()
                throws IOException
        {
            socket.close();
        }
    }

    private static byte[] dechunk(byte[] chunked)
            throws IOException
    {
        InputStream in = new ByteArrayInputStream(chunked);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            int size = Integer.parseInt(line.toString().split(";")[0].strip(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(size));
            in.skipNBytes(2);
        }
    }
}
