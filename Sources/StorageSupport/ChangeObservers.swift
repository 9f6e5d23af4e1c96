import Locking
import MyNotesDomain

/// The observers of a store's committed changes, called in the order they were added on
/// the thread that posts. An observer must return quickly: it runs on the store's writer
/// (SQLite) or its listener thread (PostgreSQL).
package final class ChangeObservers: Sendable {
    private let observers = Lock<[@Sendable (ChangeSignal) -> Void]>([])

    package init() {}

    package func add(_ observer: @escaping @Sendable (ChangeSignal) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    package var isEmpty: Bool { observers.withLock { $0.isEmpty } }

    package func post(_ signal: ChangeSignal) {
        let current = observers.withLock { $0 }
        for observer in current { observer(signal) }
    }
}
