# Names of test groups the test scripts treat apart (sourced by scripts/test.sh and
# scripts/test-tsan.sh).
#
# Suites that measure latency while the server is under attack or load run alone, after
# the rest: on two cores the other suites' work would count against their time limits,
# and tests that block threads would starve the tasks they measure. The query memory suite
# sends 100 MB answers, which would count against the others. The change stream suites
# measure a write's way to an open stream and wait on a slow reader's stall limit. One
# test, not a suite: the CLI's import of 10,000 notes within 60 s (76 s when the parallel
# run shared the machine with another build).
load_suites='ConnectionLimitTests|ChangeStreamTests|ChangeStreamProcessTests|StreamingResponseTests|SignUpFloodTests|SignUpCostTests|QueryTokenFirstTests|QueryMemoryTests|SignInTimingTests|tenThousand'
# Tests whose subject is a time limit on real work, which a sanitizer's slowdown breaks:
# six sign-ups at the server's real hashing cost against a 10 s refill, on one server and
# on two sharing the budget (under ASan the two servers' five sign-ups once took longer
# than the refill, so the sixth was let in); importing 10,000 notes in under 60 s. Since
# 2026-12-04 also four that wait a fixed time for real work (20 refusals within 60 s from a
# stream of adds; a silent connection replaced within 20 s; the SQLite search index's
# catch-up within a minute, twice): in two CI runs that day each failed in the ASan step
# alone, on a machine measured 20% slower than the day before, and passed in the plain run.
# Their waits were lengthened later that day (the silent connection 120 s, the catch-up 5
# minutes), after a stalled plain run failed them too; the ASan step still skips them.
time_limited_tests='sixSignUpsFromOneAddress|theSignUpRateHoldsAcrossServers|tenThousand|twoFastWritersStopAtTheByteLimit|ChangeFeedIntegrationTests/silent|notesWaitingOnOpeningAreFoundAtOnceAndIndexedWhileTheStoreServes|aQuietStoreIndexesTheWaitingNotes'
# The test targets that run programs: the built executables (server commands, the CLI,
# fault injection under a tmpfs mount, the operations tools such as promtool). The quick
# tier leaves them to the full run.
process_suites='ServerCommandTests|MynotesCLITests|FaultTests|OperationsTests'
