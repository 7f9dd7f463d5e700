// The test process's own settings, made before Swift Testing starts: see bounded_parallelism.c and
// temporary_folder.c.
#ifndef COFFER_TEST_RUNTIME_H
#define COFFER_TEST_RUNTIME_H
/// The width bounded_parallelism.c gives Swift Testing when the environment names none.
extern const char *const coffer_test_parallelism_width;
/// The process's own temporary folder (TMPDIR while the tests run; removed at exit), or "" when none was made.
const char *coffer_test_temporary_folder(void);
#endif
