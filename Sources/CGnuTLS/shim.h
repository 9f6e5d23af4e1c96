#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H
// GnuTLS, the TLS library libmicrohttpd is built with: HTTPCore loads certificates and
// keys with it for libmicrohttpd's certificate callback (MHD_OPTION_HTTPS_CERT_CALLBACK).
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <gnutls/x509.h>
#endif
