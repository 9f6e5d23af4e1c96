import Synchronization

/// A fixed number of atomic integers in one allocation, for tables of counters (by
/// method and status, by histogram bucket) that the hot path bumps without a lock.
///
/// ```swift
/// let counters = AtomicCounters(count: 4)
/// counters.add(1, at: 2)
/// counters.load(at: 2)  // 1
/// ```
public final class AtomicCounters: @unchecked Sendable {
    // Safe to share: the memory is only reached through the atomics it holds, and is
    // freed when the last owner goes.
    private let base: UnsafeMutablePointer<Atomic<Int>>
    public let count: Int

    public init(count: Int) {
        self.count = count
        base = .allocate(capacity: max(1, count))
        for index in 0..<count { (base + index).initialize(to: Atomic(0)) }
    }

    /// Adds `value` to the counter at `index` (relaxed: counters order nothing).
    @inline(__always)
    public func add(_ value: Int, at index: Int) {
        base[index].add(value, ordering: .relaxed)
    }

    public func load(at index: Int) -> Int {
        base[index].load(ordering: .relaxed)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
