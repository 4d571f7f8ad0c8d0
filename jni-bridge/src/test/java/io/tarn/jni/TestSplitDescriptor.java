package io.tarn.jni;

import io.tarn.testing.ReferenceTables;
import io.tarn.testing.TemporaryDirectories;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestSplitDescriptor
{
    private static final String DEDUP = ReferenceTables.PK_DEDUP.identifier();
    private static final String DV = ReferenceTables.PK_DV.identifier();

    private Path warehouse;

    @BeforeClass
    public void createTables()
    {
        warehouse = TemporaryDirectories.create("tarn-jni-descriptor");
        ReferenceTables.create(warehouse, ReferenceTables.PK_DV);
        ReferenceTables.create(warehouse, ReferenceTables.PK_DEDUP);
    }

    @AfterClass(alwaysRun = true)
    public void deleteTables()
    {
        TemporaryDirectories.deleteRecursively(warehouse);
    }

    @Test
    public void testRoundTripKeepsEverythingAWorkerNeeds()
    {
        for (String table : List.of(DV, DEDUP)) {
            for (byte[] bytes : plan(table, "name,id", "id < 40")) {
                SplitDescriptor descriptor = SplitDescriptor.decode(bytes);
                assertThat(descriptor.table()).isEqualTo(table);
                assertThat(descriptor.warehouse()).isEqualTo(warehouse.toString());
                assertThat(descriptor.columnIds()).hasSize(2);
                assertThat(descriptor.where()).contains("id < 40");
                assertThat(descriptor.snapshotId()).isPresent();
                assertThat(SplitDescriptor.decode(descriptor.encode())).isEqualTo(descriptor);
            }
        }
        // deletion vectors and merge flags travel with the files
        assertThat(plan(DV, null, null).stream().map(SplitDescriptor::decode)
                .flatMap(descriptor -> descriptor.split().files().stream())
                .anyMatch(file -> file.deletionFile().isPresent())).isTrue();
        assertThat(plan(DEDUP, null, null).stream().map(SplitDescriptor::decode).allMatch(descriptor -> descriptor.split().mergeRequired())).isTrue();
    }

    @Test
    public void testDamagedDescriptorsAreRefused()
    {
        byte[] bytes = plan(DV, null, null).get(0);
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> SplitDescriptor.decode(truncated)).as("truncated to " + length).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> SplitDescriptor.decode(longer)).hasMessageContaining("follow its end");
        byte[] badMagic = bytes.clone();
        badMagic[0] = 'X';
        assertThatThrownBy(() -> SplitDescriptor.decode(badMagic)).hasMessageContaining("TARNSPLT");
        byte[] hugeLength = bytes.clone();
        ByteBuffer.wrap(hugeLength).putInt(12, Integer.MAX_VALUE);
        assertThatThrownBy(() -> SplitDescriptor.decode(hugeLength)).hasMessageContaining("exceeds");
    }

    @Test
    public void testErrorsComeBackAsStatusAndMessage()
    {
        Object[] result = new Object[1];
        assertThat(TarnBridge.plan(warehouse.toString(), "ref.nope", null, null, null, result)).startsWith("2\t").contains("ref.nope");
        assertThat(TarnBridge.plan(warehouse.toString(), DV, null, null, "id >", result)).startsWith("1\t");
        assertThat(TarnBridge.plan(warehouse.toString(), DV, "tag:nope", null, null, result)).startsWith("2\t").contains("nope");
        assertThat(TarnBridge.openSplit(new byte[] {1, 2, 3}, 1)).startsWith("1\t").contains("Split descriptor is corrupt");
        assertThat(TarnBridge.openTable(warehouse.toString(), DV, null, null, null, 0)).startsWith("1\t").contains("NULL");
        assertThat(TarnBridge.openTable(null, DV, null, null, null, 8)).startsWith("1\t").contains("warehouse");
    }

    private List<byte[]> plan(String table, String columns, String where)
    {
        Object[] result = new Object[1];
        String error = TarnBridge.plan(warehouse.toString(), table, null, columns, where, result);
        assertThat(error).isNull();
        ByteBuffer plan = ByteBuffer.wrap((byte[]) result[0]);
        int count = plan.getInt();
        List<byte[]> descriptors = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] descriptor = new byte[plan.getInt()];
            plan.get(descriptor);
            descriptors.add(descriptor);
        }
        assertThat(plan.hasRemaining()).isFalse();
        assertThat(descriptors).isNotEmpty();
        return descriptors;
    }
}
