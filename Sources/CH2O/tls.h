#ifndef CH2O_TLS_H
#define CH2O_TLS_H
// TLS helpers for h2o's accept context (OpenSSL's SSL_CTX). Owned by the TLS work; empty
// until it lands, so that shim.h can include it already.
#endif
