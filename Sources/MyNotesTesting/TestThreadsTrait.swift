import Testing

/// Runs each test case of a suite, or of one test, on threads of its own
/// (``TestThreads``), out of Swift's cooperative pool.
///
/// The pool has a thread per core (two here), and every suite's test bodies start on it.
/// A test that waits on a socket, a child process or a database query holds its thread
/// meanwhile; two such tests hold the whole pool, and every other test, and the tasks the
/// waiting tests themselves wait for, stop until one returns (in a CI run on 2026-12-04 no
/// test finished for five minutes while PostgreSQL's search property tests, 220 s each
/// in a parallel run against 22 s alone, waited in blocking queries). Suites that block
/// for long take this trait; the rest stay on the pool, so that the number of tests
/// running at once stays near the number of cores.
///
/// ```swift
/// @Suite(.onTestThreads) struct SlowQueryTests {
///     @Test func aScanAnswers() throws { _ = try connection.query("SELECT …") }
/// }
/// ```
public struct TestThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    /// Threads per test case.
    public let count: Int

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // A test case is one run of a body; a suite or a whole function is not.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestThreads.run(count: count) { _ in try await function() }
    }
}

extension Trait where Self == TestThreadsTrait {
    /// Each test case on two threads of its own (``TestThreadsTrait``).
    public static var onTestThreads: Self { TestThreadsTrait(count: 2) }
}
