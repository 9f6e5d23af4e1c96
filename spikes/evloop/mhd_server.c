/* The spike's server on libmicrohttpd 0.9.75 (Debian's), configured as HTTPCore configures it:
 * MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME, one
 * thread (no thread pool), a 96 KiB connection memory pool (64 KiB request target + 16 KiB of
 * headers + 16 KiB), answering every request with the same 600-byte JSON.
 *
 *   mhd_server PORT [inline|async]
 *
 * inline: the access handler queues the answer at once.
 * async:  the handler suspends the connection and hands the request to a store thread, which
 *         produces the answer and resumes the connection (MHD_resume_connection, which writes
 *         to libmicrohttpd's inter-thread pipe); the handler, called again, queues it. That
 *         is HTTPCore's path for every store-backed answer.
 */
#include <microhttpd.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#include "common.h"

static enum mode mode;
static struct store_thread store;

struct request {
    struct job job;
    struct MHD_Connection *connection;
    size_t target_bytes;
    int head_seen;
    atomic_int answered;
};

/* MHD_OPTION_URI_LOG_CALLBACK: the only place the whole request target (with its query) is
 * seen; HTTPCore takes its length here too, for the 414. */
static void *request_started(void *cls, const char *uri, struct MHD_Connection *connection)
{
    struct request *request = calloc(1, sizeof(*request));
    if (request != NULL)
        request->target_bytes = strlen(uri);
    return request;
}

static void request_completed(void *cls, struct MHD_Connection *connection, void **context,
                              enum MHD_RequestTerminationCode code)
{
    free(*context);
    *context = NULL;
}

static enum MHD_Result count_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    *(size_t *)cls += strlen(key) + (value != NULL ? strlen(value) : 0) + 4;
    return MHD_YES;
}

static enum MHD_Result queue(struct MHD_Connection *connection, unsigned status, const char *bytes, size_t length,
                             int close)
{
    struct MHD_Response *response =
        MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
    if (response == NULL)
        return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, status == 200 ? "application/json" : "text/plain");
    if (close)
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

static void answer_ready(struct job *job)
{
    struct request *request = (struct request *)job;
    atomic_store_explicit(&request->answered, 1, memory_order_release);
    MHD_resume_connection(request->connection);
}

static enum MHD_Result handle_request(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **context)
{
    struct request *request = *context;
    if (request == NULL)
        return MHD_NO;
    if (request->target_bytes > MAX_TARGET_BYTES)
        return queue(connection, 414, "URI Too Long", 12, 1);
    size_t header_bytes = 0;
    MHD_get_connection_values(connection, MHD_HEADER_KIND, count_header, &header_bytes);
    if (header_bytes > MAX_HEADER_BYTES)
        return queue(connection, 431, "Request Header Fields Too Large", 31, 1);
    /* Answer on the last call, once the (empty) body is read: queued at the first call, before
     * the end of the body, libmicrohttpd closes the connection after the answer. */
    if (!request->head_seen || *upload_data_size != 0) {
        request->head_seen = 1;
        *upload_data_size = 0; /* a body is read and ignored */
        return MHD_YES;
    }
    if (mode == MODE_INLINE)
        return queue(connection, 200, answer_body, ANSWER_LENGTH, 0);
    if (atomic_load_explicit(&request->answered, memory_order_acquire))
        return queue(connection, 200, request->job.answer, ANSWER_LENGTH, 0);
    if (request->connection == NULL) {
        /* Suspend before the store thread can resume: a resume that came first would be lost. */
        request->connection = connection;
        request->job.done = answer_ready;
        MHD_suspend_connection(connection);
        store_thread_submit(&store, &request->job);
    }
    return MHD_YES;
}

int main(int argc, char **argv)
{
    int port;
    parse_arguments(argc, argv, &port, &mode);
    signal(SIGPIPE, SIG_IGN);
    if (mode == MODE_ASYNC)
        store_thread_start(&store);
    unsigned flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME;
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, handle_request, NULL,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(MAX_TARGET_BYTES + MAX_HEADER_BYTES + 16 * 1024),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)(4096 + 2), /* HTTPCore's default maxConnections + threads */
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)0,  /* off: every wrk connection is one address */
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)4096,
        MHD_OPTION_URI_LOG_CALLBACK, request_started, NULL,
        MHD_OPTION_NOTIFY_COMPLETED, request_completed, NULL,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "MHD_start_daemon failed\n");
        return 1;
    }
    printf("listening on http://127.0.0.1:%d/ (libmicrohttpd %s, %s)\n", port, MHD_get_version(),
           mode == MODE_ASYNC ? "async" : "inline");
    fflush(stdout);
    for (;;)
        pause();
}
