package io.tarn.s3server;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * An HTTP/1.1 proxy on 127.0.0.1 in front of an S3-compatible server, which injects the faults a
 * test arms ({@link #inject}) into the requests that match them, and can hold back every answer
 * by a fixed latency ({@link #setLatency}), as a distant store would.
 * <p>
 * Requests are forwarded byte for byte, head and body as they came (a signed request stays
 * valid: its {@code Host} names the proxy both when signed and when checked), and answers are
 * streamed back as they come. Each request goes to the server over a connection of its own,
 * closed after the answer, so that a fault never leaves a half-used connection to the server;
 * the client's connections are kept alive between requests as the server's answers allow.
 * A request that expects {@code 100 Continue} gets the server's interim answer before its body
 * is forwarded; if the server answers finally instead, the client's connection ends after that
 * answer, since whether the client will still send the body is its choice.
 * <p>
 * Every request is counted, also by method, and so are the bytes of the answers' bodies relayed
 * (what a client pays a store for in transfer) and every fault injected, by kind. The latest
 * {@value #LOGGED_REQUESTS} requests are logged by method and target, so that a test can tell
 * what a client asked for.
 */
public final class FaultInjectingProxy
        implements AutoCloseable
{
    // how long a request that expects 100 Continue waits for the server's interim answer before
    // its body is forwarded anyway, as clients do
    private static final int CONTINUE_WAIT_MILLIS = 1000;
    // bounds the memory of a long benchmark behind the proxy
    private static final int LOGGED_REQUESTS = 100_000;

    private final InetSocketAddress target;
    private final ServerSocket serverSocket;
    private final ExecutorService threads;
    private final Set<Socket> openSockets = ConcurrentHashMap.newKeySet();
    // guarded by itself; the first armed fault that matches a request takes it
    private final List<ArmedFault> armed = new ArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final Map<String, AtomicLong> requestsByMethod = new ConcurrentHashMap<>();
    private final AtomicLong answeredBytes = new AtomicLong();
    // guarded by itself
    private final Deque<String> requestLog = new ArrayDeque<>();
    private final Map<Fault.Kind, AtomicLong> faults = new EnumMap<>(Fault.Kind.class);
    private final AtomicInteger requestIds = new AtomicInteger();
    private volatile long latencyNanos;
    // requests received and not yet answered, and the most there were at once
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();
    private volatile boolean closed;

    private FaultInjectingProxy(InetSocketAddress target, ServerSocket serverSocket)
    {
        this.target = target;
        this.serverSocket = serverSocket;
        AtomicInteger threadIds = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "fault-proxy-" + threadIds.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (Fault.Kind kind : Fault.Kind.values()) {
            faults.put(kind, new AtomicLong());
        }
    }

    /**
     * Starts a proxy to the HTTP server at {@code target} ({@code http://host:port}), listening
     * on an ephemeral port of 127.0.0.1.
     */
    public static FaultInjectingProxy start(URI target)
            throws IOException
    {
        requireNonNull(target, "target is null");
        if (!"http".equalsIgnoreCase(target.getScheme()) || target.getHost() == null) {
            throw new IllegalArgumentException("The proxy forwards to an http://host:port address: " + target);
        }
        InetSocketAddress address = new InetSocketAddress(target.getHost(), target.getPort() < 0 ? 80 : target.getPort());
        ServerSocket serverSocket = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        FaultInjectingProxy proxy = new FaultInjectingProxy(address, serverSocket);
        proxy.threads.execute(proxy::acceptConnections);
        return proxy;
    }

    public URI endpoint()
    {
        return URI.create("http://127.0.0.1:" + serverSocket.getLocalPort());
    }

    public int port()
    {
        return serverSocket.getLocalPort();
    }

    /**
     * {@code storeProperties}, the settings that reach the server ({@link S3ProxyServer#clientProperties()}),
     * with {@code s3.endpoint} pointing at this proxy instead.
     */
    public Map<String, String> clientProperties(Map<String, String> storeProperties)
    {
        Map<String, String> properties = new HashMap<>(storeProperties);
        properties.put("s3.endpoint", endpoint().toString());
        return Map.copyOf(properties);
    }

    /**
     * Arms {@code fault}: the next {@link Fault#times} requests that match it, and no earlier
     * armed fault, get it.
     */
    public void inject(Fault fault)
    {
        requireNonNull(fault, "fault is null");
        synchronized (armed) {
            armed.add(new ArmedFault(fault, new AtomicInteger(fault.times())));
        }
    }

    /**
     * Disarms every fault not yet used up.
     */
    public void clearFaults()
    {
        synchronized (armed) {
            armed.clear();
        }
    }

    /**
     * Holds back the first byte of every answer by {@code latency} from now on (zero: none).
     */
    public void setLatency(Duration latency)
    {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("Negative latency: " + latency);
        }
        latencyNanos = latency.toNanos();
    }

    /**
     * Requests received so far, faulted or not.
     */
    public long requestCount()
    {
        return requests.get();
    }

    /**
     * Requests received so far with HTTP method {@code method} ({@code GET}, {@code HEAD}, ...).
     * S3 lists objects by {@code GET} too.
     */
    public long requestCount(String method)
    {
        AtomicLong count = requestsByMethod.get(method);
        return count == null ? 0 : count.get();
    }

    /**
     * The requests received since the proxy started or {@link #clearRequestLog()}, at most the
     * latest {@value #LOGGED_REQUESTS}, in the order received: each its method and its target,
     * percent-decoded ({@code GET /bucket/key}, {@code GET /bucket?list-type=2&prefix=...}).
     */
    public List<String> requestLog()
    {
        synchronized (requestLog) {
            return List.copyOf(requestLog);
        }
    }

    public void clearRequestLog()
    {
        synchronized (requestLog) {
            requestLog.clear();
        }
        mostInFlight.set(inFlight.get());
    }

    /**
     * The most requests that were received and not yet answered at the same moment, since the
     * proxy started or {@link #clearRequestLog()}: whether a client sends requests side by side.
     */
    public int mostRequestsInFlight()
    {
        return mostInFlight.get();
    }

    private void log(HttpHead request)
    {
        String entry = request.method() + " " + percentDecoded(request.target());
        synchronized (requestLog) {
            if (requestLog.size() == LOGGED_REQUESTS) {
                requestLog.removeFirst();
            }
            requestLog.addLast(entry);
        }
    }

    /**
     * Bytes of answer bodies relayed to clients so far, as framed on the wire (a chunked body
     * with its chunk lines); heads are not counted.
     */
    public long answeredBytes()
    {
        return answeredBytes.get();
    }

    /**
     * Faults injected so far.
     */
    public long faultCount()
    {
        return faults.values().stream().mapToLong(AtomicLong::get).sum();
    }

    public long faultCount(Fault.Kind kind)
    {
        return faults.get(kind).get();
    }

    @Override
    public void close()
    {
        closed = true;
        try {
            serverSocket.close();
        }
        catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : openSockets) {
            closeQuietly(socket);
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptConnections()
    {
        while (!closed) {
            Socket client;
            try {
                client = serverSocket.accept();
            }
            catch (IOException e) {
                // closed, or a connection that failed before it was accepted
                continue;
            }
            openSockets.add(client);
            try {
                threads.execute(() -> serve(client));
            }
            catch (RuntimeException e) {
                // shutting down
                openSockets.remove(client);
                closeQuietly(client);
            }
        }
    }

    private void serve(Socket client)
    {
        try {
            client.setTcpNoDelay(true);
            InputStream clientIn = new BufferedInputStream(client.getInputStream());
            OutputStream clientOut = new BufferedOutputStream(client.getOutputStream());
            while (!closed) {
                HttpHead request = HttpHead.read(clientIn);
                if (request == null) {
                    return;
                }
                requests.incrementAndGet();
                requestsByMethod.computeIfAbsent(request.method(), method -> new AtomicLong()).incrementAndGet();
                log(request);
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                boolean keepAlive;
                try {
                    keepAlive = answer(request, client, clientIn, clientOut);
                }
                finally {
                    inFlight.decrementAndGet();
                }
                if (!keepAlive) {
                    return;
                }
            }
        }
        catch (IOException e) {
            // the connection ends: a client that gave up, a server that closed, or a cut answer
        }
        finally {
            openSockets.remove(client);
            closeQuietly(client);
        }
    }

    private boolean answer(HttpHead request, Socket client, InputStream clientIn, OutputStream clientOut)
            throws IOException
    {
        Fault fault = takeFault(request);
        boolean keepAlive;
        if (fault == null) {
            keepAlive = forward(request, null, client, clientIn, clientOut);
        }
        else {
            faults.get(fault.kind()).incrementAndGet();
            switch (fault.kind()) {
                case INTERNAL_ERROR, SLOW_DOWN, ERROR -> keepAlive = answerError(request, fault, clientIn, clientOut);
                case CONNECTION_RESET -> {
                    // no answer at all, and an RST rather than an orderly close
                    client.setSoLinger(true, 0);
                    keepAlive = false;
                }
                case FIRST_BYTE_DELAY, ANSWER_LOST, BODY_CUT -> keepAlive = forward(request, fault, client, clientIn, clientOut);
                default -> throw new IllegalStateException("Unknown fault " + fault.kind());
            }
        }
        return keepAlive;
    }

    /**
     * Takes one use of the first armed fault that matches {@code request}, or returns null.
     */
    private Fault takeFault(HttpHead request)
    {
        String method = request.method();
        String target = percentDecoded(request.target());
        synchronized (armed) {
            for (Iterator<ArmedFault> iterator = armed.iterator(); iterator.hasNext(); ) {
                ArmedFault candidate = iterator.next();
                if (!candidate.fault().matches(method, target)) {
                    continue;
                }
                Fault fault = candidate.fault();
                if (fault.times() != Integer.MAX_VALUE && candidate.left().decrementAndGet() == 0) {
                    iterator.remove();
                }
                return fault;
            }
        }
        return null;
    }

    /**
     * Sends {@code request} to the server and streams its answer back, with {@code fault} (a
     * delay, a lost answer or a cut, or none) applied to the answer. Returns whether the
     * client's connection may carry another request.
     */
    private boolean forward(HttpHead request, Fault fault, Socket client, InputStream clientIn, OutputStream clientOut)
            throws IOException
    {
        Socket upstream = new Socket();
        openSockets.add(upstream);
        try {
            upstream.setTcpNoDelay(true);
            upstream.connect(target, 10_000);
            InputStream upstreamIn = new BufferedInputStream(upstream.getInputStream());
            OutputStream upstreamOut = new BufferedOutputStream(upstream.getOutputStream());
            upstreamOut.write(request.raw());
            if (hasBody(request)) {
                if (request.hasToken("Expect", "100-continue")) {
                    upstreamOut.flush();
                    HttpHead early = awaitContinue(upstream, upstreamIn, clientOut);
                    if (early != null) {
                        if (fault != null && fault.kind() == Fault.Kind.ANSWER_LOST) {
                            client.setSoLinger(true, 0);
                        }
                        else {
                            relay(request, early, fault, upstreamIn, clientOut);
                        }
                        return false;
                    }
                }
                request.copyRequestBody(clientIn, upstreamOut);
            }
            upstreamOut.flush();
            HttpHead response = HttpHead.read(upstreamIn);
            while (response != null && response.status() / 100 == 1) {
                // an interim answer nobody waited for: pass it on and read on
                clientOut.write(response.raw());
                clientOut.flush();
                response = HttpHead.read(upstreamIn);
            }
            if (response == null) {
                throw new IOException("The server closed the connection without answering " + request.startLine());
            }
            if (fault != null && fault.kind() == Fault.Kind.ANSWER_LOST) {
                // the whole answer is read first: a store may send its head before it has acted
                // (S3Proxy streams keep-alive whitespace while it completes a multipart upload),
                // and the answer is lost only once the store is done
                response.copyResponseBody(request.method(), upstreamIn, OutputStream.nullOutputStream());
                client.setSoLinger(true, 0);
                return false;
            }
            return relay(request, response, fault, upstreamIn, clientOut)
                    && !request.hasToken("Connection", "close")
                    && !response.hasToken("Connection", "close");
        }
        finally {
            openSockets.remove(upstream);
            closeQuietly(upstream);
        }
    }

    /**
     * Waits for the server's answer to a request that expects {@code 100 Continue}: relays an
     * interim answer and returns null, returns a final answer that came instead, or returns null
     * when none came in time.
     */
    private static HttpHead awaitContinue(Socket upstream, InputStream upstreamIn, OutputStream clientOut)
            throws IOException
    {
        upstream.setSoTimeout(CONTINUE_WAIT_MILLIS);
        try {
            HttpHead answer = HttpHead.read(upstreamIn);
            if (answer == null) {
                throw new IOException("The server closed the connection before the request body");
            }
            if (answer.status() / 100 != 1) {
                return answer;
            }
            clientOut.write(answer.raw());
            clientOut.flush();
            return null;
        }
        catch (SocketTimeoutException e) {
            return null;
        }
        finally {
            upstream.setSoTimeout(0);
        }
    }

    /**
     * Streams a final answer to the client, after the latency and {@code fault}'s delay, and cut
     * short if {@code fault} says so. Returns false when the answer was cut.
     */
    private boolean relay(HttpHead request, HttpHead response, Fault fault, InputStream upstreamIn, OutputStream clientOut)
            throws IOException
    {
        pause(latencyNanos + (fault != null && fault.kind() == Fault.Kind.FIRST_BYTE_DELAY ? fault.delay().toNanos() : 0));
        clientOut.write(response.raw());
        OutputStream counted = new CountingOutputStream(clientOut, answeredBytes);
        if (fault != null && fault.kind() == Fault.Kind.BODY_CUT) {
            try {
                response.copyResponseBody(request.method(), upstreamIn, new CuttingOutputStream(counted, fault.bodyBytes()));
            }
            catch (BodyCutException e) {
                clientOut.flush();
                return false;
            }
            // a body no longer than the cut arrives whole
            clientOut.flush();
            return true;
        }
        response.copyResponseBody(request.method(), upstreamIn, counted);
        clientOut.flush();
        return true;
    }

    /**
     * Answers {@code request} with an S3 error of the proxy's own. Returns whether the
     * connection may carry another request: not when the client holds back a body until it
     * hears {@code 100 Continue}, since whether it sends the body after a final answer is its
     * choice.
     */
    private boolean answerError(HttpHead request, Fault fault, InputStream clientIn, OutputStream clientOut)
            throws IOException
    {
        String message = switch (fault.code()) {
            case "InternalError" -> "We encountered an internal error. Please try again.";
            case "SlowDown" -> "Please reduce your request rate.";
            default -> "Injected by the fault proxy.";
        };
        boolean heldBackBody = hasBody(request) && request.hasToken("Expect", "100-continue");
        if (hasBody(request) && !heldBackBody) {
            request.copyRequestBody(clientIn, OutputStream.nullOutputStream());
        }
        boolean keepAlive = !heldBackBody && !request.hasToken("Connection", "close");
        String requestId = "tarn-fault-" + requestIds.incrementAndGet();
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>%s</Code><Message>%s</Message><Resource>%s</Resource><RequestId>%s</RequestId></Error>"
                .formatted(escapeXml(fault.code()), message, escapeXml(resource(request.target())), requestId)).getBytes(UTF_8);
        boolean head = request.method().equals("HEAD");
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        answer.writeBytes(("HTTP/1.1 %d %s\r\n".formatted(fault.status(), reasonPhrase(fault.status()))
                + "Content-Type: application/xml\r\n"
                + "Content-Length: " + (head ? 0 : body.length) + "\r\n"
                + "x-amz-request-id: " + requestId + "\r\n"
                + (keepAlive ? "" : "Connection: close\r\n")
                + "\r\n").getBytes(ISO_8859_1));
        if (!head) {
            answer.writeBytes(body);
        }
        pause(latencyNanos);
        answer.writeTo(clientOut);
        clientOut.flush();
        return keepAlive;
    }

    private static String reasonPhrase(int status)
    {
        return switch (status) {
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 409 -> "Conflict";
            case 412 -> "Precondition Failed";
            case 500 -> "Internal Server Error";
            case 503 -> "Slow Down";
            default -> "Error";
        };
    }

    private static boolean hasBody(HttpHead request)
            throws IOException
    {
        return request.chunked() || request.contentLength() > 0;
    }

    /**
     * The path of a request target, without its query, as S3 names the resource of an error:
     * {@code /bucket/key}.
     */
    private static String resource(String target)
    {
        int query = target.indexOf('?');
        return percentDecoded(query < 0 ? target : target.substring(0, query));
    }

    static String percentDecoded(String text)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length()) {
                int high = Character.digit(text.charAt(i + 1), 16);
                int low = Character.digit(text.charAt(i + 2), 16);
                if (high >= 0 && low >= 0) {
                    bytes.write(high * 16 + low);
                    i += 2;
                    continue;
                }
            }
            // a '+' stays a '+': S3 clients encode a space as %20
            bytes.writeBytes(String.valueOf(c).getBytes(UTF_8));
        }
        return bytes.toString(UTF_8);
    }

    private static String escapeXml(String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void pause(long nanos)
            throws InterruptedIOException
    {
        if (nanos <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while holding back an answer");
        }
    }

    private static void closeQuietly(Socket socket)
    {
        try {
            socket.close();
        }
        catch (IOException ignored) {
            // nothing left to do with it
        }
    }

    private record ArmedFault(Fault fault, AtomicInteger left) {}

    /**
     * Passes on the first {@code limit} bytes, then stops the copy.
     */
    private static final class CuttingOutputStream
            extends OutputStream
    {
        private final OutputStream out;
        private final long limit;
        private long written;

        CuttingOutputStream(OutputStream out, long limit)
        {
            this.out = out;
            this.limit = limit;
        }

        @Override
        public void write(int value)
                throws IOException
        {
            write(new byte[] {(byte) value}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length)
                throws IOException
        {
            int allowed = (int) Math.min(length, limit - written);
            if (allowed > 0) {
                out.write(bytes, offset, allowed);
                written += allowed;
            }
            if (allowed < length) {
                throw new BodyCutException();
            }
        }
    }

    /**
     * Passes everything on, adding the bytes to a counter before it writes them: the client may
     * receive a write, and read the counter, before the write returns.
     */
    private static final class CountingOutputStream
            extends OutputStream
    {
        private final OutputStream out;
        private final AtomicLong count;

        CountingOutputStream(OutputStream out, AtomicLong count)
        {
            this.out = out;
            this.count = count;
        }

        @Override
        public void write(int value)
                throws IOException
        {
            count.incrementAndGet();
            out.write(value);
        }

        @Override
        public void write(byte[] bytes, int offset, int length)
                throws IOException
        {
            count.addAndGet(length);
            out.write(bytes, offset, length);
        }
    }

    private static final class BodyCutException
            extends IOException
    {
        private static final long serialVersionUID = 1L;

        BodyCutException()
        {
            super("The body was cut short on purpose");
        }
    }
}
