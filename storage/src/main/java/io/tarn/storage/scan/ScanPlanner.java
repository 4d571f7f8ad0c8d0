package io.tarn.storage.scan;

import io.tarn.index.predicate.Predicate;
import io.tarn.index.predicate.StatsEvaluator;
import io.tarn.index.predicate.StatsProvider;
import io.tarn.storage.binary.BinaryRow;
import io.tarn.storage.binary.SimpleStats;
import io.tarn.storage.manifest.DeletionVectorMeta;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.IndexManifestEntry;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.manifest.ManifestEntryFilter;
import io.tarn.storage.manifest.ManifestFileMeta;
import io.tarn.storage.metrics.Counter;
import io.tarn.storage.metrics.Counters;
import io.tarn.storage.schema.TableSchema;
import io.tarn.storage.snapshot.Snapshot;
import io.tarn.storage.schema.MergeEngine;
import io.tarn.storage.table.PaimonTable;
import io.tarn.storage.schema.TableOptions;
import io.tarn.types.DataField;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Plans the live files of one snapshot and prunes them, cheapest rule first: whole manifests by
 * their partition statistics and level range, then files by partition value, bucket, level and
 * min/max/null-count statistics and, for files read raw, by their embedded file index and, when
 * asked ({@link #withIndexFiles}), by their {@code .index} extra file. Every
 * rule only removes files that cannot hold a row the filter accepts; statistics that cannot be
 * trusted (type changed, truncated, missing) and indexes that cannot (corrupt, unknown type, column
 * changed) keep the file.
 *
 * <p>Which statistics may prune depends on how the table is read:
 * <ul>
 * <li>append tables, and primary-key tables read raw (deletion vectors, first-row): every file by
 *     its value statistics;</li>
 * <li>primary-key tables merged on read: files by their key statistics; by value statistics only
 *     where a merged row is one input row and the bucket holds one sorted run (per file) or, for
 *     deduplicate and first-row, where no file of the bucket matches (the whole bucket).</li>
 * </ul>
 * Level-0 files of deletion-vector and first-row tables are not visible to batch reads, and the
 * postpone bucket is never read, as in Paimon.
 */
public final class ScanPlanner
{
    private static final int POSTPONE_BUCKET = -2;

    private final PaimonTable table;
    private final Optional<Predicate> filter;
    private final boolean entryFiltering;
    private final boolean useFileIndexes;
    private final int maxIndexFiles;
    private final SplitShape splitShape;

    public ScanPlanner(PaimonTable table)
    {
        this(table, Optional.empty(), true, true, 0, new SplitShape(OptionalLong.empty(), 1, OptionalLong.empty()));
    }

    private ScanPlanner(PaimonTable table, Optional<Predicate> filter, boolean entryFiltering, boolean useFileIndexes, int maxIndexFiles, SplitShape splitShape)
    {
        this.table = requireNonNull(table, "table is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.entryFiltering = entryFiltering;
        this.useFileIndexes = useFileIndexes;
        if (maxIndexFiles < 0) {
            throw new IllegalArgumentException("maxIndexFiles is negative: " + maxIndexFiles);
        }
        this.maxIndexFiles = maxIndexFiles;
        this.splitShape = requireNonNull(splitShape, "splitShape is null");
    }

    /**
     * How an engine wants its splits: a target size in place of the table's
     * {@code source.split.target-size}, and a number of splits that the files read raw are spread
     * over when there are that many files, so that a table of a few small files is still read by
     * several threads.
     */
    private record SplitShape(OptionalLong targetSize, int minSplits, OptionalLong rangeSize)
    {
        SplitShape
        {
            requireNonNull(targetSize, "targetSize is null");
            requireNonNull(rangeSize, "rangeSize is null");
            if (rangeSize.isPresent() && rangeSize.getAsLong() <= 0) {
                throw new IllegalArgumentException("Row range size is not positive: " + rangeSize.getAsLong());
            }
            if (targetSize.isPresent() && targetSize.getAsLong() <= 0) {
                throw new IllegalArgumentException("Split target size is not positive: " + targetSize.getAsLong());
            }
            if (minSplits < 1) {
                throw new IllegalArgumentException("Minimum split count is below 1: " + minSplits);
            }
        }
    }

    /**
     * A planner that also prunes by {@code predicate}, whose field ids refer to the read schema.
     */
    public ScanPlanner withFilter(Predicate predicate)
    {
        return new ScanPlanner(table, Optional.of(predicate), entryFiltering, useFileIndexes, maxIndexFiles, splitShape);
    }

    /**
     * A planner that does not skip files by their embedded file indexes, whatever the table's
     * {@code file-index.read.enabled} says (an engine's switch for them).
     */
    public ScanPlanner withoutFileIndexes()
    {
        return new ScanPlanner(table, filter, entryFiltering, false, maxIndexFiles, splitShape);
    }

    /**
     * A planner that also opens the {@code .index} extra files of up to {@code maxIndexFiles} files
     * read raw, in plan order, and skips the files whose index rules out every row. Without it
     * only the readers open these files. Readers still evaluate the index of a file kept here
     * (they need a bitmap index's row selection), so this pays where each planned file costs more
     * than reading its index twice: an engine that schedules every file as a unit of work, for
     * which a file skipped here is a task never created. The bound keeps planning, which opens
     * the files one after the other, from waiting on thousands of them.
     */
    public ScanPlanner withIndexFiles(int maxIndexFiles)
    {
        return new ScanPlanner(table, filter, entryFiltering, useFileIndexes, maxIndexFiles, splitShape);
    }

    /**
     * A planner whose splits of files read raw hold about {@code targetSize} bytes (each file
     * weighing at least the table's open-file cost) instead of the table's
     * {@code source.split.target-size}. Merge splits always hold their whole bucket.
     */
    public ScanPlanner withSplitTargetSize(long targetSize)
    {
        return new ScanPlanner(table, filter, entryFiltering, useFileIndexes, maxIndexFiles, new SplitShape(OptionalLong.of(targetSize), splitShape.minSplits(), splitShape.rangeSize()));
    }

    /**
     * A planner that puts at most {@code ceil(rawFiles / minSplits)} files into a split of files
     * read raw: a plan of at least {@code minSplits} such files has at least that many splits.
     */
    public ScanPlanner withMinSplits(int minSplits)
    {
        return new ScanPlanner(table, filter, entryFiltering, useFileIndexes, maxIndexFiles, new SplitShape(splitShape.targetSize(), minSplits, splitShape.rangeSize()));
    }

    /**
     * A planner that cuts each file read raw of more than {@code rangeSize} bytes into
     * {@code ceil(size / rangeSize)} splits of equal row ranges (about {@code rangeSize} bytes
     * each), so that several readers share a large file; a reader of a range decodes only the
     * pages that hold its rows where the file has an offset index, and every row group and page
     * the range misses it skips unread. Merge splits always hold their whole bucket.
     */
    public ScanPlanner withRowRangeSplits(long rangeSize)
    {
        return new ScanPlanner(table, filter, entryFiltering, useFileIndexes, maxIndexFiles, new SplitShape(splitShape.targetSize(), splitShape.minSplits(), OptionalLong.of(rangeSize)));
    }

    /**
     * A planner that applies the partition, bucket and level rules only after merging, as the
     * planner did before it filtered entries while reading; for tests, which check that both
     * plan the same files with the same counters.
     */
    ScanPlanner withoutEntryFiltering()
    {
        return new ScanPlanner(table, filter, false, useFileIndexes, maxIndexFiles, splitShape);
    }

    /**
     * Plans the table as of {@code snapshot}; an empty snapshot plans an empty table with its
     * latest schema.
     */
    public ScanPlan plan(Optional<Snapshot> snapshot)
            throws IOException
    {
        if (snapshot.isEmpty()) {
            TableSchema schema = table.schema();
            ReadableFeatures.checkOptions(table.name(), schema);
            return new ScanPlan(snapshot, schema, List.of(), new PlanningTally().toCounters(0));
        }
        return new Planning(snapshot.get()).plan();
    }

    private final class Planning
    {
        private final Snapshot snapshot;
        private final TableSchema schema;
        private final TableOptions options;
        private final boolean primaryKeyTable;
        private final boolean readRaw;
        private final boolean skipLevel0;
        private final boolean deletionVectors;
        private final List<DataField> partitionFields;
        private final Map<Integer, Integer> partitionPositionById = new HashMap<>();
        private final FieldStatsMapping manifestPartitionStats;
        private final FileStatistics fileStatistics;
        private final Optional<BucketSelector> bucketSelector;
        private final PlanningTally counters = new PlanningTally();
        private final Map<BinaryRow, Boolean> partitionMatches = new HashMap<>();
        private BinaryRow lastPartition;
        private boolean lastPartitionMatches;

        Planning(Snapshot snapshot)
                throws IOException
        {
            this.snapshot = snapshot;
            this.schema = table.schema(snapshot.schemaId());
            // Paimon reads with the options of the table's current schema, so both must be readable
            ReadableFeatures.checkOptions(table.name(), schema);
            ReadableFeatures.checkOptions(table.name(), table.schema());
            this.options = new TableOptions(table.name(), schema.options());
            this.primaryKeyTable = !schema.primaryKeys().isEmpty();
            MergeEngine mergeEngine = primaryKeyTable ? options.mergeEngine() : MergeEngine.DEDUPLICATE;
            // as in Paimon, the table's current options say whether deletion vectors are used,
            // whichever schema the snapshot has: since Paimon 1.4 (deletion-vectors.modifiable)
            // they can be switched on or off without a commit after the switch
            this.deletionVectors = new TableOptions(table.name(), table.schema().options()).deletionVectorsEnabled();
            this.skipLevel0 = primaryKeyTable && (deletionVectors || mergeEngine == MergeEngine.FIRST_ROW);
            this.readRaw = !primaryKeyTable || skipLevel0;
            this.partitionFields = schema.partitionType().fields();
            this.manifestPartitionStats = new FieldStatsMapping(partitionFields, partitionFields);
            for (int i = 0; i < partitionFields.size(); i++) {
                partitionPositionById.put(partitionFields.get(i).id(), i);
            }
            this.fileStatistics = new FileStatistics(table, schema);
            this.bucketSelector = filter.flatMap(predicate -> options.bucket() > 0
                    ? BucketSelector.create(predicate, bucketKeyFields(schema), options.modBucketFunction())
                    : Optional.empty());
        }

        ScanPlan plan()
                throws IOException
        {
            List<ManifestFileMeta> manifests = new ArrayList<>(table.readManifestList(snapshot.baseManifestList()));
            manifests.addAll(table.readManifestList(snapshot.deltaManifestList()));
            counters.manifestsPlanned = manifests.size();

            List<ManifestFileMeta> kept = new ArrayList<>();
            boolean manifestSkipped = false;
            boolean deletes = false;
            for (ManifestFileMeta manifest : manifests) {
                if (skipManifest(manifest)) {
                    manifestSkipped = true;
                }
                else {
                    kept.add(manifest);
                    deletes |= manifest.numDeletedFiles() != 0;
                }
            }

            // Entries are filtered while they are read, before merging, so that the data files of
            // excluded partitions, buckets and levels are never built. A DELETE has the partition,
            // bucket and level of the ADD it cancels, so both meet the same rule (the bucket
            // selector, which also depends on the bucket count, refuses no DELETE), and a rule saved
            // (ADDs - DELETEs) live files. That count is exact only if every DELETE's ADD is read:
            // when a manifest was skipped and deletes exist, the rules run after merging instead.
            boolean filterEntries = entryFiltering && !(manifestSkipped && deletes);
            EntryRules rules = new EntryRules();
            long expectedEntries = 0;
            for (ManifestFileMeta manifest : kept) {
                expectedEntries += manifest.numAddedFiles();
            }
            LiveFileMerger merger = new LiveFileMerger(table.name(), (int) Math.min(expectedEntries, 1 << 20));
            for (ManifestFileMeta manifest : kept) {
                for (ManifestEntry entry : table.readManifest(manifest.fileName(), filterEntries ? rules : null)) {
                    counters.entriesRead++;
                    merger.add(entry, manifest.fileName());
                }
            }

            Map<DeletionVectorKey, DeletionFile> deletionFiles = deletionFiles();
            List<PlannedFile> candidates = new ArrayList<>(merger.liveEntries().size());
            for (ManifestEntry entry : merger.liveEntries()) {
                if (filterEntries || rules.test(FileKind.ADD, entry.partition(), entry.bucket(), entry.totalBuckets()) && rules.testLevel(FileKind.ADD, entry.file().level())) {
                    ReadableFeatures.checkDataFile(table.name(), entry.file().fileName());
                    DeletionFile deletionFile = deletionFiles.isEmpty()
                            ? null
                            : deletionFiles.get(new DeletionVectorKey(entry.partition(), entry.bucket(), entry.file().fileName()));
                    candidates.add(new PlannedFile(entry.partition(), entry.bucket(), entry.totalBuckets(), entry.file(), Optional.ofNullable(deletionFile)));
                }
            }

            List<PlannedFile> planned = filter.isEmpty() ? candidates : pruneByStats(candidates);
            counters.filesPlanned = planned.size();
            long targetSize = splitShape.targetSize().orElse(options.splitTargetSize());
            int maxFilesPerSplit = readRaw ? (int) Math.max(1, (planned.size() + (long) splitShape.minSplits() - 1) / splitShape.minSplits()) : Integer.MAX_VALUE;
            List<DataSplit> splits = new SplitGenerator(targetSize, options.splitOpenFileCost(), maxFilesPerSplit, splitShape.rangeSize()).splits(planned, !readRaw);
            return new ScanPlan(Optional.of(snapshot), schema, splits, counters.toCounters(splits.size()));
        }

        private boolean skipManifest(ManifestFileMeta manifest)
        {
            if (skipLevel0 && manifest.maxLevel().isPresent() && manifest.maxLevel().getAsInt() == 0) {
                counters.manifestsSkippedByLevel++;
                return true;
            }
            if (filter.isPresent() && !partitionFields.isEmpty()) {
                // the statistics count entries, not rows: a partition column is null in nullCount of them
                long entries = manifest.numAddedFiles() + manifest.numDeletedFiles();
                SimpleStats stats = manifest.partitionStats();
                StatsProvider provider = field -> partitionField(field.fieldId())
                        .flatMap(partitionField -> manifestPartitionStats.stats(partitionField, stats, entries));
                if (!StatsEvaluator.mightMatch(filter.get(), provider)) {
                    counters.manifestsSkippedByPartition++;
                    return true;
                }
            }
            return false;
        }

        private boolean partitionMatches(BinaryRow partition)
        {
            if (filter.isEmpty() || partitionFields.isEmpty()) {
                return true;
            }
            // the manifest reader hands consecutive entries of one partition the same instance
            if (partition != lastPartition) {
                lastPartition = partition;
                lastPartitionMatches = partitionMatches.computeIfAbsent(partition,
                        row -> StatsEvaluator.mightMatch(filter.get(), field -> fileStatistics.partitionStats(row, field.fieldId(), 1)));
            }
            return lastPartitionMatches;
        }

        /**
         * The partition, bucket and level rules, counting what they remove: an ADD refused adds a
         * file to a rule's count, a DELETE refused takes the file its ADD added back out. The
         * bucket selector only counts DELETEs (see below), which keeps the plan exact and the
         * counters exact unless a DELETE's bucket count differs from its ADD's.
         */
        private final class EntryRules
                implements ManifestEntryFilter
        {
            @Override
            public boolean test(FileKind kind, BinaryRow partition, int bucket, int totalBuckets)
            {
                if (!partitionMatches(partition)) {
                    counters.filesSkippedByPartition += kind == FileKind.ADD ? 1 : -1;
                    return false;
                }
                if (bucket == POSTPONE_BUCKET) {
                    counters.filesSkippedByBucket += kind == FileKind.ADD ? 1 : -1;
                    return false;
                }
                if (bucketSelector.isPresent() && !bucketSelector.get().select(bucket, totalBuckets)) {
                    if (kind == FileKind.ADD) {
                        counters.filesSkippedByBucket++;
                        return false;
                    }
                    // The bucket count is not part of the identity: were this DELETE's count not its
                    // ADD's, refusing it could leave a deleted file live. Kept, it deletes the ADD or,
                    // when the ADD was refused too, nothing.
                    counters.filesSkippedByBucket--;
                }
                return true;
            }

            @Override
            public boolean testsLevel()
            {
                return skipLevel0;
            }

            @Override
            public boolean testLevel(FileKind kind, int level)
            {
                if (skipLevel0 && level == 0) {
                    counters.filesSkippedByLevel += kind == FileKind.ADD ? 1 : -1;
                    return false;
                }
                return true;
            }
        }

        private List<PlannedFile> pruneByStats(List<PlannedFile> files)
                throws IOException
        {
            Predicate predicate = filter.get();
            if (readRaw) {
                // each file is read on its own, so its file index may skip it, as its value statistics may
                Optional<FileIndexFilter> indexFilter = useFileIndexes && options.fileIndexReadEnabled() ? Optional.of(new FileIndexFilter(table, predicate)) : Optional.empty();
                int indexFilesLeft = maxIndexFiles;
                List<PlannedFile> kept = new ArrayList<>();
                for (PlannedFile file : files) {
                    if (!StatsEvaluator.mightMatch(predicate, fileStatistics.valueStats(file))) {
                        counters.filesSkippedByStats++;
                        continue;
                    }
                    // an embedded index costs nothing to read; an index file is opened while the bound allows
                    if (indexFilter.isPresent() && (file.file().embeddedIndex() != null || indexFilesLeft > 0)) {
                        FileIndexFilter.Outcome outcome = indexFilter.get().evaluate(file);
                        counters.indexesIgnored += outcome.indexesIgnored();
                        boolean fromIndexFile = outcome.source() == FileIndexFilter.Source.INDEX_FILE;
                        if (fromIndexFile) {
                            indexFilesLeft--;
                            counters.indexFilesRead++;
                        }
                        if (outcome.result().skip()) {
                            if (fromIndexFile) {
                                counters.filesSkippedByIndexFile++;
                            }
                            else {
                                counters.filesSkippedByEmbeddedIndex++;
                            }
                            continue;
                        }
                    }
                    kept.add(file);
                }
                return kept;
            }

            MergeEngine mergeEngine = options.mergeEngine();
            Map<List<Object>, List<PlannedFile>> buckets = new LinkedHashMap<>();
            for (PlannedFile file : files) {
                if (StatsEvaluator.mightMatch(predicate, fileStatistics.keyStats(file))) {
                    buckets.computeIfAbsent(List.of(file.partition(), file.bucket()), ignored -> new ArrayList<>()).add(file);
                }
                else {
                    counters.filesSkippedByStats++;
                }
            }
            List<PlannedFile> kept = new ArrayList<>();
            for (List<PlannedFile> bucketFiles : buckets.values()) {
                List<PlannedFile> matching = new ArrayList<>();
                for (PlannedFile file : bucketFiles) {
                    if (StatsEvaluator.mightMatch(predicate, fileStatistics.valueStats(file))) {
                        matching.add(file);
                    }
                }
                List<PlannedFile> bucketKept;
                if (singleSortedRun(bucketFiles)) {
                    // each key has one row in the bucket, so its merged row is that row
                    bucketKept = matching;
                }
                else if (matching.isEmpty() && mergeEngine.mergedRowIsAnInputRow()) {
                    // every merged row is one of the bucket's rows, and none of them can match
                    bucketKept = List.of();
                }
                else {
                    bucketKept = bucketFiles;
                }
                kept.addAll(bucketKept);
                counters.filesSkippedByStats += bucketFiles.size() - bucketKept.size();
            }
            return kept;
        }

        private Optional<DataField> partitionField(int fieldId)
        {
            Integer position = partitionPositionById.get(fieldId);
            return position == null ? Optional.empty() : Optional.of(partitionFields.get(position));
        }

        private Map<DeletionVectorKey, DeletionFile> deletionFiles()
                throws IOException
        {
            Optional<String> indexManifest = snapshot.indexManifest();
            if (indexManifest.isEmpty() || !deletionVectors) {
                return Map.of();
            }
            Map<DeletionVectorKey, DeletionFile> files = new HashMap<>();
            for (IndexManifestEntry entry : table.readIndexManifest(indexManifest.get())) {
                if (!IndexManifestEntry.DELETION_VECTORS_INDEX.equals(entry.indexType())) {
                    continue;
                }
                for (DeletionVectorMeta range : entry.deletionVectorRanges().orElse(List.of())) {
                    files.put(new DeletionVectorKey(entry.partition(), entry.bucket(), range.dataFileName()),
                            new DeletionFile(entry.fileName(), range.offset(), range.length(), range.cardinality()));
                }
            }
            return files;
        }
    }

    private static boolean singleSortedRun(List<PlannedFile> bucketFiles)
    {
        if (bucketFiles.size() <= 1) {
            return true;
        }
        int level = bucketFiles.get(0).file().level();
        return level > 0 && bucketFiles.stream().allMatch(file -> file.file().level() == level);
    }

    /**
     * The fields named, in order; a name the schema lacks gives a null entry, which keeps the
     * positions of the others and has no statistics.
     */
    private static List<DataField> bucketKeyFields(TableSchema schema)
    {
        List<DataField> fields = FileStatistics.fields(schema, schema.bucketKeys());
        return fields.contains(null) ? List.of() : fields;
    }

    private record DeletionVectorKey(BinaryRow partition, int bucket, String fileName)
    {
        DeletionVectorKey
        {
            Objects.requireNonNull(partition, "partition is null");
        }
    }

    /**
     * The planning counters while a plan is made.
     */
    private static final class PlanningTally
    {
        long manifestsPlanned;
        long manifestsSkippedByPartition;
        long manifestsSkippedByLevel;
        long entriesRead;
        long filesSkippedByPartition;
        long filesSkippedByBucket;
        long filesSkippedByLevel;
        long filesSkippedByStats;
        long filesPlanned;
        long filesSkippedByEmbeddedIndex;
        long indexFilesRead;
        long filesSkippedByIndexFile;
        long indexesIgnored;

        Counters toCounters(long splits)
        {
            return Counters.empty(Counter.Stage.PLANNING)
                    .with(Counter.MANIFESTS_PLANNED, manifestsPlanned)
                    .with(Counter.MANIFESTS_READ, manifestsPlanned - manifestsSkippedByPartition - manifestsSkippedByLevel)
                    .with(Counter.MANIFESTS_SKIPPED_BY_PARTITION, manifestsSkippedByPartition)
                    .with(Counter.MANIFESTS_SKIPPED_BY_LEVEL, manifestsSkippedByLevel)
                    .with(Counter.ENTRIES_READ, entriesRead)
                    .with(Counter.FILES_SKIPPED_BY_PARTITION, filesSkippedByPartition)
                    .with(Counter.FILES_SKIPPED_BY_BUCKET, filesSkippedByBucket)
                    .with(Counter.FILES_SKIPPED_BY_LEVEL, filesSkippedByLevel)
                    .with(Counter.FILES_SKIPPED_BY_STATS, filesSkippedByStats)
                    .with(Counter.FILES_SKIPPED_BY_EMBEDDED_INDEX, filesSkippedByEmbeddedIndex)
                    .with(Counter.INDEX_FILES_READ, indexFilesRead)
                    .with(Counter.FILES_SKIPPED_BY_INDEX_FILE, filesSkippedByIndexFile)
                    .with(Counter.INDEXES_IGNORED_IN_PLANNING, indexesIgnored)
                    .with(Counter.FILES_PLANNED, filesPlanned)
                    .with(Counter.SPLITS_PLANNED, splits);
        }
    }
}
