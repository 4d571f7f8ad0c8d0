/*
 * The canonical form, per value (top level / nested):
 *   NULL                 \N / null
 *   BOOLEAN              true, false
 *   TINYINT..BIGINT      decimal
 *   FLOAT, DOUBLE        Java's Float.toString / Double.toString: the shortest digits (at least 2)
 *                        that read back to the same value; plain for 1e-3 <= |v| < 1e7, else d.dddEn
 *   DECIMAL(p,s)         plain, exactly s fraction digits
 *   CHAR, VARCHAR        text with \ TAB LF CR escaped / the same, double-quoted, " escaped too
 *   BINARY, VARBINARY    0x + lowercase hex
 *   DATE                 yyyy-MM-dd (java.time.LocalDate)
 *   TIME                 java.time.LocalTime: HH:mm, then :ss if seconds or millis, then .SSS if millis
 *   TIMESTAMP(p)         yyyy-MM-ddTHH:mm:ss, then . and exactly p digits (truncated) if p > 0
 *   TIMESTAMP_LTZ(p)     the same in UTC, then Z
 *   ARRAY [a,b]   MAP / MULTISET {k=v,...}   ROW {a,b}
 * Columns are separated by TAB.
 */
#define _GNU_SOURCE
#include "canonical.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void append(canonical_text* text, const char* data, size_t length)
{
    if (text->length + length + 1 > text->capacity) {
        size_t capacity = (text->capacity + length + 1) * 2;
        char* grown = realloc(text->data, capacity);
        if (grown == NULL) {
            abort();
        }
        text->data = grown;
        text->capacity = capacity;
    }
    memcpy(text->data + text->length, data, length);
    text->length += length;
    text->data[text->length] = '\0';
}

static void append_string(canonical_text* text, const char* data)
{
    append(text, data, strlen(data));
}

static void append_char(canonical_text* text, char c)
{
    append(text, &c, 1);
}

void canonical_reset(canonical_text* text)
{
    text->length = 0;
    if (text->data != NULL) {
        text->data[0] = '\0';
    }
}

void canonical_free(canonical_text* text)
{
    free(text->data);
    text->data = NULL;
    text->length = 0;
    text->capacity = 0;
}

/* ---- schema helpers ---- */

static int starts_with(const char* text, const char* prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static int32_t read_int32(const char* data)
{
    int32_t value;
    memcpy(&value, data, sizeof(value));
    return value;
}

/* The value of a metadata key of a field, copied into `out`, or 0 if absent. */
static int metadata_value(const struct ArrowSchema* schema, const char* key, char* out, size_t out_size)
{
    if (schema->metadata == NULL) {
        return 0;
    }
    const char* cursor = schema->metadata;
    int32_t pairs = read_int32(cursor);
    cursor += 4;
    for (int32_t i = 0; i < pairs; i++) {
        int32_t key_length = read_int32(cursor);
        const char* key_data = cursor + 4;
        int32_t value_length = read_int32(key_data + key_length);
        const char* value_data = key_data + key_length + 4;
        if ((size_t) key_length == strlen(key) && memcmp(key_data, key, (size_t) key_length) == 0) {
            size_t length = (size_t) value_length < out_size - 1 ? (size_t) value_length : out_size - 1;
            memcpy(out, value_data, length);
            out[length] = '\0';
            return 1;
        }
        cursor = value_data + value_length;
    }
    return 0;
}

/* The timestamp precision of a field: from Tarn's paimon.type metadata, else the unit's full digits. */
static int timestamp_precision(const struct ArrowSchema* schema)
{
    char type[128];
    if (metadata_value(schema, "paimon.type", type, sizeof(type))) {
        const char* open = strstr(type, "TIMESTAMP(");
        if (open != NULL) {
            return atoi(open + strlen("TIMESTAMP("));
        }
    }
    switch (schema->format[2]) {
        case 's':
            return 0;
        case 'm':
            return 3;
        case 'u':
            return 6;
        default:
            return 9;
    }
}

/* ---- array helpers ---- */

static int is_null(const struct ArrowArray* array, long index)
{
    if (array->null_count == 0 || array->buffers[0] == NULL) {
        return 0;
    }
    long position = array->offset + index;
    const uint8_t* validity = (const uint8_t*) array->buffers[0];
    return ((validity[position >> 3] >> (position & 7)) & 1) == 0;
}

static int bit(const struct ArrowArray* array, int buffer, long index)
{
    long position = array->offset + index;
    const uint8_t* bits = (const uint8_t*) array->buffers[buffer];
    return (bits[position >> 3] >> (position & 7)) & 1;
}

static const void* values(const struct ArrowArray* array, int buffer)
{
    return array->buffers[buffer];
}

/* ---- atomic values ---- */

/* Java's Double.toString / Float.toString (JDK 19+): shortest round-tripping digits. */
static void append_floating(canonical_text* text, double value, int single)
{
    if (isnan(value)) {
        append_string(text, "NaN");
        return;
    }
    if (isinf(value)) {
        append_string(text, value > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (value == 0) {
        append_string(text, signbit(value) ? "-0.0" : "0.0");
        return;
    }
    char scientific[64];
    int max_digits = single ? 9 : 17;
    /* Java picks among 2-digit decimals when 1 digit would do (Double.MIN_VALUE is 4.9E-324, not 5.0E-324) */
    for (int digits = 2; digits <= max_digits; digits++) {
        snprintf(scientific, sizeof(scientific), "%.*e", digits - 1, value);
        if (single ? strtof(scientific, NULL) == (float) value : strtod(scientific, NULL) == value) {
            break;
        }
    }
    /* scientific is [-]d[.ddd]e[+-]xx: collect the digits and the exponent */
    const char* cursor = scientific;
    int negative = 0;
    if (*cursor == '-') {
        negative = 1;
        cursor++;
    }
    char digits[32];
    int count = 0;
    while (*cursor != 'e') {
        if (*cursor != '.') {
            digits[count++] = *cursor;
        }
        cursor++;
    }
    int exponent = atoi(cursor + 1);
    while (count > 1 && digits[count - 1] == '0') {
        count--;
    }
    digits[count] = '\0';
    if (negative) {
        append_char(text, '-');
    }
    double magnitude = fabs(value);
    if (magnitude >= 1e-3 && magnitude < 1e7) {
        if (exponent >= 0) {
            for (int i = 0; i <= exponent; i++) {
                append_char(text, i < count ? digits[i] : '0');
            }
            append_char(text, '.');
            if (count > exponent + 1) {
                append(text, digits + exponent + 1, (size_t) (count - exponent - 1));
            }
            else {
                append_char(text, '0');
            }
        }
        else {
            append_string(text, "0.");
            for (int i = 0; i < -exponent - 1; i++) {
                append_char(text, '0');
            }
            append(text, digits, (size_t) count);
        }
        return;
    }
    append_char(text, digits[0]);
    append_char(text, '.');
    if (count > 1) {
        append(text, digits + 1, (size_t) (count - 1));
    }
    else {
        append_char(text, '0');
    }
    char exponent_text[16];
    snprintf(exponent_text, sizeof(exponent_text), "E%d", exponent);
    append_string(text, exponent_text);
}

static void append_decimal(canonical_text* text, const uint8_t* bytes, int scale)
{
    unsigned __int128 raw = 0;
    for (int i = 15; i >= 0; i--) {
        raw = (raw << 8) | bytes[i];
    }
    __int128 value = (__int128) raw;
    int negative = value < 0;
    unsigned __int128 magnitude = negative ? (unsigned __int128) (-(value + 1)) + 1 : (unsigned __int128) value;
    char reversed[64];
    int count = 0;
    do {
        reversed[count++] = (char) ('0' + (int) (magnitude % 10));
        magnitude /= 10;
    } while (magnitude != 0);
    while (count <= scale) {
        reversed[count++] = '0';
    }
    if (negative) {
        append_char(text, '-');
    }
    for (int i = count - 1; i >= 0; i--) {
        append_char(text, reversed[i]);
        if (i == scale && scale > 0) {
            append_char(text, '.');
        }
    }
}

static void append_padded(canonical_text* text, long value, int width)
{
    char digits[32];
    snprintf(digits, sizeof(digits), "%0*ld", width, value);
    append_string(text, digits);
}

/* java.time.LocalDate.toString of an epoch day (proleptic Gregorian, days from civil by H. Hinnant). */
static void append_date(canonical_text* text, int64_t epoch_day)
{
    int64_t z = epoch_day + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t day_of_era = z - era * 146097;
    int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t year = year_of_era + era * 400;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t shifted_month = (5 * day_of_year + 2) / 153;
    int64_t day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    int64_t month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
    if (month <= 2) {
        year++;
    }
    char buffer[48];
    if (year < 0 && year > -1000) {
        snprintf(buffer, sizeof(buffer), "-%04" PRId64, -year);
    }
    else if (year > 9999) {
        snprintf(buffer, sizeof(buffer), "+%" PRId64, year);
    }
    else if (year >= 0) {
        snprintf(buffer, sizeof(buffer), "%04" PRId64, year);
    }
    else {
        snprintf(buffer, sizeof(buffer), "%" PRId64, year);
    }
    append_string(text, buffer);
    snprintf(buffer, sizeof(buffer), "-%02" PRId64 "-%02" PRId64, month, day);
    append_string(text, buffer);
}

static void append_time(canonical_text* text, int32_t millis_of_day)
{
    int hours = millis_of_day / 3600000;
    int minutes = millis_of_day / 60000 % 60;
    int seconds = millis_of_day / 1000 % 60;
    int millis = millis_of_day % 1000;
    append_padded(text, hours, 2);
    append_char(text, ':');
    append_padded(text, minutes, 2);
    if (seconds > 0 || millis > 0) {
        append_char(text, ':');
        append_padded(text, seconds, 2);
        if (millis > 0) {
            append_char(text, '.');
            append_padded(text, millis, 3);
        }
    }
}

static int64_t floor_div(int64_t value, int64_t divisor)
{
    int64_t quotient = value / divisor;
    return (value % divisor != 0 && ((value < 0) != (divisor < 0))) ? quotient - 1 : quotient;
}

static void append_timestamp(canonical_text* text, int64_t raw, char unit, int precision, int utc)
{
    int64_t per_second = unit == 's' ? 1 : unit == 'm' ? 1000 : unit == 'u' ? 1000000 : 1000000000;
    int64_t epoch_second = floor_div(raw, per_second);
    int64_t nano_of_second = (raw - epoch_second * per_second) * (1000000000 / per_second);
    int64_t epoch_day = floor_div(epoch_second, 86400);
    int64_t second_of_day = epoch_second - epoch_day * 86400;
    append_date(text, epoch_day);
    append_char(text, 'T');
    append_padded(text, (long) (second_of_day / 3600), 2);
    append_char(text, ':');
    append_padded(text, (long) (second_of_day / 60 % 60), 2);
    append_char(text, ':');
    append_padded(text, (long) (second_of_day % 60), 2);
    if (precision > 0) {
        char nanos[16];
        snprintf(nanos, sizeof(nanos), "%09" PRId64, nano_of_second);
        append_char(text, '.');
        append(text, nanos, (size_t) precision);
    }
    if (utc) {
        append_char(text, 'Z');
    }
}

static void append_text_value(canonical_text* text, const char* data, size_t length, int nested)
{
    if (nested) {
        append_char(text, '"');
    }
    for (size_t i = 0; i < length; i++) {
        char c = data[i];
        switch (c) {
            case '\\':
                append_string(text, "\\\\");
                break;
            case '\t':
                append_string(text, "\\t");
                break;
            case '\n':
                append_string(text, "\\n");
                break;
            case '\r':
                append_string(text, "\\r");
                break;
            case '"':
                append_string(text, nested ? "\\\"" : "\"");
                break;
            default:
                append_char(text, c);
        }
    }
    if (nested) {
        append_char(text, '"');
    }
}

static void append_hex(canonical_text* text, const uint8_t* data, size_t length)
{
    static const char hex[] = "0123456789abcdef";
    append_string(text, "0x");
    for (size_t i = 0; i < length; i++) {
        append_char(text, hex[data[i] >> 4]);
        append_char(text, hex[data[i] & 15]);
    }
}

/* ---- values ---- */

static int append_value(canonical_text* text, const struct ArrowSchema* schema, const struct ArrowArray* array, long index, int nested);

static int append_range(canonical_text* text, const struct ArrowSchema* schema, const struct ArrowArray* array, int64_t start, int64_t end, char open, char close, int map)
{
    append_char(text, open);
    for (int64_t i = start; i < end; i++) {
        if (i > start) {
            append_char(text, ',');
        }
        if (map) {
            /* a map's child is a struct of key and value; children of a struct share its offset */
            const struct ArrowArray* entries = array->children[0];
            const struct ArrowSchema* entry_schema = schema->children[0];
            if (append_value(text, entry_schema->children[0], entries->children[0], entries->offset + i, 1) != 0) {
                return -1;
            }
            append_char(text, '=');
            if (append_value(text, entry_schema->children[1], entries->children[1], entries->offset + i, 1) != 0) {
                return -1;
            }
        }
        else if (append_value(text, schema->children[0], array->children[0], i, 1) != 0) {
            return -1;
        }
    }
    append_char(text, close);
    return 0;
}

static int append_value(canonical_text* text, const struct ArrowSchema* schema, const struct ArrowArray* array, long index, int nested)
{
    if (is_null(array, index)) {
        append_string(text, nested ? "null" : "\\N");
        return 0;
    }
    const char* format = schema->format;
    long position = array->offset + index;
    char buffer[64];
    switch (format[0]) {
        case 'b':
            append_string(text, bit(array, 1, index) ? "true" : "false");
            return 0;
        case 'c':
            snprintf(buffer, sizeof(buffer), "%d", ((const int8_t*) values(array, 1))[position]);
            append_string(text, buffer);
            return 0;
        case 's':
            snprintf(buffer, sizeof(buffer), "%d", ((const int16_t*) values(array, 1))[position]);
            append_string(text, buffer);
            return 0;
        case 'i':
            snprintf(buffer, sizeof(buffer), "%d", ((const int32_t*) values(array, 1))[position]);
            append_string(text, buffer);
            return 0;
        case 'l':
            snprintf(buffer, sizeof(buffer), "%" PRId64, ((const int64_t*) values(array, 1))[position]);
            append_string(text, buffer);
            return 0;
        case 'f':
            append_floating(text, ((const float*) values(array, 1))[position], 1);
            return 0;
        case 'g':
            append_floating(text, ((const double*) values(array, 1))[position], 0);
            return 0;
        case 'd': {
            /* d:precision,scale[,bitWidth] */
            const char* comma = strchr(format, ',');
            int scale = comma == NULL ? 0 : atoi(comma + 1);
            append_decimal(text, (const uint8_t*) values(array, 1) + 16 * position, scale);
            return 0;
        }
        case 'u':
        case 'z': {
            const int32_t* offsets = (const int32_t*) values(array, 1);
            const char* data = (const char*) values(array, 2);
            int32_t start = offsets[position];
            int32_t end = offsets[position + 1];
            if (format[0] == 'u') {
                append_text_value(text, data + start, (size_t) (end - start), nested);
            }
            else {
                append_hex(text, (const uint8_t*) data + start, (size_t) (end - start));
            }
            return 0;
        }
        case 't':
            if (starts_with(format, "tdD")) {
                append_date(text, ((const int32_t*) values(array, 1))[position]);
                return 0;
            }
            if (starts_with(format, "ttm")) {
                append_time(text, ((const int32_t*) values(array, 1))[position]);
                return 0;
            }
            if (starts_with(format, "ts")) {
                const char* zone = format + 4;
                append_timestamp(text, ((const int64_t*) values(array, 1))[position], format[2], timestamp_precision(schema), zone[0] != '\0');
                return 0;
            }
            break;
        case '+':
            if (format[1] == 'l' || format[1] == 'm') {
                const int32_t* offsets = (const int32_t*) values(array, 1);
                return append_range(text, schema, array, offsets[position], offsets[position + 1], format[1] == 'l' ? '[' : '{', format[1] == 'l' ? ']' : '}', format[1] == 'm');
            }
            if (format[1] == 's') {
                append_char(text, '{');
                for (int64_t child = 0; child < schema->n_children; child++) {
                    if (child > 0) {
                        append_char(text, ',');
                    }
                    if (append_value(text, schema->children[child], array->children[child], position, 1) != 0) {
                        return -1;
                    }
                }
                append_char(text, '}');
                return 0;
            }
            break;
        default:
            break;
    }
    canonical_reset(text);
    append_string(text, "Unsupported Arrow format: ");
    append_string(text, format);
    return -1;
}

int canonical_format_row(const struct ArrowSchema* schema, const struct ArrowArray* batch, long row, canonical_text* line)
{
    canonical_reset(line);
    append(line, "", 0);
    for (int64_t column = 0; column < schema->n_children; column++) {
        if (column > 0) {
            append_char(line, '\t');
        }
        if (append_value(line, schema->children[column], batch->children[column], batch->offset + row, 0) != 0) {
            return -1;
        }
    }
    return 0;
}
