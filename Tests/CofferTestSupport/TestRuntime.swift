import CofferTestRuntime

/// How many test cases Swift Testing runs at once when the environment does not say (CofferTestRuntime sets it
/// before the run starts; its source says why).
public let testParallelismWidth = String(cString: coffer_test_parallelism_width)
