#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, which Swift cannot call: this asks it for the
// client's socket address (NULL when unavailable). The address lives as long as the
// connection.
static inline const struct sockaddr *cmicrohttpd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// The connection's socket, or -1. Valid until the connection's CLOSED notification.
static inline int cmicrohttpd_connection_descriptor(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// What MHD_OPTION_NOTIFY_CONNECTION stored for the connection when it started.
static inline void *cmicrohttpd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// The listening socket of the daemon that owns the connection, or -1: how the TLS
// certificate callback, which gets only the connection, finds its server's certificate.
static inline int cmicrohttpd_connection_listen_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    if (info == NULL || info->daemon == NULL) return -1;
    const union MHD_DaemonInfo *daemon =
        MHD_get_daemon_info(info->daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return daemon == NULL ? -1 : daemon->listen_fd;
}
#endif
