/*
 * Tarn's canonical row text (the testing module's CanonicalValueFormatter, vector-reader's
 * CanonicalRowFormatter), produced in C from Arrow C Data Interface batches, so that tests compare
 * what a native consumer sees with Apache Paimon's rows.
 */
#ifndef TARN_CANONICAL_H
#define TARN_CANONICAL_H

#include <stddef.h>

#include "tarn.h"

typedef struct canonical_text {
    char* data;
    size_t length;
    size_t capacity;
} canonical_text;

void canonical_reset(canonical_text* text);

void canonical_free(canonical_text* text);

/*
 * Formats row `row` of a batch whose schema is a struct of the columns (as an ArrowArrayStream
 * hands them out) into `line`, replacing its contents. Returns 0, or -1 with a message in `line`
 * for a type this formatter does not know.
 */
int canonical_format_row(const struct ArrowSchema* schema, const struct ArrowArray* batch, long row, canonical_text* line);

#endif
