/* The spike's server on h2o's event loop library (libh2o-evloop 2.2.5, Debian's): one thread,
 * epoll, HTTP/1.1 keep-alive, answering every request with the same 600-byte JSON.
 *
 *   h2o_server PORT [inline|async]
 *
 * inline: the handler answers at once on the loop thread.
 * async:  the handler hands the request to a store thread, which produces the answer and
 *         posts it back through an h2o_multithread queue (a pipe the loop watches); the loop
 *         then sends it. That is the path every store-backed answer of ours would take.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#include "h2o.h"
#include "common.h"

#ifndef REQ_TIMEOUT_MS
#define REQ_TIMEOUT_MS (30 * 1000) /* HTTPCore's idle timeout: 30 s */
#endif

static h2o_globalconf_t config;
static h2o_context_t context;
static h2o_accept_ctx_t accept_context;
static enum mode mode;
static struct store_thread store;
static h2o_multithread_queue_t *answers_queue;
static h2o_multithread_receiver_t answers_receiver;

/* A request waiting for its answer. The store thread owns it until it posts it back; the
 * request may be gone by then (the client closed): `holder` lives in the request's pool and
 * clears `req` when the pool is disposed, on the loop thread, as the receiver runs. */
struct pending {
    struct job job;
    h2o_multithread_message_t message;
    h2o_req_t *req;
    struct holder *holder;
};
struct holder {
    struct pending *pending;
};

static void send_answer(h2o_req_t *req, const char *bytes)
{
    req->res.status = 200;
    req->res.reason = "OK";
    req->res.content_length = ANSWER_LENGTH; /* else h2o sends it chunked */
    h2o_add_header(&req->pool, &req->res.headers, H2O_TOKEN_CONTENT_TYPE, NULL, H2O_STRLIT("application/json"));
    h2o_send_inline(req, bytes, ANSWER_LENGTH);
}

static void refuse(h2o_req_t *req, int status, const char *reason)
{
    req->http1_is_persistent = 0; /* as HTTPCore does for 414/431: the connection closes */
    h2o_send_error_generic(req, status, reason, reason, 0);
}

static void forget_request(void *p)
{
    struct holder *holder = p;
    if (holder->pending != NULL)
        holder->pending->req = NULL;
}

/* On the store thread: the answer is ready, post it to the loop. */
static void answer_ready(struct job *job)
{
    struct pending *pending = (struct pending *)job;
    h2o_multithread_send_message(&answers_receiver, &pending->message);
}

/* On the loop thread: every answer posted since the last wake-up, in one batch. */
static void on_answers(h2o_multithread_receiver_t *receiver, h2o_linklist_t *messages)
{
    while (!h2o_linklist_is_empty(messages)) {
        struct pending *pending = H2O_STRUCT_FROM_MEMBER(struct pending, message.link, messages->next);
        h2o_linklist_unlink(&pending->message.link);
        if (pending->req != NULL) {
            h2o_req_t *req = pending->req;
            pending->holder->pending = NULL; /* the request's pool outlives `pending` now */
            send_answer(req, pending->job.answer);
        }
        free(pending);
    }
}

static int on_request(h2o_handler_t *self, h2o_req_t *req)
{
    if (req->input.path.len > MAX_TARGET_BYTES) {
        refuse(req, 414, "URI Too Long");
        return 0;
    }
    size_t header_bytes = 0;
    for (size_t i = 0; i != req->headers.size; ++i)
        header_bytes += req->headers.entries[i].name->len + req->headers.entries[i].value.len + 4;
    if (header_bytes > MAX_HEADER_BYTES) {
        refuse(req, 431, "Request Header Fields Too Large");
        return 0;
    }
    if (mode == MODE_INLINE) {
        send_answer(req, answer_body);
        return 0;
    }
    struct pending *pending = malloc(sizeof(*pending));
    if (pending == NULL) {
        h2o_send_error_generic(req, 503, "Service Unavailable", "out of memory", 0);
        return 0;
    }
    pending->req = req;
    pending->message.link = (h2o_linklist_t){NULL, NULL};
    pending->job.done = answer_ready;
    struct holder *holder = h2o_mem_alloc_shared(&req->pool, sizeof(*holder), forget_request);
    holder->pending = pending;
    pending->holder = holder;
    store_thread_submit(&store, &pending->job);
    return 0;
}

static void on_accept(h2o_socket_t *listener, const char *err)
{
    if (err != NULL)
        return;
    /* Accept all that are waiting: a burst of a thousand connections would otherwise take a
     * thousand loop iterations. */
    h2o_socket_t *sock;
    while ((sock = h2o_evloop_socket_accept(listener)) != NULL)
        h2o_accept(&accept_context, sock);
}

int main(int argc, char **argv)
{
    int port;
    parse_arguments(argc, argv, &port, &mode);
    signal(SIGPIPE, SIG_IGN);

    h2o_config_init(&config);
    config.http1.req_timeout = REQ_TIMEOUT_MS;
    config.max_request_entity_size = 1024 * 1024;
    h2o_hostconf_t *host = h2o_config_register_host(&config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    h2o_pathconf_t *path = h2o_config_register_path(host, "/", 0);
    h2o_handler_t *handler = h2o_create_handler(path, sizeof(*handler));
    handler->on_req = on_request;

    h2o_context_init(&context, h2o_evloop_create(), &config);
    accept_context.ctx = &context;
    accept_context.hosts = config.hosts;

    if (mode == MODE_ASYNC) {
        answers_queue = h2o_multithread_create_queue(context.loop);
        h2o_multithread_register_receiver(answers_queue, &answers_receiver, on_answers);
        store_thread_start(&store);
    }

    int fd = socket(AF_INET, SOCK_STREAM, 0), on = 1;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd == -1 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0 ||
        bind(fd, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(fd, 4096) != 0) {
        perror("listen");
        return 1;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    h2o_socket_t *listener = h2o_evloop_socket_create(context.loop, fd, H2O_SOCKET_FLAG_DONT_READ);
    h2o_socket_read_start(listener, on_accept);
    printf("listening on http://127.0.0.1:%d/ (h2o evloop, %s)\n", port, mode == MODE_ASYNC ? "async" : "inline");
    fflush(stdout);

    while (h2o_evloop_run(context.loop, INT32_MAX) == 0)
        ;
    return 1;
}
