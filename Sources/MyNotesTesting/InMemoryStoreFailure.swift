import MyNotesDomain

/// What ``InMemoryNoteStore`` reports where a database would refuse a write by a
/// constraint (a note for an account that does not exist, a token hash held twice), so
/// that such a write fails there as it does on the real stores instead of being kept.
public struct InMemoryStoreFailure: DatabaseFailure {
    public var message: String
    public var reportedCode: String { "in-memory constraint" }
    public var description: String { "\(message) (\(reportedCode))" }

    public init(_ message: String) {
        self.message = message
    }
}
