package io.tarn.storage.snapshot;

import io.tarn.storage.CommitConflictException;
import io.tarn.storage.InvalidNameException;
import io.tarn.storage.MissingFileException;
import io.tarn.storage.fs.FileIO;
import io.tarn.storage.fs.FileStatus;

import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The tags of one branch of a table: {@code tag/tag-<name>} files holding the tagged snapshot's
 * JSON. Entries of {@code tag/} that are not {@code tag-*} files (such as the
 * {@code tag-success-file/} directory) are ignored.
 */
public class TagManager
{
    private static final String TAG_PREFIX = "tag-";

    private final FileIO fileIO;
    private final String tableRoot;
    private final String tagDirectory;

    public TagManager(FileIO fileIO, String tableRoot, String branch)
    {
        this.fileIO = requireNonNull(fileIO, "fileIO is null");
        this.tableRoot = requireNonNull(tableRoot, "tableRoot is null");
        this.tagDirectory = BranchManager.branchRoot(tableRoot, requireNonNull(branch, "branch is null")) + "/tag";
    }

    public String tagPath(String name)
    {
        validateTagName(name);
        return tagDirectory + "/" + TAG_PREFIX + name;
    }

    public Optional<Tag> tag(String name)
            throws IOException
    {
        String path = tagPath(name);
        byte[] json;
        try {
            json = fileIO.newInputFile(path).readAllBytes();
        }
        catch (MissingFileException e) {
            return Optional.empty();
        }
        return Optional.of(SnapshotJson.parseTag(json, path));
    }

    /**
     * The tag names, sorted.
     */
    public List<String> tagNames()
            throws IOException
    {
        List<String> names = new ArrayList<>();
        for (FileStatus status : fileIO.list(tagDirectory)) {
            String fileName = status.name();
            if (!status.directory() && fileName.startsWith(TAG_PREFIX) && fileName.length() > TAG_PREFIX.length()) {
                names.add(fileName.substring(TAG_PREFIX.length()));
            }
        }
        names.sort(null);
        return List.copyOf(names);
    }

    /**
     * Creates tag {@code name} for {@code snapshot}, stamped with the current local time as Paimon
     * does. Fails with {@link CommitConflictException} if the tag exists.
     */
    public void createTag(String name, Snapshot snapshot)
            throws IOException
    {
        requireNonNull(snapshot, "snapshot is null");
        String path = tagPath(name);
        Tag tag = new Tag(snapshot, Optional.of(LocalDateTime.now()), Optional.empty());
        if (!fileIO.tryCreateAtomically(path, SnapshotJson.toJsonBytes(tag))) {
            throw new CommitConflictException("Tag '%s' already exists in table %s (file %s)".formatted(name, tableRoot, path));
        }
    }

    /**
     * Deletes tag {@code name}; false if there is no such tag. The files that only the tag kept
     * become orphans, which {@code OrphanFiles} removes (Paimon's tag deletion removes them at once).
     */
    public boolean deleteTag(String name)
            throws IOException
    {
        return fileIO.delete(tagPath(name));
    }

    public static void validateTagName(String name)
    {
        requireNonNull(name, "name is null");
        if (name.isBlank()) {
            throw new InvalidNameException("Tag name is blank");
        }
        if (name.contains("/") || name.contains("\\") || name.contains("..") || name.indexOf('\0') >= 0) {
            throw new InvalidNameException("Tag name '%s' contains a path separator, '..' or NUL".formatted(name.replace("\0", "\\0")));
        }
    }
}
