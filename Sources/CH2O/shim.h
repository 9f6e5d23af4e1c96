#ifndef CH2O_SHIM_H
#define CH2O_SHIM_H
// h2o's event loop and HTTP/1 library (libh2o-evloop 2.2.5), imported by HTTPCore alone.
// libh2o-evloop.pc does not say it, but the headers need H2O_USE_LIBUV=0: without it they
// include libuv's uv.h and declare the libuv flavour of every socket function.
#define H2O_USE_LIBUV 0
#include <h2o.h>
#include <h2o/http1.h>
#include "tls.h"
#endif
