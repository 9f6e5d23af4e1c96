#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// libpq, PostgreSQL's C client (Debian: libpq-dev, headers in /usr/include/postgresql).
#include <libpq-fe.h>
#endif
