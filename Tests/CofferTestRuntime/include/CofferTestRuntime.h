// The test process's own settings, made before Swift Testing starts: see bounded_parallelism.c.
#ifndef COFFER_TEST_RUNTIME_H
#define COFFER_TEST_RUNTIME_H
/// The width bounded_parallelism.c gives Swift Testing when the environment names none.
extern const char *const coffer_test_parallelism_width;
#endif
