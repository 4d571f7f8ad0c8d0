package io.tarn.demo;

import org.testng.annotations.Test;

import static org.assertj.core.api.Assertions.assertThat;

public class TestTarnDemo
{
    // abridged from a real EXPLAIN ANALYZE VERBOSE of TPC-H Q6 over the demo warehouse
    private static final String PLAN = """
            Fragment 2 [SOURCE]
                Aggregate[type = PARTIAL]
                │   sum_0 := sum(expr)
                └─ ScanFilterProject[table = tarn:tpch.lineitem@2, filterPredicate = (l_quantity < decimal(15,2) '24.00')]
                       CPU: 1.20s (98.36%), Scheduled: 3.74s (97.70%), Blocked: 0.00ns (0.00%), Output: 23010 rows (382.00kB)
                       connector metrics:
                         'bytes_read' = LongCount{total=1552450}
                         'files_read' = LongCount{total=13}
                         'pages_skipped' = LongCount{total=0}
                         'rows_returned' = LongCount{total=23010}
                       splits generation metrics:
                         'planning.files_planned' = LongCount{total=13}
                         'planning.files_skipped_partition' = LongCount{total=0}
                         'planning.files_skipped_stats' = LongCount{total=70}
                       metrics:
                         'Input rows distribution' = {count=1, p01=23010.00, max=23010.00}
                       Input: 23010 rows (719.06kB), Filtered: 0.00%, Physical input: 1.47MB, Physical input time: 3.24s, Splits: 1
            """;

    @Test
    public void testExplainExcerpt()
    {
        assertThat(TarnDemo.explainExcerpt(PLAN)).containsExactly(
                "EXPLAIN ANALYZE VERBOSE, scan of tarn:tpch.lineitem@2 (non-zero counters):",
                "    planning: files_planned=13 files_skipped_stats=70",
                "    reading:  bytes_read=1552450 files_read=13 rows_returned=23010",
                "    Input: 23010 rows (719.06kB), Filtered: 0.00%, Physical input: 1.47MB, Physical input time: 3.24s, Splits: 1");
        assertThat(TarnDemo.explainExcerpt("Fragment 1 [SINGLE]\n    Output[columnNames = [x]]\n")).isEmpty();
    }
}
