import Dispatch
import Foundation
import Synchronization
import Testing

@testable import BoundedExecution

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct BoundedExecutorTests {
    @Test(arguments: [1, 3])
    func runsEveryJobOnItsThreadsAndReturnsItsValue(threads: Int) async throws {
        let executor = BoundedExecutor(
            name: "test", limits: ExecutorLimits(threads: threads, queueLimit: 100))
        defer { executor.close() }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<50 {
                group.addTask { try await executor.run { value * 2 } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == (0..<50).map { $0 * 2 })
    }

    /// What `top -H` and `gdb` show: the executor's name and the thread's index, cut to
    /// the 15 bytes Linux keeps, the index kept whole.
    @Test(arguments: [("reads", "reads.0"), ("password-hashing", "password-hash.0")])
    func itsThreadsCarryItsName(name: String, shown: String) async throws {
        let executor = BoundedExecutor(
            name: name, limits: ExecutorLimits(threads: 1, queueLimit: 1))
        defer { executor.close() }
        #expect(try await executor.run { Thread.current.name } == shown)
    }

    @Test func aFullQueueIsRefusedAtOnceAndAcceptsAgainWhenDrained() async throws {
        let executor = BoundedExecutor(
            name: "test", limits: ExecutorLimits(threads: 1, queueLimit: 2))
        defer { executor.close() }
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // Holds the only thread, then fills the queue with two more.
        #expect(
            executor.submit {
                started.signal(); release.wait()
            } == nil)
        started.wait()
        #expect(executor.submit {} == nil)
        #expect(executor.submit {} == nil)
        #expect(executor.waitingJobs == 2)
        await #expect(throws: BoundedExecutorError.overloaded(queueLimit: 2)) {
            try await executor.run { 1 }
        }
        release.signal()
        let deadline = ContinuousClock.now + .seconds(5)
        while executor.waitingJobs > 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(try await executor.run { 42 } == 42)
    }

    /// Submitted back to back, before the threads can have taken any: `threads +
    /// queueLimit` jobs fit, the next is refused, whatever the threads have done so far.
    @Test(arguments: [(1, 4), (2, 3)])
    func admissionCountsJobsInFlightNotHowFarTheThreadsHaveGot(threads: Int, queueLimit: Int)
        async throws
    {
        let executor = BoundedExecutor(
            name: "test", limits: ExecutorLimits(threads: threads, queueLimit: queueLimit))
        defer { executor.close() }
        let release = DispatchSemaphore(value: 0)
        let finished = Atomic<Int>(0)
        let capacity = threads + queueLimit
        let refusals = (0..<capacity + 1).map { _ in
            executor.submit {
                release.wait()
                finished.add(1, ordering: .relaxed)
            }
        }
        #expect(refusals.dropLast().allSatisfy { $0 == nil })
        #expect(refusals.last == .overloaded(queueLimit: queueLimit))
        for _ in 0..<capacity { release.signal() }
        executor.close()
        #expect(finished.load(ordering: .relaxed) == capacity)
    }

    @Test func closeRunsWhatWaitsThenRefuses() async throws {
        let executor = BoundedExecutor(
            name: "test", limits: ExecutorLimits(threads: 1, queueLimit: 10))
        let ran = Atomic<Int>(0)
        for _ in 0..<5 { #expect(executor.submit { ran.add(1, ordering: .relaxed) } == nil) }
        executor.close()
        #expect(ran.load(ordering: .relaxed) == 5)
        await #expect(throws: BoundedExecutorError.closed) { try await executor.run { 1 } }
        executor.close()
    }

    @Test func limitsAreAtLeastOne() {
        let limits = ExecutorLimits(threads: 0, queueLimit: -3)
        #expect(limits.threads == 1 && limits.queueLimit == 1)
    }
}

@Suite("Usable cores")
struct UsableCoresTests {
    @Test(
        "The affinity mask of /proc/PID/status is counted",
        arguments: [
            ("Name:\tx\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n", 1),
            ("Cpus_allowed:\t00000000,0000000f\n", 4),
            ("Cpus_allowed:\tff,00000003\n", 10),
        ])
    func countsTheMask(status: String, cores: Int) {
        #expect(UsableCores.affinityCount(status: status) == cores)
    }

    @Test("No mask, or an empty one, counts as unknown")
    func unknownWithoutMask() {
        #expect(UsableCores.affinityCount(status: "Name:\tx\n") == nil)
        #expect(UsableCores.affinityCount(status: "Cpus_allowed:\t0\n") == nil)
        #expect(UsableCores.count >= 1)
    }
}

/// An executor's threads take the scheduling they were made with: a `throughput` thread
/// (`SCHED_BATCH` on Linux) does not preempt the loop that hands it work.
@Suite struct ThreadSchedulingTests {
    #if os(Linux)
        /// The calling thread's policy, as sched.h numbers it.
        static func currentPolicy() -> Int32 {
            var policy: Int32 = -1
            var parameters = sched_param()
            _ = pthread_getschedparam(pthread_self(), &policy, &parameters)
            return policy
        }

        @Test(arguments: [
            (ThreadScheduling.throughput, Int32(3)), (ThreadScheduling.interactive, Int32(0)),
        ])
        func anExecutorsThreadsRunWithTheirScheduling(
            scheduling: ThreadScheduling, policy: Int32
        ) async throws {
            let executor = BoundedExecutor(
                name: "test", limits: ExecutorLimits(threads: 2, queueLimit: 4),
                scheduling: scheduling)
            defer { executor.close() }
            for _ in 0..<4 {
                #expect(try await executor.run { Self.currentPolicy() } == policy)
            }
        }

        @Test func helpersAreThroughputThreadsByDefault() async throws {
            let executor = BoundedExecutor(
                name: "test", limits: ExecutorLimits(threads: 1, queueLimit: 1))
            defer { executor.close() }
            #expect(try await executor.run { Self.currentPolicy() } == 3)
        }
    #endif
}
