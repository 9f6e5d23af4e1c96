import MyNotesDomain
import Testing

@testable import PostgreSQLStore

/// The PostgreSQL search indexer's ANALYZE goes through at most once a minute: the gate
/// opens an interval after its last pass, at the nanosecond, and not before.
@Suite struct IntervalGateTests {
    static let minute = 60_000_000_000

    @Test func aGateNothingWentThroughIsOpenAtAnyTime() {
        let gate = IntervalGate(nanoseconds: Self.minute)
        #expect(gate.isOpen(at: 0))
        #expect(gate.isOpen(at: -5))
        #expect(gate.isOpen(at: Int.max))
    }

    /// Times after a pass at 1,000 s, and whether the gate is open then.
    @Test(arguments: [
        (0, false), (1, false), (minute - 1, false), (minute, true), (minute + 1, true),
        (10 * minute, true),
    ])
    func aPassShutsTheGateForAnInterval(after elapsed: Int, open: Bool) {
        var gate = IntervalGate(nanoseconds: Self.minute)
        let passed = 1_000_000_000_000
        gate.pass(at: passed)
        #expect(gate.isOpen(at: passed + elapsed) == open)
    }

    /// The interval counts from the last pass, not the first.
    @Test func eachPassStartsTheIntervalAgain() {
        var gate = IntervalGate(nanoseconds: Self.minute)
        gate.pass(at: 0)
        gate.pass(at: Self.minute)
        #expect(!gate.isOpen(at: Self.minute + Self.minute / 2))
        #expect(gate.isOpen(at: 2 * Self.minute))
    }
}
