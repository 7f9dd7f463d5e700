// Runs before main, so before Swift Testing reads its configuration: at most 8 test cases at once, unless the
// environment already says (SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH, Swift Testing's own setting).
//
// Why: unbounded, every case of a parameterized test starts at once and the test process held up to 1,900 open
// files (each test's store is about 8 descriptors). Foundation's Process.run() on Linux lists /proc/self/fd before
// each spawn and copies 256 bytes per entry (swift-corelibs-foundation #5472, fixed after Swift 6.3): with 1,365
// or more entries, one lies at the end of glibc's 32 KB directory buffer and the copy can run off the mapped page,
// killing the whole test run with SIGSEGV (seen once in `swift test`, 2026-11-24). At 8 the process peaks near 190
// descriptors, and the suite runs as fast (122 s against 133 s on 2 cores): a wider pool only contends.
#include <stdlib.h>
#include "CofferTestRuntime.h"

const char *const coffer_test_parallelism_width = "8";

__attribute__((constructor)) static void coffer_bound_test_parallelism(void) {
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", coffer_test_parallelism_width, 0);
}
