import MyNotesDomain
import Telemetry

/// A store that can say whether it is ready to serve and show its figures on
/// `/metrics`. Apart from ``NoteStore`` so that a backend adds it when it can: SQLite's
/// shows its executor queues and commits; a pooled backend adds its pool's use as one
/// more family in ``collect(into:)``.
///
/// ```swift
/// if let monitored = store as? any StoreMonitoring {
///     let readiness = await monitored.readiness()
///     registry.register(monitored)
/// }
/// ```
public protocol StoreMonitoring: MetricsCollector {
    /// Whether the database answers and its schema is the one this build expects.
    func readiness() async -> StoreReadiness

    /// What the store found, as it opened, that works but not as well as it should, one
    /// sentence each, for the server to log as it starts.
    var warnings: [String] { get }
}

extension StoreMonitoring {
    public var warnings: [String] { [] }
}

/// A store's answer to ``StoreMonitoring/readiness()``.
public enum StoreReadiness: Sendable, Equatable {
    case ready
    /// Not ready; `reason` says why in a few words, for `/readyz` and the log.
    case notReady(reason: String)

    /// Ready when every migration this build `knows` (in order) is among those the
    /// database records as `applied`; else not ready, naming the first missing.
    public init(applied: Set<String>, knows: [String]) {
        if let missing = knows.first(where: { !applied.contains($0) }) {
            self = .notReady(reason: "migration \(missing) is not applied")
        } else {
            self = .ready
        }
    }
}
