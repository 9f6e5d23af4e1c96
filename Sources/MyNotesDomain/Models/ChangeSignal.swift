/// What a store tells its change observers once a write to notes has committed
/// (``NoteStore/observeChanges(_:)``).
///
/// ```swift
/// store.observeChanges { signal in
///     if case .account(let id) = signal { wakeStreams(of: id) } else { wakeAllStreams() }
/// }
/// ```
public enum ChangeSignal: Sendable, Hashable {
    /// This account's feed has new changes.
    case account(Int64)
    /// Any account's feed may have new changes: the store could not follow for a while (a
    /// lost database connection), so every reader should look.
    case anyAccount
}
