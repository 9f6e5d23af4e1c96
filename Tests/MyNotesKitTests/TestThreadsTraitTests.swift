import Foundation
import MyNotesTesting
import Testing

/// MyNotesTesting's `.onTestThreads`: a body, sync or async, and its child tasks run on
/// the test case's own threads, never on Swift's cooperative pool.
struct TestThreadsTraitTests {
    /// The name of the thread running the caller (a synchronous read, so that an async
    /// body may ask too).
    static func threadName() -> String { Thread.current.name ?? "" }

    static let ownThreads = "test."

    @Test(.onTestThreads) func aSynchronousBodyRunsOnItsOwnThreads() {
        #expect(Self.threadName().hasPrefix(Self.ownThreads), "\(Self.threadName())")
    }

    /// Once seen on the pool in a full parallel run: it was Foundation dropping the
    /// thread's name (see `Thread.named`), not a task off its threads.
    @Test(.onTestThreads, arguments: [1, 2])
    func anAsynchronousBodyAndItsChildTasksDoToo(children: Int) async {
        #expect(Self.threadName().hasPrefix(Self.ownThreads), "\(Self.threadName())")
        let names = await withTaskGroup(of: String.self) { group in
            for _ in 0..<children { group.addTask { Self.threadName() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.allSatisfy { $0.hasPrefix(Self.ownThreads) }, "\(names)")
    }

    @Test func withoutItABodyRunsOnThePool() {
        #expect(!Self.threadName().hasPrefix(Self.ownThreads), "\(Self.threadName())")
    }
}
