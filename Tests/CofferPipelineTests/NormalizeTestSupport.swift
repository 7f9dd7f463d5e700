import CofferModel
import Foundation
@testable import CofferPipeline

/// The shipped configuration, loaded once for the normalize tests.
enum NormalizeFixtures {
    static let configDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config")

    static let merchantsFile = configDirectory.appendingPathComponent("merchants.yaml").path
    static let categoriesFile = configDirectory.appendingPathComponent("categories.yaml").path

    static let normalizer: DescriptionNormalizer = {
        do {
            let rules = try MerchantRules.load(defaults: merchantsFile, user: nil)
            let categories = try CategoryMCCTable.load(defaults: categoriesFile, user: nil)
            return DescriptionNormalizer(rules: rules, categories: categories)
        } catch {
            // A broken shipped file must fail the tests, not crash them: the config tests report it.
            return DescriptionNormalizer()
        }
    }()

    /// Writes `text` to a fresh temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-normalize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
