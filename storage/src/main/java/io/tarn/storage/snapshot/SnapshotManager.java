package io.tarn.storage.snapshot;

import io.tarn.storage.CorruptFileException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.SnapshotNotFoundException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;
import io.tarn.storage.fs.SideRequest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;

import static java.util.Objects.requireNonNull;

/**
 * The snapshots of one branch of a table: {@code snapshot/snapshot-<id>} plus the hint files
 * {@code LATEST} and {@code EARLIEST}. The hints are written with a plain overwrite, so they are
 * only trusted when the files confirm them (format spec section 1); otherwise the directory is
 * listed.
 */
public class SnapshotManager
{
    private static final String SNAPSHOT_PREFIX = "snapshot-";
    private static final String LATEST = "LATEST";
    private static final String EARLIEST = "EARLIEST";
    private static final int HINT_READ_ATTEMPTS = 3;

    private final FileIO fileIO;
    private final String tableRoot;
    private final String branch;
    private final String snapshotDirectory;
    // runs the check for a later snapshot while the hinted one is read
    private final Executor requests;

    public SnapshotManager(FileIO fileIO, String tableRoot, String branch)
    {
        this(fileIO, tableRoot, branch, Runnable::run);
    }

    /**
     * @param requests where the existence check of the snapshot after the {@code LATEST} hint
     * runs, while this thread reads the hinted snapshot: on an object store, two requests in the
     * time of one
     */
    public SnapshotManager(FileIO fileIO, String tableRoot, String branch, Executor requests)
    {
        this.requests = requireNonNull(requests, "requests is null");
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.tableRoot = requireNonNull(tableRoot, "tableRoot is null");
        this.branch = requireNonNull(branch, "branch is null");
        this.snapshotDirectory = BranchManager.branchRoot(tableRoot, branch) + "/snapshot";
    }

    public String snapshotPath(long id)
    {
        return snapshotDirectory + "/" + SNAPSHOT_PREFIX + id;
    }

    public Optional<Long> latestId()
            throws IOException
    {
        OptionalLong hint = latestHint();
        // LATEST is wrong when its snapshot is gone (rollback)
        if (hint.isPresent() && fileIO.fileExists(snapshotPath(hint.getAsLong()))) {
            return Optional.of(hint.getAsLong());
        }
        return lastListedId();
    }

    public Optional<Long> earliestId()
            throws IOException
    {
        OptionalLong hint = readHint(EARLIEST);
        // Expiration deletes snapshots before it rewrites EARLIEST, so an existing hinted snapshot is the earliest.
        if (hint.isPresent() && hint.getAsLong() > 0 && fileIO.fileExists(snapshotPath(hint.getAsLong()))) {
            return Optional.of(hint.getAsLong());
        }
        List<Long> ids = listIds();
        return ids.isEmpty() ? Optional.empty() : Optional.of(ids.get(0));
    }

    /**
     * The ids of all {@code snapshot-<id>} files, ascending.
     */
    public List<Long> listIds()
            throws IOException
    {
        List<Long> ids = new ArrayList<>();
        for (FileStatus status : fileIO.list(snapshotDirectory)) {
            if (!status.directory()) {
                parseId(status.name(), SNAPSHOT_PREFIX).ifPresent(ids::add);
            }
        }
        ids.sort(null);
        return List.copyOf(ids);
    }

    public Snapshot snapshot(long id)
            throws IOException
    {
        String path = snapshotPath(id);
        byte[] json;
        try {
            json = fileIO.newInputFile(path).readAllBytes();
        }
        catch (MissingFileException e) {
            throw new SnapshotNotFoundException("Snapshot %s of %s does not exist (no file %s); %s".formatted(id, describeTable(), path, describeExisting()), e);
        }
        return parse(json, path, id);
    }

    private Optional<Snapshot> snapshotIfExists(long id)
            throws IOException
    {
        String path = snapshotPath(id);
        try {
            return Optional.of(parse(fileIO.newInputFile(path).readAllBytes(), path, id));
        }
        catch (MissingFileException e) {
            return Optional.empty();
        }
    }

    private static Snapshot parse(byte[] json, String path, long id)
            throws IOException
    {
        Snapshot snapshot = SnapshotJson.parse(json, path);
        if (snapshot.id() != id) {
            throw new CorruptFileException("Snapshot file %s holds snapshot id %s".formatted(path, snapshot.id()));
        }
        return snapshot;
    }

    /**
     * The latest snapshot. On an object store this costs three requests when {@code LATEST} is
     * right, as in Paimon: the hint, a HEAD that finds no later snapshot, and the snapshot itself,
     * whose read also proves that it exists. The last two do not depend on each other and run at
     * the same time.
     */
    public Optional<Snapshot> latest()
            throws IOException
    {
        OptionalLong hint = readHint(LATEST);
        if (hint.isPresent() && hint.getAsLong() > 0) {
            long id = hint.getAsLong();
            SideRequest<Boolean> later = SideRequest.start(() -> fileIO.fileExists(snapshotPath(id + 1)), requests);
            Optional<Snapshot> hinted;
            try {
                hinted = snapshotIfExists(id);
            }
            catch (IOException | RuntimeException e) {
                later.settle();
                throw e;
            }
            // a later snapshot means the hint is stale; a missing one that it names a snapshot
            // that is gone (rollback): the listing tells either way
            if (!later.await() && hinted.isPresent()) {
                return hinted;
            }
        }
        Optional<Long> id = lastListedId();
        return id.isEmpty() ? Optional.empty() : Optional.of(snapshot(id.get()));
    }

    /**
     * The id {@code LATEST} names, when no later snapshot exists; empty when there is no usable
     * hint or a later snapshot exists ({@code LATEST} is written after a commit, best effort, so it
     * may be stale). Whether the named snapshot exists is for the caller to find out.
     */
    private OptionalLong latestHint()
            throws IOException
    {
        OptionalLong hint = readHint(LATEST);
        if (hint.isPresent() && hint.getAsLong() > 0 && !fileIO.fileExists(snapshotPath(hint.getAsLong() + 1))) {
            return hint;
        }
        return OptionalLong.empty();
    }

    private Optional<Long> lastListedId()
            throws IOException
    {
        List<Long> ids = listIds();
        return ids.isEmpty() ? Optional.empty() : Optional.of(ids.get(ids.size() - 1));
    }

    /**
     * The newest snapshot committed at or before {@code timeMillis}, or empty if the table has no
     * snapshot that old. Commit times grow with snapshot ids, so this is a binary search.
     */
    public Optional<Snapshot> latestAtOrBefore(long timeMillis)
            throws IOException
    {
        Optional<Long> earliest = earliestId();
        Optional<Long> latest = latestId();
        if (earliest.isEmpty() || latest.isEmpty()) {
            return Optional.empty();
        }
        Snapshot best = snapshot(earliest.get());
        if (best.timeMillis() > timeMillis) {
            return Optional.empty();
        }
        long low = earliest.get() + 1;
        long high = latest.get();
        while (low <= high) {
            long middle = low + (high - low) / 2;
            Snapshot candidate = snapshot(middle);
            if (candidate.timeMillis() <= timeMillis) {
                best = candidate;
                low = middle + 1;
            }
            else {
                high = middle - 1;
            }
        }
        return Optional.of(best);
    }

    /**
     * Publishes {@code snapshot} as {@code snapshot-<id>}. Returns {@code false} if that snapshot
     * already exists, i.e. another writer committed first; the caller then re-reads the latest
     * snapshot and retries. On success {@code LATEST} is updated, best effort.
     */
    public boolean tryCommit(Snapshot snapshot)
            throws IOException
    {
        requireNonNull(snapshot, "snapshot is null");
        if (snapshot.id() < 1) {
            throw new IllegalArgumentException("Snapshot ids start at 1: " + snapshot.id());
        }
        if (!fileIO.tryCreateAtomically(snapshotPath(snapshot.id()), SnapshotJson.toJsonBytes(snapshot))) {
            return false;
        }
        try {
            fileIO.writeFile(snapshotDirectory + "/" + LATEST, String.valueOf(snapshot.id()).getBytes(StandardCharsets.UTF_8), true);
        }
        catch (IOException ignored) {
            // LATEST is only a hint: readers verify it and fall back to listing.
        }
        return true;
    }

    private OptionalLong readHint(String name)
            throws IOException
    {
        String path = snapshotDirectory + "/" + name;
        for (int attempt = 0; attempt < HINT_READ_ATTEMPTS; attempt++) {
            String text;
            try {
                text = new String(fileIO.newInputFile(path).readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            catch (MissingFileException e) {
                return OptionalLong.empty();
            }
            try {
                return OptionalLong.of(Long.parseLong(text));
            }
            catch (NumberFormatException e) {
                // a concurrent overwrite may have been caught half-written: read it again
                Thread.onSpinWait();
            }
        }
        return OptionalLong.empty();
    }

    /**
     * The id of the snapshot {@code file} is, when it is one of this branch's snapshot files; for
     * a listing of more than the snapshot directory ({@link FileIO#listFilesInOneRequest}).
     */
    public Optional<Long> listedId(FileStatus file)
    {
        return file.fileNameIn(snapshotDirectory).flatMap(name -> parseId(name, SNAPSHOT_PREFIX));
    }

    static Optional<Long> parseId(String fileName, String prefix)
    {
        if (!fileName.startsWith(prefix)) {
            return Optional.empty();
        }
        String digits = fileName.substring(prefix.length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(digits));
    }

    private String describeTable()
    {
        return BranchManager.MAIN_BRANCH.equals(branch) ? "table " + tableRoot : "branch '%s' of table %s".formatted(branch, tableRoot);
    }

    private String describeExisting()
            throws IOException
    {
        Optional<Long> earliest = earliestId();
        Optional<Long> latest = latestId();
        if (earliest.isEmpty() || latest.isEmpty()) {
            return "the table has no snapshots";
        }
        return "existing snapshots are %s..%s".formatted(earliest.get(), latest.get());
    }

    /**
     * The table and branch these snapshots belong to, as error messages name them.
     */
    public String tableDescription()
    {
        return describeTable();
    }
}
