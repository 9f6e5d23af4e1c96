import Dispatch
import MyNotesDomain
import MyNotesTesting
import Synchronization

@testable import SQLiteStore

/// A writer held inside a write of its own while other writes queue behind it: let go,
/// it takes them together, as one batch of several writers' writes.
///
/// ```swift
/// let held = try await HeldWriter(writer)
/// let writes = (0..<3).map { _ in Task { try await writer.perform { _ throws(StoreError) in } } }
/// try await held.waitUntilQueued(3)
/// try await held.letGo()     // the three commit in one batch
/// ```
struct HeldWriter {
    let writer: SQLiteWriter
    private let release = DispatchSemaphore(value: 0)
    private let holding: Task<Void, any Error>

    /// Returns once the writer is inside the holding write, whose task runs on `threads`
    /// when given (``TestThreads``).
    ///
    /// The waits poll by yielding: a blocked wait could hold the last free thread of the
    /// pool that the holding write's own task needs. Their limits are long because the
    /// other suites running alongside can keep that pool busy for minutes (seen in CI);
    /// a wait that fails lets the writer go, so that closing it does not hang.
    init(_ writer: SQLiteWriter, on threads: (any TaskExecutor)? = nil) async throws {
        self.writer = writer
        let started = Atomic(false)
        let release = release
        holding = Task(executorPreference: threads) {
            try await writer.perform { _ throws(StoreError) in
                started.store(true, ordering: .releasing)
                release.wait()
            }
        }
        try await lettingGoOnFailure {
            try await Poll.until("the writer is held", timeout: Self.limit, every: .milliseconds(1))
            {
                started.load(ordering: .acquiring)
            }
        }
    }

    /// How long a wait may take before the test fails.
    static let limit = Duration.seconds(600)

    /// Waits until `count` writes wait behind the held one.
    func waitUntilQueued(_ count: Int) async throws {
        try await lettingGoOnFailure {
            try await Poll.until(
                "\(count) writes queued", timeout: Self.limit, every: .milliseconds(1)
            ) {
                writer.waitingWrites == count
            }
        }
    }

    /// Lets the writer go and waits for the holding write to end (it throws if that write
    /// failed).
    func letGo() async throws {
        release.signal()
        try await holding.value
    }

    private func lettingGoOnFailure(_ wait: () async throws -> Void) async throws {
        do {
            try await wait()
        } catch {
            release.signal()
            throw error
        }
    }
}
