package io.tarn.storage.fs.s3;

import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.ObjectStoreTally;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * Files of an object store, through the S3 API: paths are {@code s3://bucket/key} (also
 * {@code s3a://}, {@code s3n://} and {@code oss://}, kept as written). Directories are key
 * prefixes: they exist while an object lies below them, or their marker ({@link #mkdirs}).
 * <p>
 * The snapshot commit needs a create that exactly one of several writers wins. Object stores have
 * no rename, so {@link #tryCreateAtomically} is a PUT with {@code If-None-Match: *}: a 412 answer
 * means another writer created the object first. Before the first such commit to a bucket, the
 * store is asked to prove it honours the condition (a second conditional PUT of a probe object
 * must fail); a store that ignores it could let two writers both commit the same snapshot, and
 * one would be lost, so committing to it is refused unless {@link S3Settings#allowUnsafeCommits}.
 */
public final class S3FileIO
        implements FileIO, Closeable
{
    // a PUT answered 409 (another conditional write to the key in flight) is tried again this often
    private static final int CONFLICT_ATTEMPTS = 5;

    private final S3Client client;
    private final S3Listings listings;
    private final S3Settings settings;
    // the pauses between reads of a body that broke off: those of the SDK's retries
    private final BackoffStrategy bodyBackoff;
    private final AttemptCounter attemptCounter = new AttemptCounter();
    private final Set<String> bucketsProvenConditional = ConcurrentHashMap.newKeySet();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();

    public S3FileIO(S3Settings settings)
    {
        this(settings, builder -> {});
    }

    /**
     * @param customizer changes the client before it is built (tests inject faults with it)
     */
    S3FileIO(S3Settings settings, Consumer<S3ClientBuilder> customizer)
    {
        this.settings = requireNonNull(settings, "settings is null");
        this.bodyBackoff = S3Clients.backoff(settings.retryBaseDelay());
        S3ClientBuilder builder = S3Clients.builder(settings);
        builder.overrideConfiguration(builder.overrideConfiguration().toBuilder().addExecutionInterceptor(attemptCounter).build());
        customizer.accept(builder);
        this.client = builder.build();
        this.listings = new S3Listings(this);
    }

    /**
     * Whether {@code path} names an object-store location this class serves.
     */
    public static boolean handles(String path)
    {
        return S3Location.isObjectStorePath(path);
    }

    /**
     * Requests this file IO sent so far, from every thread (a scan counts its own by thread:
     * {@link ObjectStoreTally}).
     */
    public long requestCount()
    {
        return requests.get();
    }

    /**
     * Bytes of object bodies this file IO read so far, from every thread.
     */
    public long bytesRead()
    {
        return bytesRead.get();
    }

    @Override
    public InputFile newInputFile(String path)
    {
        return new S3InputFile(this, path, S3Location.parse(path));
    }

    /**
     * An object whose length {@code length} the table's metadata records: no request learns it,
     * and one no longer than {@link S3Settings#smallObjectThreshold} is fetched whole by its
     * first read, as Trino's Parquet reader does with a file under its small-file threshold.
     */
    @Override
    public boolean objectStore()
    {
        return true;
    }

    @Override
    public long wholeReadThreshold()
    {
        return settings.smallObjectThreshold();
    }

    @Override
    public InputFile newInputFile(String path, long length)
    {
        return new S3InputFile(this, path, S3Location.parse(path), length, length <= settings.smallObjectThreshold());
    }

    @Override
    public boolean exists(String path)
            throws IOException
    {
        S3Location location = S3Location.parse(path);
        if (!location.key().isEmpty() && objectLength(path, location) >= 0) {
            return true;
        }
        // a directory exists while an object lies below it
        ListObjectsV2Response below = listings.page(location, 1, null);
        return !below.contents().isEmpty() || !below.commonPrefixes().isEmpty();
    }

    /**
     * One HEAD request: a directory, which only a listing finds, does not count.
     */
    @Override
    public boolean fileExists(String path)
            throws IOException
    {
        return objectLength(path, requireKey(path)) >= 0;
    }

    @Override
    public List<FileStatus> list(String directory)
            throws IOException
    {
        return listings.directory(directory);
    }

    @Override
    public Optional<List<FileStatus>> listFilesInOneRequest(String pathPrefix)
            throws IOException
    {
        return listings.filesInOnePage(pathPrefix);
    }

    @Override
    public OutputStream newOutputStream(String path)
            throws IOException
    {
        S3Location location = requireKey(path);
        if (objectLength(path, location) >= 0) {
            throw new FileAlreadyExistsException(path);
        }
        return new S3OutputStream(this, path, location);
    }

    @Override
    public void writeFile(String path, byte[] content, boolean overwrite)
            throws IOException
    {
        S3Location location = requireKey(path);
        if (overwrite) {
            put(path, location, content, false);
        }
        else if (!putIfAbsent(path, location, content)) {
            throw new FileAlreadyExistsException(path);
        }
    }

    @Override
    public boolean tryCreateAtomically(String path, byte[] content)
            throws IOException
    {
        S3Location location = requireKey(path);
        checkConditionalWrites(path, location);
        if (putIfAbsent(path, location, content)) {
            return true;
        }
        // a PUT the SDK retried after it had in fact landed also answers 412: the object is ours
        // when it holds exactly what we wrote (a snapshot names its commit, so no other writer's is equal)
        return Arrays.equals(readObject(path, location), content);
    }

    @Override
    public boolean delete(String path)
            throws IOException
    {
        S3Location location = S3Location.parse(path);
        if (location.key().isEmpty()) {
            return false;
        }
        if (objectLength(path, location) >= 0) {
            deleteObject(path, location);
            return true;
        }
        // a directory: only its marker, if it has one, is an object of its own
        ListObjectsV2Response below = listings.page(location, 2, null);
        S3Location marker = new S3Location(location.scheme(), location.bucket(), location.directoryPrefix());
        boolean hasChildren = !below.commonPrefixes().isEmpty() || below.contents().stream().anyMatch(object -> !object.key().equals(marker.key()));
        if (hasChildren) {
            throw new DirectoryNotEmptyException(path);
        }
        if (below.contents().isEmpty()) {
            return false;
        }
        deleteObject(path, marker);
        return true;
    }

    /**
     * Creates the directory marker ({@code key/}, an empty object), as Hadoop's S3A and so Apache
     * Paimon do: a directory with no file yet, a database just created, exists only through it.
     */
    @Override
    public void mkdirs(String path)
            throws IOException
    {
        S3Location location = S3Location.parse(path);
        if (location.key().isEmpty() || exists(path)) {
            return;
        }
        S3Location marker = new S3Location(location.scheme(), location.bucket(), location.directoryPrefix());
        put(path, marker, new byte[0], false);
    }

    @Override
    public boolean rename(String source, String target)
            throws IOException
    {
        throw new IOException("Cannot rename %s to %s: an object store has no rename, and copying a table object by object is not atomic".formatted(source, target));
    }

    @Override
    public void close()
    {
        client.close();
    }

    @Override
    public String toString()
    {
        return "S3FileIO{" + settings + "}";
    }

    S3Client client()
    {
        return client;
    }

    void countRequest()
    {
        requests.incrementAndGet();
        ObjectStoreTally.recordRequest();
    }

    void countBytesRead(long bytes)
    {
        bytesRead.addAndGet(bytes);
        ObjectStoreTally.recordBytes(bytes);
    }

    /**
     * The length of the object at {@code location}, or -1 if there is none.
     */
    long objectLength(String path, S3Location location)
            throws IOException
    {
        try {
            return call(path, "read", () -> client.headObject(HeadObjectRequest.builder().bucket(location.bucket()).key(location.key()).build()).contentLength());
        }
        catch (S3ObjectMissingException e) {
            return -1;
        }
    }

    /**
     * Runs one request, counted, with a failure turned into an {@link IOException} naming the
     * object, what was done to it, how often it was tried and why it failed; a 404 becomes
     * {@link S3ObjectMissingException}. The SDK has retried the request already
     * ({@link S3Clients}).
     */
    <T> T call(String path, String action, SdkCall<T> request)
            throws IOException
    {
        countRequest();
        attemptCounter.reset();
        try {
            return request.run();
        }
        catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw new S3ObjectMissingException(path);
            }
            throw new IOException("Cannot %s %s%s: %s (HTTP %s)".formatted(action, path, afterAttempts(), message(e), e.statusCode()), e);
        }
        catch (SdkException e) {
            throw new IOException("Cannot %s %s%s: %s".formatted(action, path, afterAttempts(), e.rawMessage() == null ? e.getMessage() : e.rawMessage()), e);
        }
    }

    /**
     * How many times a read whose body breaks off is sent in all: as often as a failed request.
     */
    int bodyAttempts()
    {
        return settings.maxErrorRetries() + 1;
    }

    /**
     * Runs a read of an object's body again, after the pauses of the SDK's retries, when the
     * body breaks off (a reset connection, a body cut short): the SDK retries failed requests,
     * but not a body it has handed over. What the store answered (a status, a missing object), a
     * request the SDK gave up on and an object shorter than asked for are not retried.
     */
    <T> T withBodyRetries(String path, BodyRead<T> read)
            throws IOException
    {
        for (int attempt = 1; ; attempt++) {
            try {
                return read.run();
            }
            catch (IOException e) {
                boolean bodyBrokeOff = !(e instanceof MissingFileException) && !(e instanceof EOFException) && !(e.getCause() instanceof SdkException);
                if (!bodyBrokeOff) {
                    throw e;
                }
                if (attempt >= bodyAttempts()) {
                    throw new IOException("Cannot read %s: its body broke off %d times, the last with: %s".formatted(path, attempt, e.getMessage()), e);
                }
                sleep(path, bodyBackoff.computeDelay(attempt));
            }
        }
    }

    void put(String path, S3Location location, byte[] content, boolean ifAbsent)
            throws IOException
    {
        PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(location.bucket()).key(location.key()).contentLength((long) content.length);
        if (ifAbsent) {
            request.ifNoneMatch("*");
            if (location.scheme().equalsIgnoreCase("oss")) {
                // OSS's own spelling of a create that must not replace an object; it answers 409 FileAlreadyExists
                request.overrideConfiguration(configuration -> configuration.putHeader("x-oss-forbid-overwrite", "true"));
            }
        }
        call(path, "write", () -> client.putObject(request.build(), RequestBody.fromBytes(content)));
    }

    /**
     * Creates the object unless one exists; {@code false} if one did.
     * <p>
     * A PUT whose answer was lost (a timeout, a reset after the store acted) is sent again by the
     * SDK, and the store answers the second one 412: the object exists, and it is ours when it
     * holds exactly the bytes written. Such an answer after more than one attempt is therefore
     * checked by reading the object back; an equal object written by someone else would be
     * indistinguishable, and harmless.
     */
    boolean putIfAbsent(String path, S3Location location, byte[] content)
            throws IOException
    {
        for (int attempt = 1; ; attempt++) {
            try {
                put(path, location, content, true);
                return true;
            }
            catch (IOException e) {
                int status = status(e);
                if (status == 412 || (status == 409 && "FileAlreadyExists".equals(errorCode(e.getCause())))) {
                    // the attempts of the PUT that just failed on this thread
                    return attemptCounter.attempts() > 1 && Arrays.equals(readObject(path, location), content);
                }
                if (status != 409 || attempt == CONFLICT_ATTEMPTS) {
                    throw e;
                }
                // 409: a concurrent conditional write to the same key is in flight; its outcome decides
                sleep(path, Duration.ofMillis(50L * attempt));
            }
        }
    }

    private void deleteObject(String path, S3Location location)
            throws IOException
    {
        call(path, "delete", () -> client.deleteObject(DeleteObjectRequest.builder().bucket(location.bucket()).key(location.key()).build()));
    }

    private byte[] readObject(String path, S3Location location)
            throws IOException
    {
        byte[] bytes = withBodyRetries(path, () -> call(path, "read", () -> client.getObject(builder -> builder.bucket(location.bucket()).key(location.key()), ResponseTransformer.toBytes()).asByteArray()));
        countBytesRead(bytes.length);
        return bytes;
    }

    /**
     * Proves once per bucket, before its first commit, that the store refuses a second
     * conditional create of one key.
     */
    private void checkConditionalWrites(String path, S3Location location)
            throws IOException
    {
        if (settings.allowUnsafeCommits() || bucketsProvenConditional.contains(location.bucket())) {
            return;
        }
        int slash = location.key().lastIndexOf('/');
        String probeKey = (slash < 0 ? "" : location.key().substring(0, slash + 1)) + "_tarn-conditional-write-probe-" + UUID.randomUUID();
        S3Location probe = new S3Location(location.scheme(), location.bucket(), probeKey);
        String probePath = probe.toString();
        byte[] content = probeKey.getBytes(UTF_8);
        boolean created;
        boolean createdTwice;
        try {
            created = putIfAbsent(probePath, probe, content);
            createdTwice = created && putIfAbsent(probePath, probe, content);
        }
        catch (IOException e) {
            // the caller asked for its object, not for the probe
            throw new IOException("Cannot create %s: probing the store for conditional writes failed: %s".formatted(path, e.getMessage()), e);
        }
        finally {
            try {
                call(probePath, "delete", () -> client.deleteObject(DeleteObjectRequest.builder().bucket(probe.bucket()).key(probe.key()).build()));
            }
            catch (IOException e) {
                // the probe is not part of any table; a leftover one is harmless
            }
        }
        if (!created) {
            throw new IOException("Cannot probe %s for conditional writes: the new probe object %s exists already".formatted(settings, probePath));
        }
        if (createdTwice) {
            throw new IOException(("Refusing to commit %s: the object store (%s) does not honour conditional writes (If-None-Match: *), " +
                    "so two writers committing at once could both write snapshot files and one commit would be lost. " +
                    "Use a store that honours them (AWS S3, MinIO, S3Proxy, OSS), or set %s=true if this table has a single writer").formatted(path, settings, S3Settings.ALLOW_UNSAFE_COMMITS));
        }
        bucketsProvenConditional.add(location.bucket());
    }

    private static S3Location requireKey(String path)
    {
        S3Location location = S3Location.parse(path);
        if (location.key().isEmpty()) {
            throw new IllegalArgumentException("Not an object path (no key after the bucket): " + path);
        }
        return location;
    }

    /**
     * The HTTP status the store answered, when {@code failure} is one of {@link #call}'s; else 0.
     */
    static int status(IOException failure)
    {
        return failure.getCause() instanceof S3Exception s3 ? s3.statusCode() : 0;
    }

    private String afterAttempts()
    {
        int attempts = attemptCounter.attempts();
        return attempts > 1 ? " after " + attempts + " attempts" : "";
    }

    private static String errorCode(Throwable failure)
    {
        if (failure instanceof S3Exception s3 && s3.awsErrorDetails() != null) {
            return s3.awsErrorDetails().errorCode();
        }
        return null;
    }

    private static String message(S3Exception e)
    {
        if (e.awsErrorDetails() == null || e.awsErrorDetails().errorMessage() == null) {
            return e.getMessage();
        }
        // an answer without a body (to a HEAD) has a message, the status text, but no code
        String code = e.awsErrorDetails().errorCode();
        return code == null ? e.awsErrorDetails().errorMessage() : code + ": " + e.awsErrorDetails().errorMessage();
    }

    private static void sleep(String path, Duration duration)
            throws IOException
    {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting to retry a request for " + path);
        }
    }

    /**
     * A read of an object's body.
     */
    @FunctionalInterface
    interface BodyRead<T>
    {
        T run()
                throws IOException;
    }

    /**
     * One SDK request.
     */
    @FunctionalInterface
    interface SdkCall<T>
    {
        T run();
    }
}
