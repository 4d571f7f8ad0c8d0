/*
 * libtarn.so: the C half of the Tarn JNI bridge (see include/tarn.h for the contract).
 *
 * libjvm is not linked: it is found at run time (already loaded in the process, a path the
 * caller gives, or $JAVA_HOME/lib/server/libjvm.so), so that one libtarn.so works with any JDK
 * 17+ and inside engines that load their own JVM. Every call into Java goes through call_java(),
 * which attaches the thread if needed, brackets the call in a JNI local frame (native threads
 * never return to Java, so local references would otherwise pile up), and turns a pending Java
 * exception into a status instead of letting it propagate.
 */
#define _GNU_SOURCE
#include "tarn.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <jni.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef JNI_VERSION_21
#define JNI_VERSION_21 0x00150000
#endif
#ifndef JNI_VERSION_24
#define JNI_VERSION_24 0x00180000
#endif

#define BRIDGE_CLASS "io/tarn/jni/TarnBridge"
#define STREAM_CLASS "io/tarn/jni/NativeStream"
#define STRINGS_SIGNATURE "[B[B[B[B[B[B"

typedef jint (*get_created_vms_fn)(JavaVM**, jsize, jsize*);
typedef jint (*create_vm_fn)(JavaVM**, void**, void*);
typedef jint (*default_args_fn)(void*);

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int init_done;
static tarn_status init_status;
static char* init_message;

static JavaVM* vm;
static jclass bridge_class;
static jmethodID plan_method;
static jmethodID open_split_method;
static jmethodID open_table_method;
static jmethodID allocated_method;
static jclass object_class;
static jclass stream_class;
static jmethodID stream_schema_method;
static jmethodID stream_next_method;
static jmethodID stream_release_method;
static jmethodID batch_release_method;

static pthread_key_t detach_key;
static __thread char* last_error;

static tarn_status take_exception(JNIEnv* env, const char* during);

/* ---- errors ---- */

/* frees a thread's last message when the thread exits */
static pthread_once_t error_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t error_key;

static void create_error_key(void)
{
    pthread_key_create(&error_key, free);
}

static void remember_error(char* message)
{
    free(last_error);
    last_error = message;
    pthread_once(&error_key_once, create_error_key);
    pthread_setspecific(error_key, message);
}

static tarn_status fail(tarn_status status, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    char* message = NULL;
    if (vasprintf(&message, format, args) < 0) {
        message = NULL;
    }
    va_end(args);
    remember_error(message);
    return status;
}

static tarn_status ok(void)
{
    remember_error(NULL);
    return TARN_OK;
}

const char* tarn_last_error(void)
{
    return last_error == NULL ? "" : last_error;
}

/* ---- threads ---- */

static void detach_thread(void* value)
{
    JavaVM* machine = (JavaVM*) value;
    if (machine != NULL) {
        (*machine)->DetachCurrentThread(machine);
    }
}

/* The JNIEnv of this thread, attaching it (as a daemon, detached when the thread exits) if needed. */
static JNIEnv* thread_env(void)
{
    JNIEnv* env = NULL;
    jint result = (*vm)->GetEnv(vm, (void**) &env, JNI_VERSION_1_8);
    if (result == JNI_OK) {
        return env;
    }
    if (result != JNI_EDETACHED) {
        return NULL;
    }
    JavaVMAttachArgs args = {JNI_VERSION_1_8, "tarn-native", NULL};
    if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void**) &env, &args) != JNI_OK) {
        return NULL;
    }
    pthread_setspecific(detach_key, vm);
    return env;
}

static tarn_status require_env(JNIEnv** env)
{
    pthread_mutex_lock(&init_lock);
    int ready = init_done && init_status == TARN_OK;
    pthread_mutex_unlock(&init_lock);
    if (!ready) {
        return fail(TARN_ERROR_JVM, "The Tarn bridge is not started: call tarn_init first%s%s",
                init_message != NULL ? "; it failed with: " : "", init_message != NULL ? init_message : "");
    }
    *env = thread_env();
    if (*env == NULL) {
        return fail(TARN_ERROR_JVM, "Cannot attach this thread to the JVM");
    }
    return TARN_OK;
}

/* ---- Java values ---- */

/* A byte[] holding a C string's bytes (UTF-8 as the caller gives it), or NULL for NULL. */
static jbyteArray java_bytes(JNIEnv* env, const void* data, size_t size)
{
    if (data == NULL) {
        return NULL;
    }
    if (size > 0x7fffffff) {
        return NULL;
    }
    jbyteArray array = (*env)->NewByteArray(env, (jsize) size);
    if (array != NULL && size > 0) {
        (*env)->SetByteArrayRegion(env, array, 0, (jsize) size, (const jbyte*) data);
    }
    return array;
}

static jbyteArray java_string(JNIEnv* env, const char* text)
{
    return text == NULL ? NULL : java_bytes(env, text, strlen(text));
}

/*
 * Splits a Java-side failure, the UTF-8 of "<status>\t<message>", into its status and a malloc'ed
 * message (NULL if out of memory).
 */
static tarn_status java_failure(JNIEnv* env, jbyteArray result, char** message)
{
    jsize length = (*env)->GetArrayLength(env, result);
    char* text = malloc((size_t) length + 1);
    *message = NULL;
    if (text == NULL) {
        return TARN_ERROR_INTERNAL;
    }
    (*env)->GetByteArrayRegion(env, result, 0, length, (jbyte*) text);
    text[length] = '\0';
    tarn_status status = TARN_ERROR_INTERNAL;
    char* tab = strchr(text, '\t');
    if (tab != NULL) {
        *tab = '\0';
        long code = strtol(text, NULL, 10);
        if (code > TARN_OK && code <= TARN_ERROR_INTERNAL) {
            status = (tarn_status) code;
        }
        memmove(text, tab + 1, strlen(tab + 1) + 1);
    }
    *message = text;
    return status;
}

/* Turns the Java side's result, null or the UTF-8 of "<status>\t<message>", into a status. */
static tarn_status java_result(JNIEnv* env, jbyteArray result, const char* during)
{
    tarn_status thrown = take_exception(env, during);
    if (thrown != TARN_OK) {
        return thrown;
    }
    if (result == NULL) {
        return ok();
    }
    char* message = NULL;
    tarn_status status = java_failure(env, result, &message);
    if (message == NULL) {
        return fail(TARN_ERROR_INTERNAL, "Out of memory while %s", during);
    }
    fail(status, "%s", message);
    free(message);
    return status;
}

/* ---- starting the JVM ---- */

static void* find_libjvm(const char* given, char** problem)
{
    if (given != NULL) {
        void* handle = dlopen(given, RTLD_NOW | RTLD_GLOBAL);
        if (handle == NULL && asprintf(problem, "Cannot load libjvm from %s: %s", given, dlerror()) < 0) {
            *problem = NULL;
        }
        return handle;
    }
    /* a host that runs a JVM has libjvm loaded already: use that one (RTLD_DEFAULT is NULL, so reopen it by name) */
    void* loaded = dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
    Dl_info library;
    if (loaded != NULL && dladdr(loaded, &library) != 0 && library.dli_fname != NULL) {
        void* handle = dlopen(library.dli_fname, RTLD_NOW | RTLD_NOLOAD);
        if (handle != NULL) {
            return handle;
        }
    }
    const char* java_home = getenv("JAVA_HOME");
    if (java_home == NULL || java_home[0] == '\0') {
        if (asprintf(problem, "No JVM in this process and JAVA_HOME is not set: set it or give tarn_jvm_options.libjvm_path") < 0) {
            *problem = NULL;
        }
        return NULL;
    }
    char* path = NULL;
    if (asprintf(&path, "%s/lib/server/libjvm.so", java_home) < 0) {
        return NULL;
    }
    void* handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (handle == NULL && asprintf(problem, "Cannot load libjvm from %s: %s", path, dlerror()) < 0) {
        *problem = NULL;
    }
    free(path);
    return handle;
}

typedef struct text_buffer {
    char* data;
    size_t length;
    size_t capacity;
} text_buffer;

static int append_text(text_buffer* buffer, const char* text, size_t length)
{
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = (buffer->capacity + length + 1) * 2;
        char* data = realloc(buffer->data, capacity);
        if (data == NULL) {
            return -1;
        }
        buffer->data = data;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, text, length);
    buffer->length += length;
    buffer->data[buffer->length] = '\0';
    return 0;
}

/* Describes and clears the pending exception, with its causes: a malloc'ed text (NULL if out of memory). */
static char* describe_exception(JNIEnv* env)
{
    jthrowable failure = (*env)->ExceptionOccurred(env);
    (*env)->ExceptionClear(env);
    text_buffer description = {NULL, 0, 0};
    jclass throwable_class = (*env)->FindClass(env, "java/lang/Throwable");
    jmethodID to_string = throwable_class == NULL ? NULL : (*env)->GetMethodID(env, throwable_class, "toString", "()Ljava/lang/String;");
    jmethodID get_cause = throwable_class == NULL ? NULL : (*env)->GetMethodID(env, throwable_class, "getCause", "()Ljava/lang/Throwable;");
    for (int depth = 0; failure != NULL && to_string != NULL && get_cause != NULL && depth < 8; depth++) {
        jstring text = (jstring) (*env)->CallObjectMethod(env, failure, to_string);
        if ((*env)->ExceptionCheck(env) || text == NULL) {
            break;
        }
        const char* chars = (*env)->GetStringUTFChars(env, text, NULL);
        if (chars != NULL) {
            if (depth > 0) {
                append_text(&description, ", caused by ", strlen(", caused by "));
            }
            append_text(&description, chars, strlen(chars));
            (*env)->ReleaseStringUTFChars(env, text, chars);
        }
        jthrowable cause = (jthrowable) (*env)->CallObjectMethod(env, failure, get_cause);
        if ((*env)->ExceptionCheck(env) || (*env)->IsSameObject(env, cause, failure)) {
            break;
        }
        failure = cause;
    }
    (*env)->ExceptionClear(env);
    return description.data;
}

/* Describes and clears a pending exception, with its causes; TARN_OK if none was pending. */
static tarn_status take_exception(JNIEnv* env, const char* during)
{
    if (!(*env)->ExceptionCheck(env)) {
        return TARN_OK;
    }
    char* description = describe_exception(env);
    tarn_status status = fail(TARN_ERROR_INTERNAL, "Java exception while %s: %s", during, description != NULL ? description : "(no description)");
    free(description);
    return status;
}

static int compare_names(const void* left, const void* right)
{
    return strcmp(*(char* const*) left, *(char* const*) right);
}

/* Appends a class-path entry; DIR followed by "/" and "*" becomes DIR's .jar files, in name order, as the java launcher does. */
static int append_class_path_entry(text_buffer* out, const char* entry, size_t length)
{
    if (length == 0) {
        return 0;
    }
    if (length >= 2 && entry[length - 1] == '*' && entry[length - 2] == '/') {
        char* directory = strndup(entry, length - 1);
        if (directory == NULL) {
            return -1;
        }
        DIR* listing = opendir(directory);
        if (listing == NULL) {
            free(directory);
            return 0;
        }
        char** names = NULL;
        size_t count = 0;
        size_t capacity = 0;
        struct dirent* file;
        while ((file = readdir(listing)) != NULL) {
            size_t name_length = strlen(file->d_name);
            if (name_length > 4 && (strcmp(file->d_name + name_length - 4, ".jar") == 0 || strcmp(file->d_name + name_length - 4, ".JAR") == 0)) {
                if (count == capacity) {
                    capacity = capacity == 0 ? 16 : capacity * 2;
                    char** grown = realloc(names, capacity * sizeof(char*));
                    if (grown == NULL) {
                        break;
                    }
                    names = grown;
                }
                names[count++] = strdup(file->d_name);
            }
        }
        closedir(listing);
        qsort(names, count, sizeof(char*), compare_names);
        int result = 0;
        for (size_t i = 0; i < count; i++) {
            if (names[i] == NULL) {
                continue;
            }
            if ((out->length > 0 && append_text(out, ":", 1) != 0)
                    || append_text(out, directory, strlen(directory)) != 0
                    || append_text(out, names[i], strlen(names[i])) != 0) {
                result = -1;
            }
            free(names[i]);
        }
        free(names);
        free(directory);
        return result;
    }
    if (out->length > 0 && append_text(out, ":", 1) != 0) {
        return -1;
    }
    return append_text(out, entry, length);
}

static char* class_path_option(const char* class_path)
{
    text_buffer buffer = {NULL, 0, 0};
    const char* start = class_path;
    while (1) {
        const char* end = strchr(start, ':');
        size_t length = end == NULL ? strlen(start) : (size_t) (end - start);
        if (append_class_path_entry(&buffer, start, length) != 0) {
            free(buffer.data);
            return NULL;
        }
        if (end == NULL) {
            break;
        }
        start = end + 1;
    }
    char* option = NULL;
    if (asprintf(&option, "-Djava.class.path=%s", buffer.data == NULL ? "" : buffer.data) < 0) {
        option = NULL;
    }
    free(buffer.data);
    return option;
}

static tarn_status create_vm(void* libjvm, const tarn_jvm_options* options, JNIEnv** env)
{
    create_vm_fn create = (create_vm_fn) dlsym(libjvm, "JNI_CreateJavaVM");
    default_args_fn default_args = (default_args_fn) dlsym(libjvm, "JNI_GetDefaultJavaVMInitArgs");
    if (create == NULL || default_args == NULL) {
        return fail(TARN_ERROR_JVM, "The loaded libjvm has no JNI_CreateJavaVM");
    }
    const char* class_path = options != NULL && options->class_path != NULL ? options->class_path : getenv("TARN_CLASSPATH");
    if (class_path == NULL || class_path[0] == '\0') {
        return fail(TARN_ERROR_JVM, "No class path for the JVM: set TARN_CLASSPATH or tarn_jvm_options.class_path to Tarn's jars");
    }

    /* JDK 24+ knows JNI_VERSION_24; older JDKs refuse the option that only they understand */
    JavaVMInitArgs probe = {0};
    probe.version = JNI_VERSION_24;
    int jdk24 = default_args(&probe) == JNI_OK;
    probe.version = JNI_VERSION_21;
    int jdk21 = default_args(&probe) == JNI_OK;

    char* words = NULL;
    int given = 0;
    if (options != NULL && options->options != NULL) {
        given = options->option_count;
    }
    else if (getenv("TARN_JVM_OPTS") != NULL) {
        words = strdup(getenv("TARN_JVM_OPTS"));
        for (char* cursor = words; cursor != NULL && *cursor != '\0';) {
            while (*cursor == ' ') {
                cursor++;
            }
            if (*cursor == '\0') {
                break;
            }
            given++;
            while (*cursor != '\0' && *cursor != ' ') {
                cursor++;
            }
        }
    }
    JavaVMOption* vm_options = calloc((size_t) given + 4, sizeof(JavaVMOption));
    char* class_path_text = class_path_option(class_path);
    if (vm_options == NULL || class_path_text == NULL) {
        free(vm_options);
        free(class_path_text);
        free(words);
        return fail(TARN_ERROR_JVM, "Out of memory while starting the JVM");
    }
    int count = 0;
    vm_options[count++].optionString = class_path_text;
    vm_options[count++].optionString = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    if (jdk24) {
        vm_options[count++].optionString = "--sun-misc-unsafe-memory-access=allow";
    }
    if (jdk21) {
        vm_options[count++].optionString = "--enable-native-access=ALL-UNNAMED";
    }
    if (options != NULL && options->options != NULL) {
        for (int i = 0; i < given; i++) {
            vm_options[count++].optionString = (char*) options->options[i];
        }
    }
    else if (words != NULL) {
        for (char* cursor = strtok(words, " "); cursor != NULL; cursor = strtok(NULL, " ")) {
            vm_options[count++].optionString = cursor;
        }
    }
    JavaVMInitArgs args = {0};
    args.version = JNI_VERSION_1_8;
    args.nOptions = count;
    args.options = vm_options;
    args.ignoreUnrecognized = JNI_FALSE;
    jint result = create(&vm, (void**) env, &args);
    free(vm_options);
    free(class_path_text);
    free(words);
    if (result != JNI_OK) {
        vm = NULL;
        return fail(TARN_ERROR_JVM, "The JVM did not start (JNI_CreateJavaVM returned %d): check the JVM options", (int) result);
    }
    return TARN_OK;
}

/* ---- Arrow C streams (the Java half is io.tarn.jni.NativeStream) ---- */

/*
 * The header of an exported batch's block, written by io.tarn.jni.BatchExporter: the number of
 * the batch's structs not yet released, and the batch's id on the Java side. Every struct of the
 * batch has it as private_data.
 */
typedef struct batch_header {
    _Atomic int64_t references;
    int64_t id;
} batch_header;

/* A stream's private_data. */
typedef struct stream_state {
    jlong id;
    char* error; /* the last failure's message, for get_last_error */
} stream_state;

/*
 * The release callback of every struct of an exported batch, called by the consumer on the
 * top-level struct or on a child it moved out, from any thread. Releases the children the struct
 * still owns (a moved-out child has release == NULL in its old place), marks the struct released,
 * and when it was the batch's last struct, has the Java side drop the batch's buffers and block.
 */
static void release_array(struct ArrowArray* array)
{
    if (array == NULL || array->release == NULL) {
        return;
    }
    for (int64_t i = 0; i < array->n_children; i++) {
        struct ArrowArray* child = array->children[i];
        if (child != NULL && child->release != NULL) {
            child->release(child);
        }
    }
    if (array->dictionary != NULL && array->dictionary->release != NULL) {
        array->dictionary->release(array->dictionary);
    }
    batch_header* header = (batch_header*) array->private_data;
    array->release = NULL;
    array->private_data = NULL;
    if (atomic_fetch_sub_explicit(&header->references, 1, memory_order_acq_rel) != 1) {
        return;
    }
    /* the last struct: from here the header belongs to the Java side, which frees it */
    jlong id = (jlong) header->id;
    JNIEnv* env = thread_env();
    if (env == NULL) {
        return; /* cannot attach (the JVM is going away): the batch leaks rather than the host crashing */
    }
    (*env)->CallStaticVoidMethod(env, stream_class, batch_release_method, id);
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
    }
}

static int stream_errno(tarn_status status)
{
    switch (status) {
        case TARN_ERROR_INVALID_ARGUMENT:
            return EINVAL;
        case TARN_ERROR_NOT_FOUND:
            return ENOENT;
        case TARN_ERROR_UNSUPPORTED:
            return ENOTSUP;
        default:
            return EIO;
    }
}

static void set_stream_error(stream_state* state, char* message)
{
    free(state->error);
    state->error = message;
}

/*
 * Calls NativeStream.nativeSchema or nativeNext for the stream with the address of the caller's
 * struct; 0, or an errno value with the message kept for get_last_error. Leaves this thread's
 * tarn_last_error alone: stream callbacks are not tarn_* calls.
 */
static int stream_call(struct ArrowArrayStream* stream, jmethodID method, void* out, const char* during)
{
    if (stream == NULL || stream->release == NULL || stream->private_data == NULL) {
        return EINVAL;
    }
    stream_state* state = (stream_state*) stream->private_data;
    set_stream_error(state, NULL);
    if (out == NULL) {
        set_stream_error(state, strdup("The struct to fill is NULL"));
        return EINVAL;
    }
    JNIEnv* env = thread_env();
    if (env == NULL) {
        set_stream_error(state, strdup("Cannot attach this thread to the JVM"));
        return EIO;
    }
    if ((*env)->PushLocalFrame(env, 8) != 0) {
        (*env)->ExceptionClear(env);
        set_stream_error(state, strdup("Out of memory in the JVM"));
        return ENOMEM;
    }
    jbyteArray result = (jbyteArray) (*env)->CallStaticObjectMethod(env, stream_class, method, state->id, (jlong) (uintptr_t) out);
    int code = 0;
    if ((*env)->ExceptionCheck(env)) {
        char* description = describe_exception(env);
        char* message = NULL;
        if (asprintf(&message, "Java exception while %s: %s", during, description != NULL ? description : "(no description)") < 0) {
            message = NULL;
        }
        free(description);
        set_stream_error(state, message);
        code = EIO;
    }
    else if (result != NULL) {
        char* message = NULL;
        code = stream_errno(java_failure(env, result, &message));
        set_stream_error(state, message);
    }
    (*env)->PopLocalFrame(env, NULL);
    return code;
}

static int stream_get_schema(struct ArrowArrayStream* stream, struct ArrowSchema* out)
{
    return stream_call(stream, stream_schema_method, out, "getting a stream's schema");
}

static int stream_get_next(struct ArrowArrayStream* stream, struct ArrowArray* out)
{
    if (out != NULL) {
        /* the end of the stream, and what a failure leaves: a released array */
        memset(out, 0, sizeof(*out));
    }
    int code = stream_call(stream, stream_next_method, out, "reading a stream's next batch");
    if (code != 0 && out != NULL) {
        memset(out, 0, sizeof(*out));
    }
    return code;
}

static const char* stream_get_last_error(struct ArrowArrayStream* stream)
{
    if (stream == NULL || stream->private_data == NULL) {
        return NULL;
    }
    return ((stream_state*) stream->private_data)->error;
}

static void stream_release(struct ArrowArrayStream* stream)
{
    if (stream == NULL || stream->release == NULL) {
        return;
    }
    stream_state* state = (stream_state*) stream->private_data;
    JNIEnv* env = thread_env();
    if (env != NULL) {
        (*env)->CallStaticVoidMethod(env, stream_class, stream_release_method, state->id);
        if ((*env)->ExceptionCheck(env)) {
            (*env)->ExceptionClear(env);
        }
    }
    free(state->error);
    free(state);
    stream->private_data = NULL;
    stream->release = NULL;
}

/* NativeStream.arrayReleaseFunction() */
static jlong JNICALL native_array_release_function(JNIEnv* env, jclass type)
{
    (void) env;
    (void) type;
    return (jlong) (uintptr_t) &release_array;
}

/* NativeStream.initStream(long streamAddress, long id) */
static void JNICALL native_init_stream(JNIEnv* env, jclass type, jlong address, jlong id)
{
    (void) type;
    struct ArrowArrayStream* stream = (struct ArrowArrayStream*) (uintptr_t) address;
    stream_state* state = calloc(1, sizeof(stream_state));
    if (stream == NULL || state == NULL) {
        free(state);
        jclass error = (*env)->FindClass(env, stream == NULL ? "java/lang/IllegalArgumentException" : "java/lang/OutOfMemoryError");
        if (error != NULL) {
            (*env)->ThrowNew(env, error, stream == NULL ? "The ArrowArrayStream is NULL" : "No memory for an ArrowArrayStream's state");
        }
        return;
    }
    state->id = id;
    stream->get_schema = stream_get_schema;
    stream->get_next = stream_get_next;
    stream->get_last_error = stream_get_last_error;
    stream->private_data = state;
    stream->release = stream_release;
}

static tarn_status bind_streams(JNIEnv* env)
{
    jclass local = (*env)->FindClass(env, STREAM_CLASS);
    if (local == NULL) {
        (*env)->ExceptionClear(env);
        return fail(TARN_ERROR_JVM, "Class io.tarn.jni.NativeStream is not on the JVM's class path or does not match this libtarn.so");
    }
    JNINativeMethod natives[] = {
        {"arrayReleaseFunction", "()J", (void*) native_array_release_function},
        {"initStream", "(JJ)V", (void*) native_init_stream},
    };
    if ((*env)->RegisterNatives(env, local, natives, 2) != 0) {
        (*env)->ExceptionClear(env);
        return fail(TARN_ERROR_JVM, "Class io.tarn.jni.NativeStream on the class path does not match this libtarn.so");
    }
    stream_class = (jclass) (*env)->NewGlobalRef(env, local);
    stream_schema_method = (*env)->GetStaticMethodID(env, local, "nativeSchema", "(JJ)[B");
    stream_next_method = (*env)->GetStaticMethodID(env, local, "nativeNext", "(JJ)[B");
    stream_release_method = (*env)->GetStaticMethodID(env, local, "nativeRelease", "(J)V");
    batch_release_method = (*env)->GetStaticMethodID(env, local, "nativeReleaseBatch", "(J)V");
    if (stream_class == NULL || stream_schema_method == NULL || stream_next_method == NULL || stream_release_method == NULL || batch_release_method == NULL) {
        (*env)->ExceptionClear(env);
        return fail(TARN_ERROR_JVM, "Class io.tarn.jni.NativeStream on the class path does not match this libtarn.so");
    }
    return TARN_OK;
}

static tarn_status bind_bridge(JNIEnv* env)
{
    jclass local = (*env)->FindClass(env, BRIDGE_CLASS);
    if (local == NULL) {
        jthrowable failure = (*env)->ExceptionOccurred(env);
        (*env)->ExceptionClear(env);
        jclass not_found = (*env)->FindClass(env, "java/lang/NoClassDefFoundError");
        int missing = not_found != NULL && failure != NULL && (*env)->IsInstanceOf(env, failure, not_found);
        (*env)->Throw(env, failure);
        take_exception(env, "loading io.tarn.jni.TarnBridge");
        if (missing) {
            return fail(TARN_ERROR_JVM, "Class io.tarn.jni.TarnBridge is not on the JVM's class path: add tarn-jni-bridge.jar and its dependencies (TARN_CLASSPATH); %s", tarn_last_error());
        }
        /* FindClass initializes the class, which starts Arrow's allocator */
        return fail(TARN_ERROR_JVM, "Class io.tarn.jni.TarnBridge failed to initialize; Arrow needs the JVM options --add-opens=java.base/java.nio=ALL-UNNAMED and, on JDK 24+, --sun-misc-unsafe-memory-access=allow; %s", tarn_last_error());
    }
    bridge_class = (jclass) (*env)->NewGlobalRef(env, local);
    jclass objects = (*env)->FindClass(env, "java/lang/Object");
    object_class = objects == NULL ? NULL : (jclass) (*env)->NewGlobalRef(env, objects);
    plan_method = (*env)->GetStaticMethodID(env, bridge_class, "nativePlan", "(" STRINGS_SIGNATURE "[Ljava/lang/Object;)[B");
    open_split_method = (*env)->GetStaticMethodID(env, bridge_class, "nativeOpenSplit", "([BJ)[B");
    open_table_method = (*env)->GetStaticMethodID(env, bridge_class, "nativeOpenTable", "(" STRINGS_SIGNATURE "J)[B");
    allocated_method = (*env)->GetStaticMethodID(env, bridge_class, "allocatedBytes", "()J");
    if (object_class == NULL || plan_method == NULL || open_split_method == NULL || open_table_method == NULL || allocated_method == NULL) {
        (*env)->ExceptionClear(env);
        return fail(TARN_ERROR_JVM, "Class io.tarn.jni.TarnBridge on the class path does not match this libtarn.so");
    }
    return bind_streams(env);
}

static tarn_status start(const tarn_jvm_options* options)
{
    char* problem = NULL;
    void* libjvm = find_libjvm(options != NULL ? options->libjvm_path : NULL, &problem);
    if (libjvm == NULL) {
        tarn_status status = fail(TARN_ERROR_JVM, "%s", problem != NULL ? problem : "Cannot load libjvm");
        free(problem);
        return status;
    }
    get_created_vms_fn get_created = (get_created_vms_fn) dlsym(libjvm, "JNI_GetCreatedJavaVMs");
    if (get_created == NULL) {
        return fail(TARN_ERROR_JVM, "The loaded libjvm has no JNI_GetCreatedJavaVMs");
    }
    if (pthread_key_create(&detach_key, detach_thread) != 0) {
        return fail(TARN_ERROR_JVM, "Cannot create a thread key");
    }
    JavaVM* existing = NULL;
    jsize existing_count = 0;
    JNIEnv* env = NULL;
    if (get_created(&existing, 1, &existing_count) == JNI_OK && existing_count > 0) {
        vm = existing;
        env = thread_env();
        if (env == NULL) {
            return fail(TARN_ERROR_JVM, "Cannot attach to the JVM running in this process");
        }
    }
    else {
        tarn_status status = create_vm(libjvm, options, &env);
        if (status != TARN_OK) {
            return status;
        }
        /* the creating thread is attached too; detach it when it exits, like any other */
        pthread_setspecific(detach_key, vm);
    }
    if ((*env)->PushLocalFrame(env, 16) != 0) {
        (*env)->ExceptionClear(env);
        return fail(TARN_ERROR_JVM, "Out of memory in the JVM");
    }
    tarn_status status = bind_bridge(env);
    (*env)->PopLocalFrame(env, NULL);
    return status;
}

tarn_status tarn_init(const tarn_jvm_options* options)
{
    pthread_mutex_lock(&init_lock);
    if (!init_done) {
        init_status = start(options);
        init_message = init_status == TARN_OK ? NULL : strdup(tarn_last_error());
        init_done = 1;
        pthread_mutex_unlock(&init_lock);
        return init_status;
    }
    tarn_status status = init_status;
    pthread_mutex_unlock(&init_lock);
    if (status != TARN_OK) {
        return fail(status, "%s", init_message != NULL ? init_message : "The JVM did not start");
    }
    return ok();
}

/*
 * Java loaded this library (TarnBridge.loadLibrary, for streams opened from Java): bind to that
 * JVM as tarn_init would, unless tarn_init did already.
 */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* machine, void* reserved)
{
    (void) reserved;
    pthread_mutex_lock(&init_lock);
    if (!init_done) {
        vm = machine;
        JNIEnv* env = NULL;
        if (pthread_key_create(&detach_key, detach_thread) != 0 || (*vm)->GetEnv(vm, (void**) &env, JNI_VERSION_1_8) != JNI_OK) {
            init_status = fail(TARN_ERROR_JVM, "Cannot bind libtarn.so to the JVM that loads it");
        }
        else if ((*env)->PushLocalFrame(env, 16) != 0) {
            (*env)->ExceptionClear(env);
            init_status = fail(TARN_ERROR_JVM, "Out of memory in the JVM");
        }
        else {
            init_status = bind_bridge(env);
            (*env)->PopLocalFrame(env, NULL);
        }
        init_message = init_status == TARN_OK ? NULL : strdup(tarn_last_error());
        init_done = 1;
    }
    int bound = init_status == TARN_OK;
    pthread_mutex_unlock(&init_lock);
    return bound ? JNI_VERSION_1_8 : JNI_ERR;
}

void* tarn_java_vm(void)
{
    pthread_mutex_lock(&init_lock);
    void* machine = init_done && init_status == TARN_OK ? (void*) vm : NULL;
    pthread_mutex_unlock(&init_lock);
    return machine;
}

/* ---- calls ---- */

static tarn_status check_scan(const tarn_scan* scan)
{
    if (scan == NULL || scan->warehouse == NULL || scan->table == NULL) {
        return fail(TARN_ERROR_INVALID_ARGUMENT, "A scan needs a warehouse and a table");
    }
    return TARN_OK;
}

static tarn_status enter(JNIEnv** env)
{
    tarn_status status = require_env(env);
    if (status != TARN_OK) {
        return status;
    }
    if ((**env)->PushLocalFrame(*env, 32) != 0) {
        (**env)->ExceptionClear(*env);
        return fail(TARN_ERROR_JVM, "Out of memory in the JVM");
    }
    return TARN_OK;
}

static void leave(JNIEnv* env)
{
    (*env)->PopLocalFrame(env, NULL);
}

static int read_int(const uint8_t* bytes)
{
    return (int) (((uint32_t) bytes[0] << 24) | ((uint32_t) bytes[1] << 16) | ((uint32_t) bytes[2] << 8) | (uint32_t) bytes[3]);
}

/* A plan and the one block of bytes its descriptors point into; tarn_plan is its first member. */
typedef struct plan_block {
    tarn_plan plan;
    uint8_t* bytes;
} plan_block;

/* Splits the Java side's plan bytes (count, then length-prefixed descriptors) into a tarn_plan, checking every length. */
static tarn_status unpack_plan(uint8_t* bytes, size_t size, tarn_plan** out)
{
    if (size < 4 || read_int(bytes) < 0) {
        return fail(TARN_ERROR_INTERNAL, "Malformed plan from the Java side");
    }
    size_t count = (size_t) read_int(bytes);
    if (count > (size - 4) / 4) {
        return fail(TARN_ERROR_INTERNAL, "Malformed plan from the Java side: %zu splits in %zu bytes", count, size);
    }
    plan_block* plan = malloc(sizeof(plan_block));
    tarn_split* splits = calloc(count == 0 ? 1 : count, sizeof(tarn_split));
    if (plan == NULL || splits == NULL) {
        free(plan);
        free(splits);
        return fail(TARN_ERROR_INTERNAL, "Out of memory for a plan of %zu splits", count);
    }
    size_t position = 4;
    for (size_t i = 0; i < count; i++) {
        if (size - position < 4 || read_int(bytes + position) < 0 || (size_t) read_int(bytes + position) > size - position - 4) {
            free(plan);
            free(splits);
            return fail(TARN_ERROR_INTERNAL, "Malformed plan from the Java side: split %zu overruns it", i);
        }
        splits[i].size = (size_t) read_int(bytes + position);
        splits[i].data = bytes + position + 4;
        position += 4 + splits[i].size;
    }
    plan->plan.split_count = count;
    plan->plan.splits = splits;
    plan->bytes = bytes;
    *out = &plan->plan;
    return TARN_OK;
}

tarn_status tarn_plan_scan(const tarn_scan* scan, tarn_plan** out)
{
    if (out == NULL) {
        return fail(TARN_ERROR_INVALID_ARGUMENT, "tarn_plan_scan: out is NULL");
    }
    *out = NULL;
    tarn_status status = check_scan(scan);
    JNIEnv* env = NULL;
    if (status != TARN_OK || (status = enter(&env)) != TARN_OK) {
        return status;
    }
    jobjectArray result = (*env)->NewObjectArray(env, 1, object_class, NULL);
    if (result == NULL) {
        status = take_exception(env, "planning");
        leave(env);
        return status;
    }
    jbyteArray error = (jbyteArray) (*env)->CallStaticObjectMethod(env, bridge_class, plan_method,
            java_string(env, scan->warehouse), java_string(env, scan->table), java_string(env, scan->version),
            java_string(env, scan->columns), java_string(env, scan->where), java_string(env, scan->options), result);
    status = java_result(env, error, "planning");
    if (status == TARN_OK) {
        jbyteArray bytes = (jbyteArray) (*env)->GetObjectArrayElement(env, result, 0);
        jsize length = bytes == NULL ? 0 : (*env)->GetArrayLength(env, bytes);
        uint8_t* copy = malloc(length == 0 ? 1 : (size_t) length);
        if (bytes == NULL || copy == NULL) {
            free(copy);
            status = fail(TARN_ERROR_INTERNAL, "The Java side returned no plan");
        }
        else {
            (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte*) copy);
            status = unpack_plan(copy, (size_t) length, out);
            if (status != TARN_OK) {
                free(copy);
            }
        }
    }
    leave(env);
    return status;
}

void tarn_plan_free(tarn_plan* plan)
{
    if (plan == NULL) {
        return;
    }
    plan_block* block = (plan_block*) plan;
    free(block->bytes);
    free(block->plan.splits);
    free(block);
}

static void clear_stream(struct ArrowArrayStream* out)
{
    memset(out, 0, sizeof(*out));
}

tarn_status tarn_open_split(const uint8_t* descriptor, size_t size, struct ArrowArrayStream* out)
{
    if (out == NULL || descriptor == NULL) {
        return fail(TARN_ERROR_INVALID_ARGUMENT, "tarn_open_split: descriptor and out must not be NULL");
    }
    clear_stream(out);
    JNIEnv* env = NULL;
    tarn_status status = enter(&env);
    if (status != TARN_OK) {
        return status;
    }
    jbyteArray bytes = java_bytes(env, descriptor, size);
    if (bytes == NULL) {
        status = (*env)->ExceptionCheck(env) ? take_exception(env, "opening a split") : fail(TARN_ERROR_INVALID_ARGUMENT, "Split descriptor of %zu bytes is too large", size);
        leave(env);
        return status;
    }
    jbyteArray error = (jbyteArray) (*env)->CallStaticObjectMethod(env, bridge_class, open_split_method, bytes, (jlong) (uintptr_t) out);
    status = java_result(env, error, "opening a split");
    leave(env);
    if (status != TARN_OK && out->release != NULL) {
        out->release(out);
    }
    return status;
}

tarn_status tarn_open_table(const tarn_scan* scan, struct ArrowArrayStream* out)
{
    if (out == NULL) {
        return fail(TARN_ERROR_INVALID_ARGUMENT, "tarn_open_table: out is NULL");
    }
    clear_stream(out);
    tarn_status status = check_scan(scan);
    JNIEnv* env = NULL;
    if (status != TARN_OK || (status = enter(&env)) != TARN_OK) {
        return status;
    }
    jbyteArray error = (jbyteArray) (*env)->CallStaticObjectMethod(env, bridge_class, open_table_method,
            java_string(env, scan->warehouse), java_string(env, scan->table), java_string(env, scan->version),
            java_string(env, scan->columns), java_string(env, scan->where), java_string(env, scan->options), (jlong) (uintptr_t) out);
    status = java_result(env, error, "opening a table");
    leave(env);
    if (status != TARN_OK && out->release != NULL) {
        out->release(out);
    }
    return status;
}

tarn_status tarn_allocated_bytes(int64_t* out)
{
    if (out == NULL) {
        return fail(TARN_ERROR_INVALID_ARGUMENT, "tarn_allocated_bytes: out is NULL");
    }
    JNIEnv* env = NULL;
    tarn_status status = enter(&env);
    if (status != TARN_OK) {
        return status;
    }
    jlong bytes = (*env)->CallStaticLongMethod(env, bridge_class, allocated_method);
    status = take_exception(env, "reading the allocator");
    leave(env);
    if (status == TARN_OK) {
        *out = (int64_t) bytes;
        return ok();
    }
    return status;
}
