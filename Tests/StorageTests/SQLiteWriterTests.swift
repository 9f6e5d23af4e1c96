import Dispatch
import Foundation
import Testing

@testable import Storage

/// The writer's queue is bounded: with the writer busy and the queue full, one more
/// write is refused at once, and the queued ones still commit.
@Suite struct SQLiteWriterTests {
    @Test func aFullWriteQueueIsRefusedAtOnceAndTheQueuedWritesCommit() async throws {
        let database = try TemporaryDatabaseFile()
        defer { database.remove() }
        let writer = SQLiteWriter(
            connection: try SQLiteConnection(path: database.path, mode: .readWrite),
            queueLimit: 2, retryAfter: .seconds(3))
        defer { writer.close() }
        // Given the writer thread held inside a batch
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holding = Task {
            try await writer.perform { _ throws(StoreError) in
                started.signal()
                release.wait()
                return 0
            }
        }
        started.wait()
        // And two writes waiting for the next batch
        let queued = (1...2).map { value in
            Task { try await writer.perform { _ throws(StoreError) in value } }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while writer.waitingWrites < 2, ContinuousClock.now < deadline { await Task.yield() }
        #expect(writer.waitingWrites == 2)
        // Then one more is refused at once, with the configured wait
        await #expect {
            _ = try await writer.perform { _ throws(StoreError) in 3 }
        } throws: { error in
            guard case StoreError.overloaded(let wait) = error else { return false }
            return wait == .seconds(3)
        }
        // And when the writer is free, the held and the queued writes are answered
        release.signal()
        #expect(try await holding.value == 0)
        #expect(try await queued[0].value == 1)
        #expect(try await queued[1].value == 2)
    }
}
