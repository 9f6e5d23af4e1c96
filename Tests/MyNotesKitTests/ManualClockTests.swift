import MyNotesTesting
import Testing

/// The manual clock the SDK's and the service's timing tests run on: it must wake
/// exactly the sleepers whose deadline it passes, and let cancelled ones go.
@Suite("ManualClock")
struct ManualClockTests {
    @Test("Sleepers wake when the clock reaches their deadline, not before")
    func wakesAtTheDeadline() async throws {
        let clock = ManualClock()
        let woken = EventCounter("a sleeper woke")
        let short = Task {
            try await clock.sleep(for: .seconds(1))
            woken.signal()
        }
        let long = Task {
            try await clock.sleep(for: .seconds(5))
            woken.signal()
        }
        try await clock.waitForSleepers(count: 2)
        #expect(clock.pendingWaits == [.seconds(1), .seconds(5)])
        clock.advance(by: .milliseconds(999))
        #expect(clock.pendingWaits == [.milliseconds(1), .milliseconds(4_001)])
        clock.advance(by: .milliseconds(1))
        try await short.value
        #expect(clock.pendingWaits == [.seconds(4)])
        clock.advance(by: .seconds(10))
        try await long.value
        #expect(woken.value == 2)
        #expect(clock.now == ManualClock.Instant(offset: .seconds(11)))
    }

    @Test("A deadline already passed does not wait")
    func pastDeadline() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(3))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(2)))
        #expect(clock.pendingWaits.isEmpty)
    }

    @Test("A cancelled sleeper throws and leaves the clock")
    func cancellation() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleeper(dueIn: .seconds(60))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingWaits.isEmpty)
    }

    @Test("Waiting for a sleeper that never comes fails with what was awaited")
    func waitTimesOut() async {
        let clock = ManualClock()
        await #expect(throws: WaitTimeout.self) {
            try await clock.waitForSleeper(dueIn: .seconds(1), timeout: .milliseconds(50))
        }
    }
}
