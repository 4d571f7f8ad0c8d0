package io.tarn.storage.scan;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.manifest.FileKind;
import io.tarn.storage.manifest.ManifestEntry;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.table.PaimonTable;
import io.tarn.testing.ReferenceTable;
import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSplitCodec
{
    private Path warehouse;
    private final List<DataSplit> splits = new ArrayList<>();

    @BeforeClass
    public void planTables()
            throws IOException
    {
        warehouse = TemporaryDirectories.create("tarn-split-codec");
        FileSystemCatalog catalog = new FileSystemCatalog(new LocalFileIO(), warehouse.toString());
        for (ReferenceTable reference : List.of(ReferenceTables.PK_DV, ReferenceTables.PK_DEDUP, ReferenceTables.APPEND_PARTITIONED)) {
            ReferenceTables.create(warehouse, reference);
            PaimonTable table = PaimonTable.load(catalog, Identifier.parse(reference.identifier()));
            splits.addAll(new ScanPlanner(table).plan(table.snapshot(ScanVersion.latest())).splits());
        }
        // what the codec carries: deletion vectors, merge flags, partitions
        assertThat(splits).anyMatch(split -> split.files().stream().anyMatch(file -> file.deletionFile().isPresent()));
        assertThat(splits).anyMatch(DataSplit::mergeRequired);
        assertThat(splits).anyMatch(split -> split.partition().arity() > 0);
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testRoundTrip()
    {
        for (DataSplit split : splits) {
            assertThat(SplitCodec.decode(SplitCodec.encode(split))).isEqualTo(split);
            for (PlannedFile file : split.files()) {
                ManifestEntry entry = new ManifestEntry(FileKind.ADD, file.partition(), file.bucket(), file.totalBuckets(), file.file());
                assertThat(SplitCodec.decodeEntry(SplitCodec.encode(entry))).isEqualTo(entry);
            }
        }
    }

    @Test
    public void testDamagedBytesAreRefusedWithTheirCause()
    {
        byte[] bytes = SplitCodec.encode(splits.get(0));
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> SplitCodec.decode(truncated)).as("truncated to %s", length).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> SplitCodec.decode(longer)).hasMessageContaining("follow its end");
        // every byte damaged in turn: decoded to some split, or refused, never another failure
        for (int position = 0; position < bytes.length; position++) {
            for (int mask : new int[] {0x01, 0x80, 0xFF}) {
                byte[] damaged = bytes.clone();
                damaged[position] ^= (byte) mask;
                try {
                    SplitCodec.decode(damaged);
                }
                catch (IllegalArgumentException expected) {
                    assertThat(expected.getMessage()).as("byte %s ^ %s", position, mask).isNotBlank();
                }
            }
        }
    }
}
