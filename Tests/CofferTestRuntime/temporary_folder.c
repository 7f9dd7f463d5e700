// Runs before main: the test process's temporary folder is one of its own, removed when the process exits.
//
// Why: the tests make their stores, statement folders and configuration folders under NSTemporaryDirectory()
// (coffer-cli-tests/UUID, coffer-pipeline-tests/UUID, ...) and leave them there. On a developer's machine they
// added up to 64 GB in /tmp over a few days of `swift test` (2026-11-24) and filled the disk. Here TMPDIR becomes
// a fresh folder inside the usual one (Foundation's NSTemporaryDirectory(), SQLite's temporary files and every
// `coffer` the tests start read it), and an exit handler removes it with all it holds. A run that crashes leaves
// its folder; COFFER_KEEP_TEST_FILES=1 keeps it on purpose (its path is then printed), to look at what a test wrote.
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "CofferTestRuntime.h"

static char folder[512];
static pid_t owner;

const char *coffer_test_temporary_folder(void) { return folder; }

static int remove_entry(const char *path, const struct stat *status, int kind, struct FTW *walk) {
    (void)status; (void)kind; (void)walk;
    remove(path);
    return 0;
}

static void remove_temporary_folder(void) {
    if (getpid() != owner) return;  // a forked child that did not exec
    nftw(folder, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}

__attribute__((constructor)) static void coffer_own_temporary_folder(void) {
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0') base = "/tmp";
    int written = snprintf(folder, sizeof folder,
                           "%s/coffer-test-run-XXXXXX", base);
    if (written <= 0 || (size_t)written >= sizeof folder
        || mkdtemp(folder) == NULL) {
        folder[0] = '\0';  // the usual folder, as before
        return;
    }
    setenv("TMPDIR", folder, 1);
    const char *keep = getenv("COFFER_KEEP_TEST_FILES");
    if (keep != NULL && strcmp(keep, "1") == 0) {
        fprintf(stderr, "COFFER_KEEP_TEST_FILES: the tests' files stay in %s\n", folder);
        return;
    }
    owner = getpid();
    atexit(remove_temporary_folder);
}
