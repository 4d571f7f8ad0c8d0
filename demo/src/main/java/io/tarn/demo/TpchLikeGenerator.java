package io.tarn.demo;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static java.util.Objects.requireNonNull;

/**
 * Deterministic TPC-H-like orders and line items: the same seed and order count give the same
 * rows on every machine. Value ranges follow the TPC-H specification loosely (order dates
 * 1992-01-01..1998-08-02, 1 to 7 lines per order, ship date 1 to 121 days after the order date,
 * return flag and line status derived from the dates as in dbgen); keys are dense, not sparse.
 * Money is in cents (DECIMAL(15,2) unscaled), dates are epoch days.
 */
public final class TpchLikeGenerator
{
    public static final long DEFAULT_SEED = 19920101;

    private static final int START_DATE = (int) LocalDate.of(1992, 1, 1).toEpochDay();
    private static final int END_ORDER_DATE = (int) LocalDate.of(1998, 8, 2).toEpochDay();
    // dbgen's "current date": lines received before it are returned (R/A) or not (N), shipped before it are F(illed)
    private static final int CURRENT_DATE = (int) LocalDate.of(1995, 6, 17).toEpochDay();
    private static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};
    private static final String[] INSTRUCTIONS = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    private static final String[] WORDS = {
            "furiously", "quickly", "carefully", "blithely", "slyly", "fluffily", "ironic", "final", "regular", "express",
            "pending", "special", "bold", "even", "silent", "unusual", "deposits", "requests", "packages", "accounts",
            "pinto", "beans", "foxes", "ideas", "theodolites", "instructions", "dependencies", "excuses", "platelets", "asymptotes",
            "sleep", "wake", "haggle", "nag", "use", "boost", "affix", "detect", "integrate", "cajole"};

    private final int orderCount;
    private final long seed;

    public TpchLikeGenerator(int orderCount, long seed)
    {
        if (orderCount <= 0) {
            throw new IllegalArgumentException("Order count must be positive: " + orderCount);
        }
        this.orderCount = orderCount;
        this.seed = seed;
    }

    public record Order(long orderKey, long custKey, String orderStatus, long totalPriceCents, int orderDate,
            String orderPriority, String clerk, int shipPriority, String comment)
    {
        public Order
        {
            requireNonNull(orderStatus, "orderStatus is null");
            requireNonNull(orderPriority, "orderPriority is null");
            requireNonNull(clerk, "clerk is null");
            requireNonNull(comment, "comment is null");
        }
    }

    public record LineItem(long orderKey, long partKey, long suppKey, int lineNumber, long quantityCents, long extendedPriceCents,
            long discountCents, long taxCents, String returnFlag, String lineStatus, int shipDate, int commitDate, int receiptDate,
            String shipInstruct, String shipMode, String comment)
    {
        public LineItem
        {
            requireNonNull(returnFlag, "returnFlag is null");
            requireNonNull(lineStatus, "lineStatus is null");
            requireNonNull(shipInstruct, "shipInstruct is null");
            requireNonNull(shipMode, "shipMode is null");
            requireNonNull(comment, "comment is null");
        }

        public int shipYear()
        {
            return LocalDate.ofEpochDay(shipDate).getYear();
        }
    }

    /**
     * Receives each order with its lines, in order-key order.
     */
    public interface Sink
    {
        void accept(Order order, List<LineItem> lines)
                throws java.io.IOException;
    }

    public int orderCount()
    {
        return orderCount;
    }

    public long seed()
    {
        return seed;
    }

    public long partCount()
    {
        return Math.max(10, orderCount * 2L / 15);
    }

    public long supplierCount()
    {
        return Math.max(10, orderCount / 150);
    }

    public long customerCount()
    {
        return Math.max(10, orderCount / 10);
    }

    public void generate(Sink sink)
            throws java.io.IOException
    {
        SplittableRandom random = new SplittableRandom(seed);
        List<LineItem> lines = new ArrayList<>(7);
        StringBuilder text = new StringBuilder();
        for (long orderKey = 1; orderKey <= orderCount; orderKey++) {
            int orderDate = START_DATE + random.nextInt(END_ORDER_DATE - START_DATE + 1);
            long custKey = 1 + random.nextLong(customerCount());
            String priority = PRIORITIES[random.nextInt(PRIORITIES.length)];
            String clerk = "Clerk#%09d".formatted(1 + random.nextInt(1000));
            String orderComment = comment(random, text, 19, 78);
            int lineCount = 1 + random.nextInt(7);
            lines.clear();
            long total = 0;
            int filled = 0;
            for (int lineNumber = 1; lineNumber <= lineCount; lineNumber++) {
                long partKey = 1 + random.nextLong(partCount());
                long suppKey = 1 + random.nextLong(supplierCount());
                long quantity = 1 + random.nextInt(50);
                // dbgen's retail price of a part, in cents
                long partPrice = 90_000 + (partKey / 10) % 20_001 + 100 * (partKey % 1_000);
                long extendedPrice = quantity * partPrice;
                long discount = random.nextInt(11);
                long tax = random.nextInt(9);
                int shipDate = orderDate + 1 + random.nextInt(121);
                int commitDate = orderDate + 30 + random.nextInt(61);
                int receiptDate = shipDate + 1 + random.nextInt(30);
                String returnFlag = receiptDate <= CURRENT_DATE ? (random.nextBoolean() ? "R" : "A") : "N";
                String lineStatus = shipDate > CURRENT_DATE ? "O" : "F";
                if (lineStatus.equals("F")) {
                    filled++;
                }
                lines.add(new LineItem(orderKey, partKey, suppKey, lineNumber, quantity * 100, extendedPrice, discount, tax,
                        returnFlag, lineStatus, shipDate, commitDate, receiptDate,
                        INSTRUCTIONS[random.nextInt(INSTRUCTIONS.length)], MODES[random.nextInt(MODES.length)],
                        comment(random, text, 10, 43)));
                // extended price * (1 + tax) * (1 - discount), rounded half up to cents
                total += (extendedPrice * (100 + tax) * (100 - discount) + 5_000) / 10_000;
            }
            String status = filled == lineCount ? "F" : filled == 0 ? "O" : "P";
            sink.accept(new Order(orderKey, custKey, status, total, orderDate, priority, clerk, 0, orderComment), lines);
        }
    }

    private static String comment(SplittableRandom random, StringBuilder text, int minimumLength, int maximumLength)
    {
        text.setLength(0);
        int length = minimumLength + random.nextInt(maximumLength - minimumLength + 1);
        while (text.length() < length) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append(WORDS[random.nextInt(WORDS.length)]);
        }
        text.setLength(length);
        return text.toString();
    }
}
