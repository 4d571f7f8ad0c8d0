package io.tarn.trino;

import io.tarn.storage.schema.TableSchema;
import io.tarn.types.DataField;
import io.trino.spi.connector.AggregateFunction;
import io.trino.spi.connector.AggregationApplicationResult;
import io.trino.spi.connector.Assignment;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.ProjectionApplicationResult;
import io.trino.spi.expression.Call;
import io.trino.spi.expression.ConnectorExpression;
import io.trino.spi.expression.Constant;
import io.trino.spi.expression.FieldDereference;
import io.trino.spi.expression.Variable;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.type.RowType;
import io.trino.spi.type.Type;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static io.trino.spi.type.BigintType.BIGINT;
import static java.util.Objects.requireNonNull;

/**
 * What {@link TarnMetadata} takes over from a query plan into a table handle: filters, limits,
 * ROW field dereferences, and {@code count(*)} answered from the manifests.
 */
final class TarnPushdowns
{
    private final TarnTables tables;

    TarnPushdowns(TarnTables tables)
    {
        this.tables = requireNonNull(tables, "tables is null");
    }

    Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(TarnTableHandle handle, Constraint constraint)
    {
        if (handle.countOnly()) {
            return Optional.empty();
        }
        TableSchema schema = TarnTableSchemas.pinned(tables, handle);
        TupleDomain<TarnColumnHandle> summary = constraint.getSummary().transformKeys(TarnColumnHandle.class::cast);
        if (summary.isNone()) {
            TarnTableHandle none = handle.withFilter(TupleDomain.none(), TupleDomain.none());
            return none.equals(handle) ? Optional.empty() : Optional.of(new ConstraintApplicationResult<>(none, TupleDomain.all(), constraint.getExpression(), false));
        }
        Map<TarnColumnHandle, Domain> enforced = new HashMap<>();
        Map<TarnColumnHandle, Domain> pushed = new HashMap<>();
        Map<ColumnHandle, Domain> remaining = new HashMap<>();
        for (Map.Entry<TarnColumnHandle, Domain> entry : summary.getDomains().orElseThrow().entrySet()) {
            TarnColumnHandle column = entry.getKey();
            Optional<DataField> field = schema.fields().stream().filter(candidate -> candidate.id() == column.fieldId()).findFirst();
            boolean pushable = field.isPresent() && TarnPredicates.isPushable(column, field.get().type());
            if (pushable && schema.partitionKeys().contains(field.get().name())) {
                enforced.put(column, entry.getValue());
            }
            else {
                if (pushable) {
                    pushed.put(column, entry.getValue());
                }
                remaining.put(column, entry.getValue());
            }
        }
        TupleDomain<TarnColumnHandle> newEnforced = handle.enforcedPredicate().intersect(TupleDomain.withColumnDomains(enforced));
        TupleDomain<TarnColumnHandle> newFilter = handle.filter().intersect(TupleDomain.withColumnDomains(enforced)).intersect(TupleDomain.withColumnDomains(pushed));
        if (newEnforced.equals(handle.enforcedPredicate()) && newFilter.equals(handle.filter())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withFilter(newEnforced, newFilter), TupleDomain.withColumnDomains(remaining), constraint.getExpression(), false));
    }

    Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(TarnTableHandle handle, long limit)
    {
        if (handle.countOnly() || (handle.limit().isPresent() && handle.limit().getAsLong() <= limit)) {
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }

    Optional<ProjectionApplicationResult<ConnectorTableHandle>> applyProjection(
            ConnectorSession session,
            ConnectorTableHandle handle,
            List<ConnectorExpression> projections,
            Map<String, ColumnHandle> assignments)
    {
        if (!TarnSessionProperties.isProjectionPushdownEnabled(session)) {
            return Optional.empty();
        }
        Map<String, Assignment> newAssignments = new LinkedHashMap<>();
        List<ConnectorExpression> newProjections = new ArrayList<>();
        boolean[] changed = {false};
        for (ConnectorExpression projection : projections) {
            Optional<ConnectorExpression> rewritten = pushDereferences(projection, assignments, newAssignments, changed);
            if (rewritten.isEmpty()) {
                return Optional.empty();
            }
            newProjections.add(rewritten.get());
        }
        if (!changed[0]) {
            return Optional.empty();
        }
        return Optional.of(new ProjectionApplicationResult<>(handle, newProjections, List.copyOf(newAssignments.values()), false));
    }

    /**
     * Replaces every chain of ROW field dereferences over a column by a variable for a column
     * handle of that field; empty when the expression holds something this cannot rebuild.
     */
    private static Optional<ConnectorExpression> pushDereferences(ConnectorExpression expression, Map<String, ColumnHandle> assignments, Map<String, Assignment> newAssignments, boolean[] changed)
    {
        if (expression instanceof Variable variable) {
            TarnColumnHandle column = (TarnColumnHandle) assignments.get(variable.getName());
            newAssignments.putIfAbsent(variable.getName(), new Assignment(variable.getName(), column, column.type()));
            return Optional.of(variable);
        }
        if (expression instanceof Constant) {
            return Optional.of(expression);
        }
        if (expression instanceof FieldDereference dereference) {
            List<Integer> path = new ArrayList<>();
            ConnectorExpression target = dereference;
            while (target instanceof FieldDereference step) {
                path.addFirst(step.getField());
                target = step.getTarget();
            }
            if (target instanceof Variable variable) {
                TarnColumnHandle base = (TarnColumnHandle) assignments.get(variable.getName());
                List<Integer> fullPath = new ArrayList<>(base.path());
                fullPath.addAll(path);
                Type type = base.type();
                StringBuilder name = new StringBuilder(base.name());
                for (int index : path) {
                    RowType.Field field = ((RowType) type).getFields().get(index);
                    name.append('.').append(field.getName().orElse("_" + index));
                    type = field.getType();
                }
                TarnColumnHandle column = new TarnColumnHandle(name.toString(), base.fieldId(), base.baseName(), fullPath, type);
                String variableName = name.toString();
                newAssignments.putIfAbsent(variableName, new Assignment(variableName, column, type));
                changed[0] = true;
                return Optional.of(new Variable(variableName, type));
            }
            return pushDereferences(target, assignments, newAssignments, changed)
                    .map(rewritten -> rebuildDereference(dereference, rewritten));
        }
        if (expression instanceof Call call) {
            List<ConnectorExpression> arguments = new ArrayList<>();
            for (ConnectorExpression argument : call.getArguments()) {
                Optional<ConnectorExpression> rewritten = pushDereferences(argument, assignments, newAssignments, changed);
                if (rewritten.isEmpty()) {
                    return Optional.empty();
                }
                arguments.add(rewritten.get());
            }
            return Optional.of(new Call(call.getType(), call.getFunctionName(), arguments));
        }
        return Optional.empty();
    }

    private static ConnectorExpression rebuildDereference(FieldDereference original, ConnectorExpression target)
    {
        ConnectorExpression result = target;
        List<FieldDereference> steps = new ArrayList<>();
        ConnectorExpression current = original;
        while (current instanceof FieldDereference step) {
            steps.addFirst(step);
            current = step.getTarget();
        }
        for (FieldDereference step : steps) {
            result = new FieldDereference(step.getType(), result, step.getField());
        }
        return result;
    }

    Optional<AggregationApplicationResult<ConnectorTableHandle>> applyAggregation(
            TarnTableHandle handle,
            List<AggregateFunction> aggregates,
            List<List<ColumnHandle>> groupingSets)
    {
        if (handle.countOnly() || handle.limit().isPresent() || aggregates.size() != 1 || !groupingSets.equals(List.of(List.of()))) {
            return Optional.empty();
        }
        AggregateFunction aggregate = aggregates.get(0);
        if (!aggregate.getFunctionName().equals("count") || !aggregate.getArguments().isEmpty() || aggregate.isDistinct() || aggregate.getFilter().isPresent()) {
            return Optional.empty();
        }
        // exact only when every pushed-down domain is enforced by partition pruning
        if (!handle.filter().equals(handle.enforcedPredicate())) {
            return Optional.empty();
        }
        OptionalLong rowCount = TarnRowCounts.count(tables.load(handle.schemaTableName()), TarnTableSchemas.pinned(tables, handle), handle);
        if (rowCount.isEmpty()) {
            return Optional.empty();
        }
        TarnColumnHandle count = new TarnColumnHandle("_tarn_count", TarnColumnHandle.COUNT_FIELD_ID, "_tarn_count", List.of(), BIGINT);
        return Optional.of(new AggregationApplicationResult<>(
                handle.withCount(rowCount.getAsLong()),
                List.of(new Variable(count.name(), BIGINT)),
                List.of(new Assignment(count.name(), count, BIGINT)),
                Map.of(),
                false));
    }
}
