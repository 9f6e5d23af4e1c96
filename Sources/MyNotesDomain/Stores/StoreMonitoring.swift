import Telemetry

/// What a store tells the person who runs it: whether it can serve (for `/readyz`),
/// warnings worth a line at start, and its figures for `/metrics`. Numbers only: the
/// metrics layer names and formats them.
public protocol StoreMonitoring: Sendable {
    /// Ready when the database answers and holds every migration this build knows.
    func readiness() async -> StoreReadiness

    /// Things the operator should know when the server starts (a setting that costs
    /// durability, say); none by default.
    var warnings: [String] { get }

    /// The store's queues, commits and search index, now.
    func figures() -> StoreFigures
}

extension StoreMonitoring {
    public var warnings: [String] { [] }
}

/// Whether the store can serve, and if not, why, in words for the operator.
public enum StoreReadiness: Sendable, Equatable {
    case ready
    case notReady(reason: String)

    /// Ready when every migration the build `knows` has been `applied`.
    public init(applied: Set<String>, knows: [String]) {
        if let missing = knows.first(where: { !applied.contains($0) }) {
            self = .notReady(reason: "migration \(missing) is not applied")
        } else {
            self = .ready
        }
    }
}
