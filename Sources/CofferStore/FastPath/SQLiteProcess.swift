import CSQLiteTuning

/// SQLite's process-wide configuration, made once before the process opens its first connection.
package enum SQLiteProcess {
    private static let configured: Int32 = coffer_sqlite_configure()

    /// Applies Coffer's process-wide SQLite settings (see `CSQLiteTuning`) if SQLite is not yet initialized. Every
    /// store open calls it first; a later call, or one after another library initialized SQLite, changes nothing.
    @discardableResult
    package static func configure() -> Int32 { configured }
}
