package io.tarn.storage.read;

import io.tarn.storage.fs.InputFile;
import io.tarn.storage.fs.ObjectStoreTally;
import io.tarn.storage.fs.RandomAccessInput;
import io.tarn.vector.io.ByteRange;
import org.testng.annotations.Test;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static io.tarn.storage.read.RemoteDataInput.MAX_GAP;
import static io.tarn.storage.read.RemoteDataInput.MAX_REQUEST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class TestRemoteDataInput
{
    @Test
    public void testCoalescesNearbyRanges()
    {
        assertThat(RemoteDataInput.coalesce(List.of(range(0, 10), range(10, 5), range(15 + MAX_GAP, 1))))
                .containsExactly(range(0, 16 + MAX_GAP));
        assertThat(RemoteDataInput.coalesce(List.of(range(0, 10), range(11 + MAX_GAP, 5))))
                .containsExactly(range(0, 10), range(11 + MAX_GAP, 5));
        // a request never grows past the cap, but a single range larger than it is fetched whole
        assertThat(RemoteDataInput.coalesce(List.of(range(0, MAX_REQUEST - 10), range(MAX_REQUEST - 5, 10), range(MAX_REQUEST + 10, 2L * MAX_REQUEST))))
                .containsExactly(range(0, MAX_REQUEST - 10), range(MAX_REQUEST - 5, 10), range(MAX_REQUEST + 10, 2L * MAX_REQUEST));
        assertThat(RemoteDataInput.coalesce(List.of(range(5, 0), range(7, 3)))).containsExactly(range(7, 3));
        assertThat(RemoteDataInput.coalesce(List.of())).isEmpty();
    }

    @Test
    public void testAnnouncedRangesAreFetchedInOneRequestAndCounted()
            throws IOException
    {
        FakeObject object = new FakeObject(1000);
        RemoteDataInput input = new RemoteDataInput(object);
        long requestsBefore = ObjectStoreTally.requests();
        input.willRead(List.of(range(100, 50), range(200, 100)));
        byte[] first = new byte[50];
        input.readFully(100, first, 0, 50);
        byte[] second = new byte[30];
        input.readFully(250, second, 0, 30);
        assertThat(first).isEqualTo(object.bytes(100, 50));
        assertThat(second).isEqualTo(object.bytes(250, 30));
        assertThat(object.reads()).containsExactly(range(100, 200));
        // a read outside what was announced is its own request
        byte[] outside = new byte[10];
        input.readFully(900, outside, 0, 10);
        assertThat(outside).isEqualTo(object.bytes(900, 10));
        assertThat(object.reads()).containsExactly(range(100, 200), range(900, 10));
        // the request made ahead on another thread counts on the reading thread
        assertThat(ObjectStoreTally.requests() - requestsBefore).isEqualTo(2);
    }

    @Test
    public void testAnnouncementDropsTheRangesBefore()
            throws IOException
    {
        FakeObject object = new FakeObject(1000);
        RemoteDataInput input = new RemoteDataInput(object);
        input.willRead(List.of(range(0, 100)));
        input.willRead(List.of(range(500, 100)));
        input.readFully(10, new byte[10], 0, 10);
        // an empty announcement drops (awaits) the fetch of the second
        input.willRead(List.of());
        assertThat(object.reads()).containsExactlyInAnyOrder(range(0, 100), range(500, 100), range(10, 10));
    }

    @Test
    public void testFailedFetchLeavesTheErrorToTheRead()
    {
        FakeObject object = new FakeObject(1000);
        RemoteDataInput input = new RemoteDataInput(object);
        // a range past the end (a corrupt footer's) fails in the fetch; the read reports it
        input.willRead(List.of(range(900, 200)));
        assertThatThrownBy(() -> input.readFully(950, new byte[100], 0, 100))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining("fake-object");
    }

    private static ByteRange range(long start, long length)
    {
        return new ByteRange(start, length);
    }

    private static final class FakeObject
            implements InputFile
    {
        private final byte[] data;
        private final List<ByteRange> reads = Collections.synchronizedList(new ArrayList<>());

        FakeObject(int size)
        {
            data = new byte[size];
            for (int i = 0; i < size; i++) {
                data[i] = (byte) (i * 31 + 7);
            }
        }

        byte[] bytes(int start, int length)
        {
            return Arrays.copyOfRange(data, start, start + length);
        }

        List<ByteRange> reads()
        {
            synchronized (reads) {
                return List.copyOf(reads);
            }
        }

        @Override
        public String path()
        {
            return "s3://bucket/fake-object";
        }

        @Override
        public boolean remote()
        {
            return true;
        }

        @Override
        public long length()
        {
            return data.length;
        }

        @Override
        public InputStream newStream()
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public byte[] readAllBytes()
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void readFully(long position, byte[] buffer, int offset, int length)
                throws IOException
        {
            ObjectStoreTally.recordRequest();
            reads.add(range(position, length));
            if (position + length > data.length) {
                throw new EOFException(path() + " ends before byte " + (position + length));
            }
            System.arraycopy(data, (int) position, buffer, offset, length);
        }

        @Override
        public RandomAccessInput openRandomAccess()
        {
            throw new UnsupportedOperationException();
        }
    }
}
