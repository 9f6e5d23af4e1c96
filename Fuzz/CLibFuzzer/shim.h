#ifndef MYNOTES_CLIBFUZZER_SHIM_H
#define MYNOTES_CLIBFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, present only in a program linked with -sanitize=fuzzer. Weak, so that
// the same fuzz target also links without it (and then replays inputs instead of fuzzing).
extern int LLVMFuzzerRunDriver(int *argc, char ***argv,
                               int (*test_one_input)(const uint8_t *data, size_t size))
    __attribute__((weak));

// Runs libFuzzer's driver; -1 when the program was linked without it.
static inline int mynotes_run_libfuzzer(int *argc, char ***argv,
                                        int (*test_one_input)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, test_one_input);
}

#endif
