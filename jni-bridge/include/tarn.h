/*
 * tarn.h: the C ABI of Tarn, a reader of Apache Paimon tables, for native engines.
 *
 * Tarn's reader runs in a JVM inside the caller's process; this library starts that JVM (or
 * attaches to one the process already runs), plans scans, and hands the rows over as Arrow C
 * Data Interface batches through the Arrow C stream interface. Buffers are shared, not copied:
 * each batch's memory is the reader's, and is freed when the caller calls the batch's release
 * callback.
 *
 * Typical use (error handling shortened):
 *
 *     tarn_init(NULL);                          // TARN_CLASSPATH / TARN_JVM_OPTS from the environment
 *     tarn_scan scan = {.warehouse = "/lake", .table = "db.orders", .where = "amount > 10"};
 *     struct ArrowArrayStream stream;
 *     if (tarn_open_table(&scan, &stream) != TARN_OK) { fprintf(stderr, "%s\n", tarn_last_error()); ... }
 *     struct ArrowSchema schema;
 *     stream.get_schema(&stream, &schema);
 *     struct ArrowArray batch;
 *     while (stream.get_next(&stream, &batch) == 0 && batch.release != NULL) {
 *         ... read batch.children[i]->buffers ...
 *         batch.release(&batch);
 *     }
 *     schema.release(&schema);
 *     stream.release(&stream);
 *
 * Errors: every function returns a tarn_status; on failure the message is available from
 * tarn_last_error() on the same thread. No Java exception or JVM error unwinds into the caller.
 * A failing stream callback returns an errno value and stream.get_last_error() describes it.
 *
 * Threads: every function may be called from any thread, concurrently. A thread that is not yet
 * attached to the JVM is attached on its first call and detached when it exits. Streams are not
 * thread-safe objects: use one stream from one thread at a time (different streams in parallel).
 *
 * A failing stream callback returns EINVAL (bad argument), ENOENT (a file is missing), ENOTSUP
 * (unsupported table feature) or EIO (anything else, e.g. a corrupt file).
 *
 * Ownership: the caller owns every ArrowSchema, ArrowArray and ArrowArrayStream it receives and
 * releases each through its release callback, in any order and from any thread: a batch may
 * outlive its stream, and a child array moved out of a batch (as the C Data Interface allows)
 * outlives the batch. A stream's memory is freed when the stream and the last of its batches are
 * released. Batches are shared, not copied: buffer pointers are the reader's memory, and a column
 * without NULLs in a batch has null_count 0 and a NULL validity buffer.
 */
#ifndef TARN_H
#define TARN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TARN_EXPORT __attribute__((visibility("default")))
#else
#define TARN_EXPORT
#endif

/* ---- Arrow C Data Interface: the canonical definitions, guarded as the Arrow specification says ---- */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Callback to get the stream type
  // (will be the same for all arrays in the stream).
  //
  // Return value: 0 if successful, an `errno`-compatible error code otherwise.
  //
  // If successful, the ArrowSchema must be released independently from the stream.
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);

  // Callback to get the next array
  // (if no error and the array is released, the stream has ended)
  //
  // Return value: 0 if successful, an `errno`-compatible error code otherwise.
  //
  // If successful, the ArrowArray must be released independently from the stream.
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);

  // Callback to get optional detailed error information.
  // This must only be called if the last stream operation failed
  // with a non-0 return code.
  //
  // Return value: pointer to a null-terminated character array describing
  // the last error, or NULL if no description is available.
  //
  // The returned pointer is only valid until the next operation on this stream
  // (including release).
  const char* (*get_last_error)(struct ArrowArrayStream*);

  // Release callback: release the stream's own resources.
  // Note that arrays returned by `get_next` must be individually released.
  void (*release)(struct ArrowArrayStream*);

  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

/* ---- Tarn ---- */

/* Status codes. The numbers are part of the ABI. */
typedef enum tarn_status {
    TARN_OK = 0,
    TARN_ERROR_INVALID_ARGUMENT = 1, /* NULL or malformed argument, unknown column, bad filter, bad descriptor */
    TARN_ERROR_NOT_FOUND = 2,        /* table, snapshot, tag or a file it lists does not exist */
    TARN_ERROR_CORRUPT = 3,          /* a table file is corrupt */
    TARN_ERROR_UNSUPPORTED = 4,      /* a table feature Tarn does not read (yet) */
    TARN_ERROR_IO = 5,               /* reading the file system failed */
    TARN_ERROR_JVM = 6,              /* no JVM: libjvm not found, the JVM did not start, or tarn_init was not called */
    TARN_ERROR_INTERNAL = 7          /* a bug in Tarn; the message names the Java exception */
} tarn_status;

/*
 * How to start the JVM when the process does not run one yet. Every field may be NULL/0.
 *
 * class_path: Tarn's jars (tarn-jni-bridge.jar and its dependencies), ':'-separated; an entry
 *     ending in "/" followed by "*" stands for every .jar file in that directory. NULL: $TARN_CLASSPATH.
 * options: extra JVM options ("-Xmx2g", "-Dkey=value", ...). NULL: $TARN_JVM_OPTS, split at
 *     spaces. The options Arrow needs are always added: --add-opens=java.base/java.nio=ALL-UNNAMED
 *     and, on JDK 24 and newer, --sun-misc-unsafe-memory-access=allow.
 * libjvm_path: the libjvm.so to load. NULL: one already loaded in the process, else
 *     $JAVA_HOME/lib/server/libjvm.so.
 */
typedef struct tarn_jvm_options {
    const char* class_path;
    const char* const* options;
    int option_count;
    const char* libjvm_path;
} tarn_jvm_options;

/*
 * Starts the bridge: attaches to the JVM already running in the process (an engine that hosts
 * one; its class path must then contain Tarn's jars) or creates one from `options` (NULL: all from
 * the environment). Idempotent and thread-safe: later calls return the first call's status. A
 * process can create a JVM only once, so a failed start is final for the process.
 */
TARN_EXPORT tarn_status tarn_init(const tarn_jvm_options* options);

/*
 * The message of the last failed call on this thread, or "" if none failed. Valid until the next
 * tarn_* call on this thread.
 */
TARN_EXPORT const char* tarn_last_error(void);

/* The JavaVM the bridge uses (a JavaVM*), or NULL before a successful tarn_init. */
TARN_EXPORT void* tarn_java_vm(void);

/*
 * What to scan. warehouse and table are required, the rest may be NULL or "".
 *
 * warehouse: the warehouse of a Paimon filesystem catalog: a directory, or an object-store
 *     location "s3://bucket/path" (also s3a://, oss://).
 * table: "db.table".
 * version: NULL or "" for the latest snapshot; "snapshot:N" (N >= 1); "tag:NAME";
 *     "timestamp:TS" (the newest snapshot committed at or before TS: epoch milliseconds,
 *     "2024-01-01T00:00:00Z", "2024-01-01T02:00+02:00", or a local "2024-01-01 10:00" or
 *     "2024-01-01" in the JVM's time zone); any other text without ':' is Paimon's scan.version
 *     (a tag of that name, else a snapshot id). A branch other than main comes first:
 *     "branch:b1" (its latest snapshot) or "branch:b1/snapshot:3". Malformed text fails with
 *     TARN_ERROR_INVALID_ARGUMENT naming it.
 * columns: the projected columns, comma-separated, in output order; NULL for all.
 * where: a filter in the `tarn dump --where` grammar, e.g. "dt = '2024-01-01' and id in (1, 2)".
 * options: how to reach an object store, one KEY=VALUE per line, in the names of Trino's native
 *     S3 file system: "s3.endpoint=http://127.0.0.1:9000\ns3.path-style-access=true\n
 *     s3.aws-access-key=...\ns3.aws-secret-key=..." (also s3.region); without keys the AWS
 *     default credential chain applies (AWS_ACCESS_KEY_ID, ...). Split descriptors carry these
 *     settings without the keys: a process that opens a split reaches the store with the
 *     credentials of its own environment. NULL or "" for a local warehouse.
 */
typedef struct tarn_scan {
    const char* warehouse;
    const char* table;
    const char* version;
    const char* columns;
    const char* where;
    const char* options;
} tarn_scan;

/* One split descriptor: opaque bytes that a coordinator can ship to a worker. */
typedef struct tarn_split {
    const uint8_t* data;
    size_t size;
} tarn_split;

/* The result of tarn_plan; free it with tarn_plan_free. */
typedef struct tarn_plan {
    size_t split_count;
    tarn_split* splits;
} tarn_plan;

/*
 * Plans a scan into split descriptors. On success *out is a new plan (possibly with no splits);
 * each descriptor carries the table's location, snapshot, schema, projection, filter and files,
 * so a worker opens it with tarn_open_split without planning again.
 */
TARN_EXPORT tarn_status tarn_plan_scan(const tarn_scan* scan, tarn_plan** out);

TARN_EXPORT void tarn_plan_free(tarn_plan* plan);

/*
 * Opens one split as an Arrow C stream written into *out (caller-owned memory). The rows are the
 * split's live rows (deletion vectors applied, merge-on-read merged) that satisfy the filter, with
 * the projected columns. Release with out->release(out).
 */
TARN_EXPORT tarn_status tarn_open_split(const uint8_t* descriptor, size_t size, struct ArrowArrayStream* out);

/* Plans a scan and opens all its splits, one after the other, as one stream. */
TARN_EXPORT tarn_status tarn_open_table(const tarn_scan* scan, struct ArrowArrayStream* out);

/*
 * Bytes the bridge's Arrow allocator holds: buffers of open streams and unreleased batches.
 * Zero when everything handed out has been released.
 */
TARN_EXPORT tarn_status tarn_allocated_bytes(int64_t* out);

#ifdef __cplusplus
}
#endif

#endif /* TARN_H */
