/*
 * The C side of TestTarnBridge: a native consumer of libtarn.so driven by a script.
 *
 * Usage: tarn-test [--host-jvm] SCRIPT
 *   --host-jvm  create a JVM first, as an engine hosting one would, so that tarn_init attaches to it
 *               (the class path then comes from TARN_CLASSPATH, given to that JVM by this program)
 *
 * The script has one command per line, fields separated by TAB, an empty field meaning NULL:
 *   scan NAME WAREHOUSE TABLE VERSION COLUMNS WHERE MODE   MODE: splits (plan, open every split) or table
 *   threads NAME WAREHOUSE TABLE THREADS                   THREADS threads read disjoint sets of the splits
 *   cycles NAME WAREHOUSE TABLE COUNT                      COUNT open/read/release cycles of one split each, then memory figures
 *   descriptor NAME BYTES                                  open a split from a descriptor that is BYTES of garbage
 *   allocated NAME                                         the bridge allocator's bytes in use
 *   hold NAME WAREHOUSE TABLE                              open the table, keep every batch, release the stream first, then
 *                                                          print the rows, release the batches out of order (half from an
 *                                                          unattached thread) and the first one last after moving its last
 *                                                          column out of it; reports allocator bytes along the way
 * Every batch read is checked against the C Data Interface (check_array) before its values are used.
 * For each command it prints "BEGIN NAME", for scans one "R <canonical line>" per row, then
 * "END NAME status=S rows=N [key=value...]" or "END NAME status=S error=MESSAGE".
 */
#define _GNU_SOURCE
#include "tarn.h"
#include "canonical.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <jni.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t output_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct scan_result {
    tarn_status status;
    char* error;
    long rows;
    int print;
} scan_result;

static void set_error(scan_result* result, tarn_status status, const char* message)
{
    result->status = status;
    free(result->error);
    result->error = strdup(message);
}

/* ---- what a consumer may rely on in every exported batch ---- */

static int expected_buffers(const char* format)
{
    if (strcmp(format, "+s") == 0) {
        return 1;
    }
    if (strcmp(format, "+l") == 0 || strcmp(format, "+m") == 0) {
        return 2;
    }
    if (strcmp(format, "u") == 0 || strcmp(format, "z") == 0) {
        return 3;
    }
    return format[0] == '+' ? -1 : 2;
}

/*
 * Checks an exported array (recursively) against the C Data Interface and Tarn's promises: every
 * struct live with Tarn's private data, no dictionary, offset 0, the buffer and child counts of its
 * format, a NULL validity buffer exactly when null_count is 0 and otherwise null_count zero bits,
 * non-NULL other buffers, offsets that start at 0 or more, never decrease and stay within the child,
 * struct children at least as long as the struct. 0, or -1 with the problem in `problem`.
 */
static int check_array(const struct ArrowSchema* schema, const struct ArrowArray* array, const char* path, char* problem, size_t size)
{
    const char* format = schema->format;
    if (array->release == NULL || array->private_data == NULL || array->dictionary != NULL || array->offset != 0) {
        snprintf(problem, size, "%s: released, without private data, with a dictionary or an offset", path);
        return -1;
    }
    if (array->n_buffers != expected_buffers(format) || array->n_children != schema->n_children || array->buffers == NULL
            || (array->n_children > 0 && array->children == NULL)) {
        snprintf(problem, size, "%s (%s): %" PRId64 " buffers and %" PRId64 " children", path, format, array->n_buffers, array->n_children);
        return -1;
    }
    if (array->length < 0 || array->null_count < 0 || array->null_count > array->length) {
        snprintf(problem, size, "%s: length %" PRId64 ", null_count %" PRId64, path, array->length, array->null_count);
        return -1;
    }
    const uint8_t* validity = array->buffers[0];
    if ((array->null_count == 0) != (validity == NULL)) {
        snprintf(problem, size, "%s: null_count %" PRId64 " with a %s validity buffer", path, array->null_count, validity == NULL ? "NULL" : "non-NULL");
        return -1;
    }
    if (validity != NULL) {
        int64_t nulls = 0;
        for (int64_t i = 0; i < array->length; i++) {
            nulls += ((validity[i >> 3] >> (i & 7)) & 1) == 0;
        }
        if (nulls != array->null_count) {
            snprintf(problem, size, "%s: null_count %" PRId64 " but %" PRId64 " zero validity bits", path, array->null_count, nulls);
            return -1;
        }
    }
    for (int64_t i = 1; i < array->n_buffers; i++) {
        if (array->buffers[i] == NULL) {
            snprintf(problem, size, "%s: buffer %" PRId64 " is NULL", path, i);
            return -1;
        }
    }
    if (array->n_buffers >= 2 && (format[0] == 'u' || format[0] == 'z' || format[0] == '+')) {
        const int32_t* offsets = array->buffers[1];
        for (int64_t i = 0; i < array->length; i++) {
            if (offsets[0] < 0 || offsets[i] > offsets[i + 1]) {
                snprintf(problem, size, "%s: offsets decrease at %" PRId64, path, i);
                return -1;
            }
        }
        if (format[0] == '+' && array->children[0]->length < offsets[array->length]) {
            snprintf(problem, size, "%s: child of %" PRId64 " values, offsets up to %d", path, array->children[0]->length, offsets[array->length]);
            return -1;
        }
    }
    for (int64_t i = 0; i < array->n_children; i++) {
        if (strcmp(format, "+s") == 0 && array->children[i]->length < array->length) {
            snprintf(problem, size, "%s: child %" PRId64 " is shorter than the struct", path, i);
            return -1;
        }
        char child_path[256];
        snprintf(child_path, sizeof(child_path), "%s/%s", path, schema->children[i]->name != NULL ? schema->children[i]->name : "?");
        if (check_array(schema->children[i], array->children[i], child_path, problem, size) != 0) {
            return -1;
        }
    }
    return 0;
}

static int check_batch(const struct ArrowSchema* schema, const struct ArrowArray* batch, scan_result* result)
{
    char problem[512];
    if (strcmp(schema->format, "+s") != 0 || batch->null_count != 0) {
        set_error(result, TARN_ERROR_INTERNAL, "batch: not a struct without NULLs");
        return -1;
    }
    if (check_array(schema, batch, "batch", problem, sizeof(problem)) != 0) {
        set_error(result, TARN_ERROR_INTERNAL, problem);
        return -1;
    }
    return 0;
}

/* Reads a stream to its end, printing every row in canonical form. */
static void consume(struct ArrowArrayStream* stream, scan_result* result)
{
    struct ArrowSchema schema;
    if (stream->get_schema(stream, &schema) != 0) {
        const char* message = stream->get_last_error(stream);
        set_error(result, TARN_ERROR_INTERNAL, message != NULL ? message : "get_schema failed");
        return;
    }
    canonical_text line = {NULL, 0, 0};
    while (1) {
        struct ArrowArray batch;
        int code = stream->get_next(stream, &batch);
        if (code != 0) {
            const char* message = stream->get_last_error(stream);
            set_error(result, TARN_ERROR_IO, message != NULL ? message : "get_next failed");
            break;
        }
        if (batch.release == NULL) {
            break;
        }
        if (check_batch(&schema, &batch, result) != 0) {
            batch.release(&batch);
            break;
        }
        for (long row = 0; row < batch.length; row++) {
            if (canonical_format_row(&schema, &batch, row, &line) != 0) {
                set_error(result, TARN_ERROR_INTERNAL, line.data);
                break;
            }
            if (result->print) {
                pthread_mutex_lock(&output_lock);
                printf("R %s\n", line.data);
                pthread_mutex_unlock(&output_lock);
            }
        }
        result->rows += batch.length;
        batch.release(&batch);
        if (result->status != TARN_OK) {
            break;
        }
    }
    canonical_free(&line);
    schema.release(&schema);
}

static void scan_split(const tarn_split* split, scan_result* result)
{
    struct ArrowArrayStream stream;
    tarn_status status = tarn_open_split(split->data, split->size, &stream);
    if (status != TARN_OK) {
        set_error(result, status, tarn_last_error());
        return;
    }
    consume(&stream, result);
    stream.release(&stream);
}

static void end(const char* name, const scan_result* result, const char* extra)
{
    if (result->status != TARN_OK) {
        printf("END %s status=%d error=%s\n", name, (int) result->status, result->error != NULL ? result->error : "");
    }
    else {
        printf("END %s status=0 rows=%ld%s\n", name, result->rows, extra != NULL ? extra : "");
    }
    fflush(stdout);
}

static const char* field(char** fields, int count, int index)
{
    return index < count && fields[index][0] != '\0' ? fields[index] : NULL;
}

static void command_scan(char** fields, int count)
{
    const char* name = fields[1];
    /* storage options: one KEY=VALUE per ';'-separated part of field 8, as lines */
    char* options = field(fields, count, 8) != NULL ? strdup(fields[8]) : NULL;
    for (char* c = options; c != NULL && *c != '\0'; c++) {
        if (*c == ';') {
            *c = '\n';
        }
    }
    tarn_scan scan = {field(fields, count, 2), field(fields, count, 3), field(fields, count, 4), field(fields, count, 5), field(fields, count, 6), options};
    const char* mode = field(fields, count, 7);
    scan_result result = {TARN_OK, NULL, 0, 1};
    char extra[64] = "";
    printf("BEGIN %s\n", name);
    if (mode != NULL && strcmp(mode, "table") == 0) {
        struct ArrowArrayStream stream;
        tarn_status status = tarn_open_table(&scan, &stream);
        if (status != TARN_OK) {
            set_error(&result, status, tarn_last_error());
        }
        else {
            consume(&stream, &result);
            stream.release(&stream);
        }
    }
    else {
        tarn_plan* plan = NULL;
        tarn_status status = tarn_plan_scan(&scan, &plan);
        if (status != TARN_OK) {
            set_error(&result, status, tarn_last_error());
        }
        else {
            for (size_t i = 0; i < plan->split_count && result.status == TARN_OK; i++) {
                scan_split(&plan->splits[i], &result);
            }
            snprintf(extra, sizeof(extra), " splits=%zu", plan->split_count);
            tarn_plan_free(plan);
        }
    }
    end(name, &result, extra);
    free(result.error);
    free(options);
}

typedef struct worker {
    const tarn_plan* plan;
    int index;
    int threads;
    scan_result result;
} worker;

static void* run_worker(void* argument)
{
    worker* self = (worker*) argument;
    for (size_t i = (size_t) self->index; i < self->plan->split_count && self->result.status == TARN_OK; i += (size_t) self->threads) {
        scan_split(&self->plan->splits[i], &self->result);
    }
    return NULL;
}

static void command_threads(char** fields, int count)
{
    const char* name = fields[1];
    tarn_scan scan = {field(fields, count, 2), field(fields, count, 3), NULL, NULL, NULL, NULL};
    int threads = atoi(fields[4]);
    scan_result result = {TARN_OK, NULL, 0, 1};
    printf("BEGIN %s\n", name);
    tarn_plan* plan = NULL;
    tarn_status status = tarn_plan_scan(&scan, &plan);
    if (status != TARN_OK) {
        set_error(&result, status, tarn_last_error());
        end(name, &result, NULL);
        free(result.error);
        return;
    }
    worker* workers = calloc((size_t) threads, sizeof(worker));
    pthread_t* ids = calloc((size_t) threads, sizeof(pthread_t));
    for (int i = 0; i < threads; i++) {
        workers[i] = (worker) {plan, i, threads, {TARN_OK, NULL, 0, 1}};
        pthread_create(&ids[i], NULL, run_worker, &workers[i]);
    }
    char extra[256] = "";
    size_t used = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
        result.rows += workers[i].result.rows;
        if (workers[i].result.status != TARN_OK) {
            set_error(&result, workers[i].result.status, workers[i].result.error);
        }
        used += (size_t) snprintf(extra + used, sizeof(extra) - used, " thread%d=%ld", i, workers[i].result.rows);
        free(workers[i].result.error);
    }
    used += (size_t) snprintf(extra + used, sizeof(extra) - used, " splits=%zu", plan->split_count);
    end(name, &result, extra);
    free(result.error);
    free(workers);
    free(ids);
    tarn_plan_free(plan);
}

static long resident_pages(void)
{
    FILE* statm = fopen("/proc/self/statm", "r");
    long size = 0;
    long resident = 0;
    if (statm != NULL) {
        if (fscanf(statm, "%ld %ld", &size, &resident) != 2) {
            resident = 0;
        }
        fclose(statm);
    }
    return resident;
}

static void command_cycles(char** fields, int count)
{
    const char* name = fields[1];
    tarn_scan scan = {field(fields, count, 2), field(fields, count, 3), NULL, NULL, NULL, NULL};
    int cycles = atoi(fields[4]);
    scan_result result = {TARN_OK, NULL, 0, 0};
    printf("BEGIN %s\n", name);
    /* resident memory in kB after each tenth of the cycles */
    char extra[1024] = " rss_kb=";
    size_t used = strlen(extra);
    long page_kb = sysconf(_SC_PAGESIZE) / 1024;
    tarn_plan* plan = NULL;
    tarn_status planned = tarn_plan_scan(&scan, &plan);
    if (planned != TARN_OK) {
        set_error(&result, planned, tarn_last_error());
    }
    for (int cycle = 1; planned == TARN_OK && cycle <= cycles && result.status == TARN_OK; cycle++) {
        /* open/read/release one split per cycle, round robin over the plan */
        scan_split(&plan->splits[(size_t) cycle % plan->split_count], &result);
        if (cycle % (cycles / 10 > 0 ? cycles / 10 : 1) == 0 && used < sizeof(extra) - 32) {
            used += (size_t) snprintf(extra + used, sizeof(extra) - used, "%s%ld", extra[used - 1] == '=' ? "" : ",", resident_pages() * page_kb);
        }
    }
    tarn_plan_free(plan);
    int64_t allocated = -1;
    if (result.status == TARN_OK && tarn_allocated_bytes(&allocated) != TARN_OK) {
        set_error(&result, TARN_ERROR_INTERNAL, tarn_last_error());
    }
    snprintf(extra + used, sizeof(extra) - used, " allocated=%" PRId64, allocated);
    end(name, &result, extra);
    free(result.error);
}

static void command_descriptor(char** fields, int count)
{
    (void) count;
    const char* name = fields[1];
    size_t size = (size_t) atol(fields[2]);
    uint8_t* garbage = malloc(size == 0 ? 1 : size);
    for (size_t i = 0; i < size; i++) {
        garbage[i] = (uint8_t) (i * 37 + 11);
    }
    scan_result result = {TARN_OK, NULL, 0, 1};
    printf("BEGIN %s\n", name);
    tarn_split split = {garbage, size};
    scan_split(&split, &result);
    end(name, &result, NULL);
    free(result.error);
    free(garbage);
}

static void command_allocated(char** fields)
{
    int64_t allocated = -1;
    tarn_status status = tarn_allocated_bytes(&allocated);
    printf("BEGIN %s\n", fields[1]);
    printf("END %s status=%d allocated=%" PRId64 "\n", fields[1], (int) status, allocated);
}

static void* release_odd_batches(void* argument)
{
    struct ArrowArray* batches = argument;
    for (size_t i = 1; batches[i].length >= 0; i += 2) {
        if (batches[i].release != NULL) {
            batches[i].release(&batches[i]);
        }
        if (batches[i + 1].length < 0) {
            break;
        }
    }
    return NULL;
}

static int64_t allocated_now(void)
{
    int64_t allocated = -1;
    return tarn_allocated_bytes(&allocated) == TARN_OK ? allocated : -1;
}

/* The last column of a canonical line: top-level values escape TAB, so it follows the last one. */
static const char* last_column(const char* line)
{
    const char* tab = strrchr(line, '\t');
    return tab == NULL ? line : tab + 1;
}

static void command_hold(char** fields, int count)
{
    const char* name = fields[1];
    tarn_scan scan = {field(fields, count, 2), field(fields, count, 3), NULL, NULL, NULL, NULL};
    scan_result result = {TARN_OK, NULL, 0, 1};
    printf("BEGIN %s\n", name);
    struct ArrowArrayStream stream;
    tarn_status status = tarn_open_table(&scan, &stream);
    if (status != TARN_OK) {
        set_error(&result, status, tarn_last_error());
        end(name, &result, NULL);
        free(result.error);
        return;
    }
    struct ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) != 0) {
        set_error(&result, TARN_ERROR_INTERNAL, stream.get_last_error(&stream));
        stream.release(&stream);
        end(name, &result, NULL);
        free(result.error);
        return;
    }
    /* every batch, then an end marker of length -1 */
    size_t held = 0;
    size_t capacity = 8;
    struct ArrowArray* batches = calloc(capacity, sizeof(struct ArrowArray));
    while (result.status == TARN_OK) {
        if (held + 2 > capacity) {
            capacity *= 2;
            batches = realloc(batches, capacity * sizeof(struct ArrowArray));
        }
        if (stream.get_next(&stream, &batches[held]) != 0) {
            set_error(&result, TARN_ERROR_IO, stream.get_last_error(&stream));
            break;
        }
        if (batches[held].release == NULL) {
            break;
        }
        if (check_batch(&schema, &batches[held], &result) != 0) {
            batches[held].release(&batches[held]);
            break;
        }
        held++;
    }
    batches[held].length = -1;
    batches[held + 1].length = -1;
    stream.release(&stream);

    /* the batches outlive their stream */
    canonical_text line = {NULL, 0, 0};
    char** first_batch_column = calloc(held > 0 ? (size_t) batches[0].length + 1 : 1, sizeof(char*));
    for (size_t b = 0; b < held && result.status == TARN_OK; b++) {
        for (long row = 0; row < batches[b].length; row++) {
            if (canonical_format_row(&schema, &batches[b], row, &line) != 0) {
                set_error(&result, TARN_ERROR_INTERNAL, line.data);
                break;
            }
            printf("R %s\n", line.data);
            if (b == 0) {
                first_batch_column[row] = strdup(last_column(line.data));
            }
            result.rows++;
        }
    }

    /* all but the first batch: the odd ones from a thread the JVM has never seen, the even ones here backwards */
    if (held > 1) {
        pthread_t releaser;
        pthread_create(&releaser, NULL, release_odd_batches, batches);
        pthread_join(releaser, NULL);
    }
    for (size_t b = held; b-- > 1;) {
        if (batches[b].release != NULL) {
            batches[b].release(&batches[b]);
        }
    }

    /* move the first batch's last column out, release the batch, read the column, release it */
    int moved_ok = 0;
    int64_t allocated_moved = -1;
    int64_t allocated_released = -1;
    if (held > 0 && batches[0].n_children > 0 && result.status == TARN_OK) {
        int64_t last = batches[0].n_children - 1;
        struct ArrowArray moved = *batches[0].children[last];
        batches[0].children[last]->release = NULL;
        batches[0].release(&batches[0]);
        allocated_moved = allocated_now();

        struct ArrowSchema column_schema = schema;
        column_schema.n_children = 1;
        column_schema.children = &schema.children[last];
        struct ArrowArray* moved_pointer = &moved;
        const void* no_buffers[1] = {NULL};
        struct ArrowArray column_batch = {moved.length, 0, 0, 1, 1, no_buffers, &moved_pointer, NULL, NULL, NULL};
        moved_ok = moved.release != NULL;
        for (long row = 0; row < moved.length && moved_ok; row++) {
            moved_ok = canonical_format_row(&column_schema, &column_batch, row, &line) == 0 && strcmp(line.data, first_batch_column[row]) == 0;
        }
        moved.release(&moved);
        moved_ok = moved_ok && moved.release == NULL;
        allocated_released = allocated_now();
    }
    else if (held > 0) {
        batches[0].release(&batches[0]);
    }
    for (size_t row = 0; held > 0 && row < (size_t) batches[0].length; row++) {
        free(first_batch_column[row]);
    }
    free(first_batch_column);
    canonical_free(&line);
    schema.release(&schema);
    char extra[256];
    snprintf(extra, sizeof(extra), " batches=%zu moved_ok=%d allocated_moved=%" PRId64 " allocated_released=%" PRId64 " allocated=%" PRId64,
            held, moved_ok, allocated_moved, allocated_released, allocated_now());
    free(batches);
    end(name, &result, extra);
    free(result.error);
}

/* Starts a JVM the way an engine that hosts one does, before Tarn is involved. */
static int start_host_jvm(void)
{
    const char* java_home = getenv("JAVA_HOME");
    const char* class_path = getenv("TARN_CLASSPATH");
    if (java_home == NULL || class_path == NULL) {
        fprintf(stderr, "--host-jvm needs JAVA_HOME and TARN_CLASSPATH\n");
        return -1;
    }
    char* path = NULL;
    if (asprintf(&path, "%s/lib/server/libjvm.so", java_home) < 0) {
        return -1;
    }
    void* libjvm = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    free(path);
    if (libjvm == NULL) {
        fprintf(stderr, "cannot load libjvm: %s\n", dlerror());
        return -1;
    }
    jint (*create)(JavaVM**, void**, void*) = (jint (*)(JavaVM**, void**, void*)) dlsym(libjvm, "JNI_CreateJavaVM");
    char* class_path_option = NULL;
    if (create == NULL || asprintf(&class_path_option, "-Djava.class.path=%s", class_path) < 0) {
        return -1;
    }
    /* the options Arrow needs are the host's business when it starts the JVM (JDK 25 here) */
    JavaVMOption options[4];
    options[0].optionString = class_path_option;
    options[1].optionString = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    options[2].optionString = "--sun-misc-unsafe-memory-access=allow";
    options[3].optionString = "-Xmx128m";
    JavaVMInitArgs args = {JNI_VERSION_1_8, 4, options, JNI_FALSE};
    JavaVM* machine = NULL;
    JNIEnv* env = NULL;
    jint created = create(&machine, (void**) &env, &args);
    free(class_path_option);
    return created == JNI_OK ? 0 : -1;
}

int main(int argc, char** argv)
{
    int host = argc > 1 && strcmp(argv[1], "--host-jvm") == 0;
    if (argc != 2 + host) {
        fprintf(stderr, "Usage: tarn-test [--host-jvm] SCRIPT\n");
        return 2;
    }
    if (host) {
        if (start_host_jvm() != 0) {
            return 3;
        }
        printf("HOST JVM started\n");
    }
    tarn_status status = tarn_init(NULL);
    printf("INIT status=%d error=%s\n", (int) status, tarn_last_error());
    fflush(stdout);

    FILE* script = fopen(argv[1 + host], "r");
    if (script == NULL) {
        perror(argv[1 + host]);
        return 2;
    }
    char* text = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&text, &capacity, script)) > 0) {
        if (text[length - 1] == '\n') {
            text[--length] = '\0';
        }
        if (length == 0) {
            continue;
        }
        char* fields[16];
        int count = 0;
        char* cursor = text;
        while (count < 16) {
            fields[count++] = cursor;
            char* tab = strchr(cursor, '\t');
            if (tab == NULL) {
                break;
            }
            *tab = '\0';
            cursor = tab + 1;
        }
        if (count < 2) {
            continue;
        }
        if (strcmp(fields[0], "scan") == 0) {
            command_scan(fields, count);
        }
        else if (strcmp(fields[0], "threads") == 0 && count >= 5) {
            command_threads(fields, count);
        }
        else if (strcmp(fields[0], "cycles") == 0 && count >= 5) {
            command_cycles(fields, count);
        }
        else if (strcmp(fields[0], "descriptor") == 0 && count >= 3) {
            command_descriptor(fields, count);
        }
        else if (strcmp(fields[0], "hold") == 0 && count >= 4) {
            command_hold(fields, count);
        }
        else if (strcmp(fields[0], "allocated") == 0) {
            command_allocated(fields);
        }
        else {
            printf("UNKNOWN %s\n", fields[0]);
        }
        fflush(stdout);
    }
    free(text);
    fclose(script);
    printf("DONE\n");
    return 0;
}
