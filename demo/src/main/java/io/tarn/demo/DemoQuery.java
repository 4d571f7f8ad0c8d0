package io.tarn.demo;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One query of the demo's showcase: a title, the SQL (against catalog {@code tarn}, schema
 * {@code tpch}), and whether to show an excerpt of its {@code EXPLAIN ANALYZE VERBOSE}.
 */
record DemoQuery(String title, String sql, boolean explain)
{
    DemoQuery
    {
        requireNonNull(title, "title is null");
        requireNonNull(sql, "sql is null");
    }

    static List<DemoQuery> showcase(TpchLikeGenerator generator)
    {
        // a customer that exists at every scale; orders are not sorted by customer, so only the Bloom filter skips files
        long customer = Math.min(4242, generator.customerCount());
        long part = Math.min(777, generator.partCount());
        return List.of(
                new DemoQuery("TPC-H Q1: pricing summary (scans nearly all of lineitem)", """
                        SELECT l_returnflag, l_linestatus,
                               sum(l_quantity) AS sum_qty,
                               sum(l_extendedprice) AS sum_base_price,
                               sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
                               sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
                               avg(l_quantity) AS avg_qty,
                               avg(l_discount) AS avg_disc,
                               count(*) AS count_order
                        FROM lineitem
                        WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
                        GROUP BY l_returnflag, l_linestatus
                        ORDER BY l_returnflag, l_linestatus""", false),
                new DemoQuery("TPC-H Q6: forecast revenue change (one ship year: min/max statistics skip the other years' files)", """
                        SELECT sum(l_extendedprice * l_discount) AS revenue
                        FROM lineitem
                        WHERE l_shipdate >= DATE '1994-01-01'
                          AND l_shipdate < DATE '1995-01-01'
                          AND l_discount BETWEEN 0.05 AND 0.07
                          AND l_quantity < 24""", true),
                new DemoQuery("Point lookup on an unsorted key (min/max statistics cannot help; only a Bloom-filter index on o_custkey skips files)", """
                        SELECT o_orderkey, o_orderdate, o_totalprice, o_orderpriority, o_orderstatus
                        FROM orders
                        WHERE o_custkey = %d
                        ORDER BY o_orderkey""".formatted(customer), true),
                new DemoQuery("Selective filter: one part in one partition (partition pruning; a Bloom-filter index on l_partkey skips more)", """
                        SELECT l_orderkey, l_linenumber, l_shipdate, l_shipmode, l_quantity, l_extendedprice
                        FROM lineitem
                        WHERE l_shipyear = 1996 AND l_partkey = %d
                        ORDER BY l_orderkey, l_linenumber""".formatted(part), true),
                new DemoQuery("Z-order range: about 1% of the line items by two keys (lineitem_zorder is sorted in z-order of both, so min/max statistics keep few files)", """
                        SELECT count(*) AS items, sum(l_quantity) AS quantity
                        FROM lineitem_zorder
                        WHERE l_partkey BETWEEN %d AND %d
                          AND l_suppkey BETWEEN %d AND %d""".formatted(
                        generator.partCount() / 3, generator.partCount() / 3 + generator.partCount() / 10,
                        generator.supplierCount() / 2, generator.supplierCount() / 2 + generator.supplierCount() / 10), true),
                new DemoQuery("Time travel: orders now and as of the first snapshot", """
                        SELECT 'now' AS version, count(*) AS orders FROM orders
                        UNION ALL
                        SELECT 'snapshot 1', count(*) FROM orders FOR VERSION AS OF 1""", false));
    }
}
