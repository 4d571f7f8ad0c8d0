package io.tarn.benchmarks;

import io.tarn.benchmarks.BenchmarkScan.ScanResult;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;

import java.io.IOException;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Reads splits with Apache Paimon's own table read, the way every benchmark measures Paimon:
 * batch by batch, each row tested against {@code filter} when there is one (Paimon's read uses a
 * filter only to skip files and row groups) and folded into a checksum, so both readers return
 * exactly the matching rows and touch every value they return.
 */
final class PaimonReads
{
    private PaimonReads() {}

    static ScanResult scan(ReadBuilder builder, List<Split> splits, Predicate filter, ToLongFunction<InternalRow> checksum)
            throws IOException
    {
        long count = 0;
        long sum = 0;
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(splits)) {
            RecordReader.RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    if (filter != null && !filter.test(row)) {
                        continue;
                    }
                    count++;
                    sum += checksum.applyAsLong(row);
                }
                batch.releaseBatch();
            }
        }
        return new ScanResult(count, sum);
    }
}
