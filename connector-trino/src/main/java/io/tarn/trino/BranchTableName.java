package io.tarn.trino;

import io.tarn.storage.InvalidNameException;
import io.tarn.storage.snapshot.BranchManager;
import io.trino.spi.connector.SchemaTableName;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * A table name that names a branch of a table the way Paimon's engines spell it,
 * {@code "t$branch_b1"}: branch {@code b1} of table {@code t}. Such a name is a table of its own
 * to Trino (its columns are the branch's latest schema), not a metadata table. The branch name
 * follows the rules every front end shares ({@link BranchManager#validateBranchName}); the only
 * rule of this spelling is that a {@code $} after it starts a metadata table's name
 * ({@code "t$branch_b1$snapshots"}).
 */
record BranchTableName(SchemaTableName table, String branch)
{
    private static final Pattern BRANCH_SUFFIX = Pattern.compile("([^$]+)\\$branch_([^$]+)");

    BranchTableName
    {
        requireNonNull(table, "table is null");
        requireNonNull(branch, "branch is null");
        BranchManager.validateBranchName(branch);
    }

    /**
     * The branch {@code name} spells, or empty when it spells none.
     *
     * @throws io.trino.spi.TrinoException if it spells a branch whose name is not valid
     */
    static Optional<BranchTableName> parse(SchemaTableName name)
    {
        Matcher matcher = BRANCH_SUFFIX.matcher(name.getTableName());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new BranchTableName(new SchemaTableName(name.getSchemaName(), matcher.group(1)), matcher.group(2)));
        }
        catch (InvalidNameException e) {
            // translated here: callers that refuse branches for writing would otherwise let it escape untranslated
            throw TarnExceptions.translate("Invalid table name " + name, e);
        }
    }

    static boolean isBranch(String tableName)
    {
        return BRANCH_SUFFIX.matcher(tableName).matches();
    }
}
