/*
 * Throughput of a table scan read through the Arrow C stream from C, against the same scan read
 * inside the JVM and the same C scan with Arrow Java's exporter (TarnBridge.ARROW_EXPORTER), in one
 * process and interleaved round by round (benchmarks module, "jni").
 *
 * Usage: tarn-bench WAREHOUSE TABLE COLUMNS WARMUP ROUNDS JVM_CLASS
 *   JVM_CLASS: a class (slashes) with a static long[] scan(String warehouse, String table, String columns)
 *   that runs the same scan inside the JVM and returns {rows, checksum}.
 * Both sides compute the same checksum, so each touches every value: the sum of all non-NULL
 * fixed-width slots (1, 2, 4 or 8 bytes, as signed integers) and, for variable-width columns, of
 * the value lengths. Prints one line per measured round: "round N ... c_rows_per_second=X jvm_rows_per_second=Y c_arrow_rows_per_second=Z ...".
 */
#define _GNU_SOURCE
#include "tarn.h"

#include <inttypes.h>
#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void)
{
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double) time.tv_sec + (double) time.tv_nsec / 1e9;
}

/* Whether slot i is valid; the values under NULL slots are whatever the buffer held, so they are skipped. */
static int valid(const struct ArrowArray* array, int64_t i)
{
    const uint8_t* validity = array->buffers[0];
    return array->null_count == 0 || validity == NULL || ((validity[i >> 3] >> (i & 7)) & 1);
}

#define SUM_SLOTS(type)                                  \
    do {                                                 \
        const type* values = array->buffers[1];          \
        for (int64_t i = first; i < end; i++) {          \
            if (valid(array, i)) {                       \
                sum += values[i];                        \
            }                                            \
        }                                                \
    } while (0)

static int64_t column_checksum(const struct ArrowSchema* schema, const struct ArrowArray* array)
{
    const char* format = schema->format;
    int64_t sum = 0;
    int64_t first = array->offset;
    int64_t end = array->offset + array->length;
    if (format[0] == 'c') {
        SUM_SLOTS(int8_t);
    }
    else if (format[0] == 's') {
        SUM_SLOTS(int16_t);
    }
    else if (format[0] == 'i' || format[0] == 'f' || (format[0] == 't' && format[1] != 's')) {
        SUM_SLOTS(int32_t);
    }
    else if (format[0] == 'l' || format[0] == 'g' || (format[0] == 't' && format[1] == 's')) {
        SUM_SLOTS(int64_t);
    }
    else if (format[0] == 'u' || format[0] == 'z') {
        const int32_t* offsets = array->buffers[1];
        sum = offsets[end] - offsets[first];
    }
    return sum;
}

/* where the C side's time goes: inside get_next (Tarn reading and exporting), folding values, release */
static double next_seconds;
static double fold_seconds;
static double release_seconds;

static int scan_in_c(const tarn_scan* scan, int64_t* rows, int64_t* checksum)
{
    struct ArrowArrayStream stream;
    if (tarn_open_table(scan, &stream) != TARN_OK) {
        fprintf(stderr, "tarn_open_table: %s\n", tarn_last_error());
        return -1;
    }
    struct ArrowSchema schema;
    if (stream.get_schema(&stream, &schema) != 0) {
        fprintf(stderr, "get_schema: %s\n", stream.get_last_error(&stream));
        stream.release(&stream);
        return -1;
    }
    *rows = 0;
    *checksum = 0;
    int result = 0;
    while (1) {
        struct ArrowArray batch;
        double start = now_seconds();
        int code = stream.get_next(&stream, &batch);
        double fetched = now_seconds();
        next_seconds += fetched - start;
        if (code != 0) {
            fprintf(stderr, "get_next: %s\n", stream.get_last_error(&stream));
            result = -1;
            break;
        }
        if (batch.release == NULL) {
            break;
        }
        for (int64_t column = 0; column < batch.n_children; column++) {
            *checksum += column_checksum(schema.children[column], batch.children[column]);
        }
        *rows += batch.length;
        double folded = now_seconds();
        batch.release(&batch);
        fold_seconds += folded - fetched;
        release_seconds += now_seconds() - folded;
    }
    schema.release(&schema);
    stream.release(&stream);
    return result;
}

int main(int argc, char** argv)
{
    if (argc != 7) {
        fprintf(stderr, "Usage: tarn-bench WAREHOUSE TABLE COLUMNS WARMUP ROUNDS JVM_CLASS\n");
        return 2;
    }
    tarn_scan scan = {argv[1], argv[2], NULL, argv[3][0] == '\0' ? NULL : argv[3], NULL, NULL};
    int warmup = atoi(argv[4]);
    int rounds = atoi(argv[5]);
    if (tarn_init(NULL) != TARN_OK) {
        fprintf(stderr, "tarn_init: %s\n", tarn_last_error());
        return 1;
    }
    JavaVM* vm = (JavaVM*) tarn_java_vm();
    JNIEnv* env = NULL;
    if ((*vm)->GetEnv(vm, (void**) &env, JNI_VERSION_1_8) != JNI_OK) {
        fprintf(stderr, "this thread is not attached to the JVM\n");
        return 1;
    }
    jclass jvm_class = (*env)->FindClass(env, argv[6]);
    jmethodID jvm_scan = jvm_class == NULL ? NULL : (*env)->GetStaticMethodID(env, jvm_class, "scan", "(Ljava/lang/String;Ljava/lang/String;Ljava/lang/String;)[J");
    if (jvm_scan == NULL) {
        (*env)->ExceptionDescribe(env);
        return 1;
    }
    /* the third side: the same C scan with Arrow Java's exporter, switched by TarnBridge.ARROW_EXPORTER */
    jclass system_class = (*env)->FindClass(env, "java/lang/System");
    jmethodID set_property = system_class == NULL ? NULL : (*env)->GetStaticMethodID(env, system_class, "setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;");
    jmethodID clear_property = system_class == NULL ? NULL : (*env)->GetStaticMethodID(env, system_class, "clearProperty", "(Ljava/lang/String;)Ljava/lang/String;");
    if (set_property == NULL || clear_property == NULL) {
        (*env)->ExceptionDescribe(env);
        return 1;
    }
    jstring exporter_key = (*env)->NewStringUTF(env, "tarn.jni.arrow-exporter");
    jstring exporter_on = (*env)->NewStringUTF(env, "true");
    jstring warehouse = (*env)->NewStringUTF(env, argv[1]);
    jstring table = (*env)->NewStringUTF(env, argv[2]);
    jstring columns = (*env)->NewStringUTF(env, argv[3]);

    for (int round = -warmup; round < rounds; round++) {
        int64_t c_rows = 0;
        int64_t c_checksum = 0;
        next_seconds = 0;
        fold_seconds = 0;
        release_seconds = 0;
        /* rotate which side goes first, so that none always inherits another's garbage and caches */
        int64_t arrow_rows = 0;
        int64_t arrow_checksum = 0;
        double c_seconds = 0;
        double arrow_seconds = 0;
        double jvm_seconds = 0;
        jlongArray result = NULL;
        for (int step = 0; step < 3; step++) {
            int side = (step + (round + warmup)) % 3;
            double start = now_seconds();
            if (side == 0) {
                if (scan_in_c(&scan, &c_rows, &c_checksum) != 0) {
                    return 1;
                }
                c_seconds = now_seconds() - start;
            }
            else if (side == 1) {
                result = (jlongArray) (*env)->CallStaticObjectMethod(env, jvm_class, jvm_scan, warehouse, table, columns);
                jvm_seconds = now_seconds() - start;
                if ((*env)->ExceptionCheck(env)) {
                    (*env)->ExceptionDescribe(env);
                    return 1;
                }
            }
            else {
                /* not timed: the split of get_next/fold/release is reported for Tarn's exporter */
                double next = next_seconds;
                double fold = fold_seconds;
                double release = release_seconds;
                (*env)->DeleteLocalRef(env, (*env)->CallStaticObjectMethod(env, system_class, set_property, exporter_key, exporter_on));
                start = now_seconds();
                int failed = scan_in_c(&scan, &arrow_rows, &arrow_checksum);
                arrow_seconds = now_seconds() - start;
                (*env)->DeleteLocalRef(env, (*env)->CallStaticObjectMethod(env, system_class, clear_property, exporter_key));
                next_seconds = next;
                fold_seconds = fold;
                release_seconds = release;
                if (failed != 0 || (*env)->ExceptionCheck(env)) {
                    return 1;
                }
            }
        }
        jlong jvm_values[2];
        (*env)->GetLongArrayRegion(env, result, 0, 2, jvm_values);
        (*env)->DeleteLocalRef(env, result);
        if (jvm_values[0] != c_rows || jvm_values[1] != c_checksum || arrow_rows != c_rows || arrow_checksum != c_checksum) {
            fprintf(stderr, "C read %" PRId64 " rows (checksum %" PRId64 "), with Arrow Java's exporter %" PRId64 " (checksum %" PRId64 "), the JVM %" PRId64 " (checksum %" PRId64 ")\n",
                    c_rows, c_checksum, arrow_rows, arrow_checksum, (int64_t) jvm_values[0], (int64_t) jvm_values[1]);
            return 1;
        }
        if (round >= 0) {
            printf("round %d rows=%" PRId64 " c_seconds=%.4f jvm_seconds=%.4f c_arrow_seconds=%.4f c_rows_per_second=%.0f jvm_rows_per_second=%.0f c_arrow_rows_per_second=%.0f "
                    "c_get_next_seconds=%.4f c_fold_seconds=%.4f c_release_seconds=%.4f\n",
                    round, c_rows, c_seconds, jvm_seconds, arrow_seconds, (double) c_rows / c_seconds, (double) c_rows / jvm_seconds, (double) c_rows / arrow_seconds,
                    next_seconds, fold_seconds, release_seconds);
            fflush(stdout);
        }
    }
    /* a clean JVM shutdown, so that a flight recording given in TARN_JVM_OPTS is written */
    (*vm)->DestroyJavaVM(vm);
    return 0;
}
