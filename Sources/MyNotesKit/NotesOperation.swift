/// One protocol call: what to send, whether it may be retried, and how to read the answer.
struct NotesOperation<Value: Sendable>: Sendable {
    var request: LegacyRequest
    var retry: RetryPolicy
    var transform: @Sendable (LegacyResponse) throws(NotesClientError) -> Value
}
