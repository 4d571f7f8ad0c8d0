package io.tarn.benchmarks.jni;

import io.tarn.storage.catalog.FileSystemCatalog;
import io.tarn.storage.catalog.Identifier;
import io.tarn.storage.fs.LocalFileIO;
import io.tarn.storage.read.ReadRequest;
import io.tarn.storage.scan.ScanPlan;
import io.tarn.storage.scan.ScanPlanner;
import io.tarn.storage.snapshot.ScanVersion;
import io.tarn.storage.source.TableRead;
import io.tarn.storage.table.PaimonTable;
import io.tarn.types.DataField;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-JVM side of the JNI benchmark, called by {@code tarn-bench} (C) through JNI in the same
 * process: plans and reads a table with Tarn's reader and folds every value into the checksum the
 * C side computes from the Arrow C stream (sum of non-NULL fixed-width slots as signed integers,
 * sum of value lengths for strings and binaries, nothing for booleans and decimals).
 */
public final class JvmScan
{
    private JvmScan() {}

    /**
     * @return {rows, checksum}
     */
    public static long[] scan(String warehouse, String table, String columns)
    {
        try (BufferAllocator allocator = new RootAllocator()) {
            PaimonTable paimonTable = PaimonTable.load(new FileSystemCatalog(new LocalFileIO(), warehouse), Identifier.parse(table));
            ScanPlan plan = new ScanPlanner(paimonTable).plan(paimonTable.snapshot(ScanVersion.latest()));
            List<DataField> fields = new ArrayList<>();
            if (columns.isEmpty()) {
                fields.addAll(plan.readSchema().fields());
            }
            else {
                for (String name : columns.split(",")) {
                    fields.add(plan.readSchema().rowType().field(name.trim()).orElseThrow());
                }
            }
            long[] totals = new long[2];
            TableRead.forEachBatch(paimonTable, plan, ReadRequest.of(fields), allocator, batch -> {
                totals[0] += batch.getRowCount();
                totals[1] += checksum(batch);
            });
            return totals;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long checksum(VectorSchemaRoot batch)
    {
        long sum = 0;
        int rows = batch.getRowCount();
        for (FieldVector vector : batch.getFieldVectors()) {
            ArrowBuf data = vector.getDataBuffer();
            // the values under NULL slots are whatever the buffer held: skipped, as the C side does
            boolean nullable = vector.getNullCount() > 0;
            if (vector instanceof TinyIntVector) {
                for (int i = 0; i < rows; i++) {
                    if (!nullable || !vector.isNull(i)) {
                        sum += data.getByte(i);
                    }
                }
            }
            else if (vector instanceof SmallIntVector) {
                for (int i = 0; i < rows; i++) {
                    if (!nullable || !vector.isNull(i)) {
                        sum += data.getShort((long) i * 2);
                    }
                }
            }
            else if (vector instanceof IntVector || vector instanceof Float4Vector || vector instanceof DateDayVector || vector instanceof TimeMilliVector) {
                for (int i = 0; i < rows; i++) {
                    if (!nullable || !vector.isNull(i)) {
                        sum += data.getInt((long) i * 4);
                    }
                }
            }
            else if (vector instanceof BigIntVector || vector instanceof Float8Vector || vector instanceof TimeStampVector) {
                for (int i = 0; i < rows; i++) {
                    if (!nullable || !vector.isNull(i)) {
                        sum += data.getLong((long) i * 8);
                    }
                }
            }
            else if (vector instanceof BaseVariableWidthVector variableWidth) {
                ArrowBuf offsets = variableWidth.getOffsetBuffer();
                sum += offsets.getInt((long) rows * 4) - offsets.getInt(0);
            }
        }
        return sum;
    }
}
