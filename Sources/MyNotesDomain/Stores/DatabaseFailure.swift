/// A database engine's own report of a failure, as the engine words and numbers it.
/// Each store module has its own (`SQLiteError`, `PostgreSQLError`); the rules above the
/// stores see only this, so they depend on no engine.
///
/// ```swift
/// catch StoreError.database(let failure) { print(failure.reportedCode, failure.message) }
/// ```
public protocol DatabaseFailure: Error, CustomStringConvertible, Sendable {
    /// The engine's words.
    var message: String { get }
    /// The code a user or an operator looks the failure up by, named as the engine names
    /// it: `SQLite error 1811`, `SQLSTATE 23514`.
    var reportedCode: String { get }
}
