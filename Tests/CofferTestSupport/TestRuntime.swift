import CofferTestRuntime

/// How many test cases Swift Testing runs at once when the environment does not say (CofferTestRuntime sets it
/// before the run starts; its source says why).
public let testParallelismWidth = String(cString: coffer_test_parallelism_width)

/// The test process's own temporary folder, removed when the process exits (CofferTestRuntime makes it and sets
/// TMPDIR to it before the run starts); empty when it could not be made.
public let testTemporaryFolder = String(cString: coffer_test_temporary_folder())
