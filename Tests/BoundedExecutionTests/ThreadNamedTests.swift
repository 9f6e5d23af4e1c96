import BoundedExecution
import Foundation
import Synchronization
import Testing

/// `Thread.named`: each thread shows its own name from its first instruction on.
struct ThreadNamedTests {
    /// Foundation's own setter lost the name of about 1 thread in 100 (the new thread
    /// ran before `start()` stored its handle), so 1,000 threads all named is a test that
    /// fails with it.
    @Test func everyThreadShowsItsNameFromItsStart() {
        let count = 1_000
        let mismatches = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread.named("named", suffix: ".\(index)") {
                let shown = Thread.current.name ?? ""
                if shown != "named.\(index)" { mismatches.withLock { $0.append(shown) } }
                finished.signal()
            }.start()
        }
        for _ in 0..<count { finished.wait() }
        #expect(mismatches.withLock { $0 }.isEmpty)
    }
}
