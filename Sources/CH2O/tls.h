#ifndef CH2O_TLS_H
#define CH2O_TLS_H
// OpenSSL, the TLS library h2o links: HTTPCore builds the SSL_CTX that h2o's accept context
// hands each TLS connection (Sources/HTTPCore/Server/TLS). What is here, Swift cannot call
// as it stands: OpenSSL's macros (SSL_CTX_set_min_proto_version, SSL_CTX_set1_groups_list,
// SSL_CTX_add1_chain_cert, SSL_CTX_set_mode), 64-bit option constants built by a macro, and
// C callbacks.
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <string.h>
#include <time.h>

// TLS 1.2 at least; 1.3 stays allowed (the maximum is left open).
static inline int ch2o_tls_require_tls12(SSL_CTX *ctx)
{
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

// No compression (CRIME), no renegotiation (of any kind: TLS 1.3 has none, and a TLS 1.2
// client asking for it is refused), the server's cipher order rather than the client's.
static inline void ch2o_tls_harden(SSL_CTX *ctx)
{
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    // An idle connection keeps no read and write buffers: measured with 500 idle keep-alive
    // TLS 1.3 connections, 15.8 KiB each with this mode against 25.1 KiB without (the rest
    // is the SSL object itself; a plain connection costs h2o about 1 KiB).
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
}

static inline int ch2o_tls_set_groups(SSL_CTX *ctx, const char *groups)
{
    return (int)SSL_CTX_set1_groups_list(ctx, groups);
}

// Adds an intermediate certificate to the chain sent after the server's own; the context
// takes its own reference.
static inline int ch2o_tls_add_chain_certificate(SSL_CTX *ctx, X509 *certificate)
{
    return (int)SSL_CTX_add1_chain_cert(ctx, certificate);
}

// ALPN: http/1.1 when the client offers it; otherwise no protocol is acknowledged and the
// connection goes on as HTTP/1.1 all the same. HTTP/2 ("h2") is never chosen: h2o would
// serve it with its own HTTP/2 code, which HTTPCore does not use.
static int ch2o_tls_select_http1(SSL *ssl, const unsigned char **out, unsigned char *out_length,
                                 const unsigned char *offered, unsigned int offered_length, void *unused)
{
    static const unsigned char http1[] = "\x08http/1.1";
    unsigned char *selected = NULL;
    (void)ssl;
    (void)unused;
    if (SSL_select_next_proto(&selected, out_length, http1, sizeof(http1) - 1, offered, offered_length) !=
        OPENSSL_NPN_NEGOTIATED)
        return SSL_TLSEXT_ERR_NOACK;
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

static inline void ch2o_tls_offer_http1_only(SSL_CTX *ctx)
{
    SSL_CTX_set_alpn_select_cb(ctx, ch2o_tls_select_http1, NULL);
}

// Never asks for a passphrase: OpenSSL's default callback would prompt on the terminal,
// which a server must not do. An encrypted key then fails to load.
static int ch2o_tls_no_passphrase(char *buffer, int size, int writing, void *unused)
{
    (void)buffer;
    (void)size;
    (void)writing;
    (void)unused;
    return -1;
}

static inline EVP_PKEY *ch2o_tls_read_private_key(BIO *pem)
{
    return PEM_read_bio_PrivateKey(pem, NULL, ch2o_tls_no_passphrase, NULL);
}

// The reason of the oldest error queued on this thread (OpenSSL's text, e.g. "no start
// line"), or NULL when there is none; the queue is emptied.
static inline const char *ch2o_tls_take_error_reason(void)
{
    unsigned long error = ERR_get_error();
    ERR_clear_error();
    return error == 0 ? NULL : ERR_reason_error_string(error);
}

// An ASN1 time as seconds since 1970 (UTC); 0 when it cannot be read.
static inline int ch2o_tls_time_to_epoch(const ASN1_TIME *time, int64_t *seconds)
{
    struct tm broken_down;
    memset(&broken_down, 0, sizeof(broken_down));
    if (time == NULL || ASN1_TIME_to_tm(time, &broken_down) != 1)
        return 0;
    *seconds = (int64_t)timegm(&broken_down);
    return 1;
}

#endif
