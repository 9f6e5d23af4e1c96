import Dispatch
import Locking
import Testing

@Suite("Lock")
struct LockTests {
    @Test("Threads that add under the lock lose no update", arguments: [2, 8])
    func noLostUpdates(threads: Int) {
        let total = Lock(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<10_000 { total.withLock { $0 += 1 } }
        }
        #expect(total.withLock { $0 } == threads * 10_000)
    }

    @Test("A typed error thrown inside the lock reaches the caller, and the lock is free after")
    func typedThrow() {
        struct Refused: Error, Equatable {}
        let value = Lock([1, 2])
        #expect(throws: Refused()) {
            try value.withLock { (numbers: inout [Int]) throws(Refused) in
                numbers.append(3)
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == [1, 2, 3])
    }
}
