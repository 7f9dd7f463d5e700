import CofferTestSupport
import Foundation
import Testing

/// The test process bounds how many cases run at once before Swift Testing starts (CofferTestRuntime): without
/// the bound, the open descriptors of parallel cases' stores let Foundation's `Process.run()` crash the whole run.
@Suite struct TestRuntimeTests {
    @Test func theRunIsBoundedBeforeItStarts() throws {
        let width = try #require(ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"],
                                 "the constructor in Tests/CofferTestRuntime did not run")
        #expect(Int(width) != nil)
        #expect(testParallelismWidth == "8")
    }
}
