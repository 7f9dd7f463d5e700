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

    /// The tests' files go into a folder of this process's own, which it removes at exit (they once filled /tmp).
    @Test func temporaryFilesGoToTheProcesssOwnFolder() throws {
        let folder = testTemporaryFolder
        try #require(!folder.isEmpty, "the constructor in Tests/CofferTestRuntime made no folder")
        #expect(folder.contains("/coffer-test-run-"))
        #expect(ProcessInfo.processInfo.environment["TMPDIR"] == folder)
        #expect(NSTemporaryDirectory().hasPrefix(folder), "\(NSTemporaryDirectory())")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
    }
}
