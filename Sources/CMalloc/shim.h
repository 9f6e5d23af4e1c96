#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H
// glibc's allocator settings (mallopt), which Swift's Glibc module leaves out.
#if defined(__linux__)
#include <malloc.h>
#endif
#endif
