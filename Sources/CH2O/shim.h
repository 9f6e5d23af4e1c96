#ifndef CH2O_SHIM_H
#define CH2O_SHIM_H
// h2o's event loop library (libh2o-evloop 2.2.5), imported by HTTPCore alone. HTTPCore uses
// its loop, sockets, timeouts and cross-thread queues, and the HTTP/1 request parser it
// bundles (picohttpparser); it frames requests and answers itself, so that every framing
// and limit check is ours (see docs/ARCHITECTURE.md, "HTTP layer").
//
// libh2o-evloop.pc does not say it, but the headers need H2O_USE_LIBUV=0: without it they
// include libuv's uv.h and declare the libuv flavour of every socket function.
#define H2O_USE_LIBUV 0
#include <stdlib.h>
#include <sys/socket.h>
#include <h2o.h>
#include <h2o/http1.h>
#include "tls.h"

// picohttpparser ships inside libh2o-evloop (its symbols are exported) without its header;
// these are its declarations, unchanged since 2014.
struct phr_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};
int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len,
                      const char **path, size_t *path_len, int *minor_version,
                      struct phr_header *headers, size_t *num_headers, size_t last_len);

// Swift cannot embed its objects in C structs, nor use H2O_STRUCT_FROM_MEMBER: these pair
// each h2o struct the library links into its lists with a pointer to Swift state.

/// A message posted to a loop from any thread, carrying one Swift object.
typedef struct ch2o_message {
    h2o_multithread_message_t super;
    void *context;
} ch2o_message_t;

/// Posts `context` to the receiver's loop; 0, or -1 when out of memory.
static inline int ch2o_post(h2o_multithread_receiver_t *receiver, void *context) {
    ch2o_message_t *message = malloc(sizeof(*message));
    if (message == NULL) return -1;
    message->super.link = (h2o_linklist_t){NULL, NULL};
    message->context = context;
    h2o_multithread_send_message(receiver, &message->super);
    return 0;
}

/// The next posted context from a receiver's batch (freeing its message), or NULL.
static inline void *ch2o_take_message(h2o_linklist_t *messages) {
    if (h2o_linklist_is_empty(messages)) return NULL;
    ch2o_message_t *message = H2O_STRUCT_FROM_MEMBER(ch2o_message_t, super.link, messages->next);
    h2o_linklist_unlink(&message->super.link);
    void *context = message->context;
    free(message);
    return context;
}

/// A timeout entry that knows its Swift owner.
typedef struct ch2o_timer {
    h2o_timeout_entry_t entry;
    void *context;
} ch2o_timer_t;

static inline void *ch2o_timer_context(h2o_timeout_entry_t *entry) {
    return H2O_STRUCT_FROM_MEMBER(ch2o_timer_t, entry, entry)->context;
}

/// h2o_timeout_is_linked, for a timer.
static inline int ch2o_timer_is_linked(ch2o_timer_t *timer) {
    return h2o_timeout_is_linked(&timer->entry);
}

/// The peer of a socket as a sockaddr_storage; its length, or 0.
static inline socklen_t ch2o_socket_peer(h2o_socket_t *sock, struct sockaddr_storage *address) {
    return h2o_socket_getpeername(sock, (struct sockaddr *)address);
}
#endif
