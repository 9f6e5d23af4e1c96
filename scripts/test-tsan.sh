#!/usr/bin/env bash
# The Swift suite under ThreadSanitizer (docs/TESTING.md, Sanitizers), in a build of its
# own (.build-tsan).
# `Locking.Lock` is a pthread mutex in this build (-DMYNOTES_THREAD_SANITIZER), which
# ThreadSanitizer sees; the default build's `Mutex` is a futex it cannot see. Left out, as
# in the AddressSanitizer step of scripts/test.sh: the load suites and the tests whose
# subject is a time limit, which the sanitizer's slowdown breaks (a backup that must not
# hold an add for 500 ms; six sign-ups at the real hashing cost; 10,000 imports in 60 s).
# Not part of scripts/test.sh: it takes about 17 minutes here (7 to build, 10 to run).
# Extra arguments go to `swift test` (e.g. --filter StorageTests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/test-suites.sh
flags=(--sanitize=thread -Xswiftc -DMYNOTES_THREAD_SANITIZER --scratch-path .build-tsan)
swift build --build-tests "${flags[@]}"
# halt_on_error: the first report fails the run, so none can scroll past unnoticed.
TSAN_OPTIONS=halt_on_error=1 swift test --skip-build "${flags[@]}" \
    --skip "$load_suites|$time_limited_tests|aBackupDuringAStreamOfAdds" "$@"
