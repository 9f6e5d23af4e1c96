import Foundation

/// A value that threads change and tests wait on: each change wakes the waiters whose
/// condition now holds, and every wait has a time limit.
///
/// ```swift
/// let count = Observed(0)
/// count.update { $0 += 1 }                         // from any thread
/// try await count.wait("one", until: { $0 >= 1 })  // or the blocking `waitBlocking`
/// ```
public final class Observed<Value: Sendable>: @unchecked Sendable {
    private struct Waiter {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    // Everything below is guarded by `changed`'s lock.
    private let changed = NSCondition()
    private var value: Value
    private var waiters: [Int: Waiter] = [:]
    /// Waits whose time ran out before they could register.
    private var expired: Set<Int> = []
    private var nextWaiter = 0

    public init(_ value: Value) {
        self.value = value
    }

    /// Reads the value under the lock.
    public func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        changed.lock()
        defer { changed.unlock() }
        return try body(value)
    }

    /// Changes the value under the lock, then wakes whoever waits for the new one.
    @discardableResult
    public func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        changed.lock()
        let result: Result
        do {
            result = try body(&value)
        } catch {
            changed.unlock()
            throw error
        }
        let ready = waiters.filter { $0.value.condition(value) }
        for id in ready.keys { waiters[id] = nil }
        changed.broadcast()
        changed.unlock()
        for waiter in ready.values { waiter.continuation.resume(returning: true) }
        return result
    }

    /// Suspends until `condition` holds; throws ``WaitTimeout`` after `timeout`.
    public func wait(
        _ awaited: @autoclosure () -> String, timeout: Duration = .seconds(10),
        until condition: @escaping @Sendable (Value) -> Bool
    ) async throws(WaitTimeout) {
        let id = newWaiterID()
        let limit = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.expire(id) }
        }
        defer { limit.cancel() }
        let met = await withCheckedContinuation { continuation in
            changed.lock()
            if condition(value) {
                changed.unlock()
                continuation.resume(returning: true)
            } else if expired.remove(id) != nil {
                changed.unlock()
                continuation.resume(returning: false)
            } else {
                waiters[id] = Waiter(condition: condition, continuation: continuation)
                changed.unlock()
            }
        }
        guard met else { throw WaitTimeout(awaited(), limit: timeout) }
    }

    /// Blocks the calling thread until `condition` holds; throws ``WaitTimeout`` after
    /// `timeout`. For tests that run on threads of their own, not in the task pool.
    public func waitBlocking(
        _ awaited: @autoclosure () -> String, timeout: Duration = .seconds(10),
        until condition: (Value) -> Bool
    ) throws(WaitTimeout) {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        changed.lock()
        defer { changed.unlock() }
        while !condition(value) {
            guard changed.wait(until: deadline) || condition(value) else {
                throw WaitTimeout(awaited(), limit: timeout)
            }
        }
    }

    private func newWaiterID() -> Int {
        changed.lock()
        defer { changed.unlock() }
        nextWaiter += 1
        return nextWaiter
    }

    private func expire(_ id: Int) {
        changed.lock()
        let waiter = waiters.removeValue(forKey: id)
        if waiter == nil { expired.insert(id) }
        changed.unlock()
        waiter?.continuation.resume(returning: false)
    }
}
