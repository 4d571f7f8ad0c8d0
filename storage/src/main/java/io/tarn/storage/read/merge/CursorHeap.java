package io.tarn.storage.read.merge;

/**
 * The cursors of a merge in {@link MergeOrder}: a binary min-heap whose first cursor can move on
 * in place ({@link #topChanged}), one sift instead of a removal and an insertion per record, and
 * which tells the least of the others ({@link #second}).
 */
final class CursorHeap
{
    private final MergeOrder order;
    private final KeyCursor[] heap;
    private int size;

    CursorHeap(MergeOrder order, int capacity)
    {
        this.order = order;
        heap = new KeyCursor[Math.max(1, capacity)];
    }

    int size()
    {
        return size;
    }

    KeyCursor top()
    {
        return heap[0];
    }

    /**
     * The least cursor but the first, or null.
     */
    KeyCursor second()
    {
        if (size < 2) {
            return null;
        }
        return size == 2 || order.compare(heap[1], heap[2]) <= 0 ? heap[1] : heap[2];
    }

    void push(KeyCursor cursor)
    {
        int index = size++;
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            if (order.compare(heap[parent], cursor) <= 0) {
                break;
            }
            heap[index] = heap[parent];
            index = parent;
        }
        heap[index] = cursor;
    }

    void pop()
    {
        size--;
        KeyCursor last = heap[size];
        heap[size] = null;
        if (size > 0) {
            heap[0] = last;
            topChanged();
        }
    }

    /**
     * Restores the order after the first cursor moved to a later record.
     */
    void topChanged()
    {
        KeyCursor cursor = heap[0];
        int index = 0;
        while (true) {
            int child = 2 * index + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && order.compare(heap[child + 1], heap[child]) < 0) {
                child++;
            }
            if (order.compare(cursor, heap[child]) <= 0) {
                break;
            }
            heap[index] = heap[child];
            index = child;
        }
        heap[index] = cursor;
    }
}
