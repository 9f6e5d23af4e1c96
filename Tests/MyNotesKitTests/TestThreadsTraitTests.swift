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

    /// Intermittent: in one full parallel run on 2026-12-04 a case of this test found
    /// itself and its child task on a thread of the pool (`com.apple.root.default-qos`),
    /// which no run of the test alone, nor the other full runs, did. Not understood yet:
    /// an async body under the trait is not proven off the pool.
    @Test(.onTestThreads, arguments: [1, 2])
    func anAsynchronousBodyAndItsChildTasksDoToo(children: Int) async {
        await withKnownIssue("an async body was once seen on the pool", isIntermittent: true) {
            #expect(Self.threadName().hasPrefix(Self.ownThreads), "\(Self.threadName())")
            let names = await withTaskGroup(of: String.self) { group in
                for _ in 0..<children { group.addTask { Self.threadName() } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(names.allSatisfy { $0.hasPrefix(Self.ownThreads) }, "\(names)")
        }
    }

    @Test func withoutItABodyRunsOnThePool() {
        #expect(!Self.threadName().hasPrefix(Self.ownThreads), "\(Self.threadName())")
    }
}
