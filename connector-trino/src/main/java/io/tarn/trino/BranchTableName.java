package io.tarn.trino;

import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A table name that names a branch of a table the way Paimon's engines spell it,
 * {@code "t$branch_b1"}: branch {@code b1} of table {@code t}. Such a name is a table of its own
 * to Trino (its columns are the branch's latest schema), not a metadata table.
 */
record BranchTableName(SchemaTableName table, String branch)
{
    private static final Pattern BRANCH_SUFFIX = Pattern.compile("([^$]+)\\$branch_([^$]+)");

    BranchTableName
    {
        requireNonNull(table, "table is null");
        requireNonNull(branch, "branch is null");
    }

    static Optional<BranchTableName> parse(SchemaTableName name)
    {
        Matcher matcher = BRANCH_SUFFIX.matcher(name.getTableName());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        return Optional.of(new BranchTableName(new SchemaTableName(name.getSchemaName(), matcher.group(1)), matcher.group(2)));
    }

    static boolean isBranch(String tableName)
    {
        return BRANCH_SUFFIX.matcher(tableName).matches();
    }
}
