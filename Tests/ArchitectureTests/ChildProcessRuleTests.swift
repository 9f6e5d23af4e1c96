import Foundation
import Testing

/// Foundation's `Process.run()` in this toolchain reads past its buffer of `/proc/self/fd`
/// entries and, when many descriptors are open, crashes the whole test process under
/// AddressSanitizer. Tests and their helpers start children with `ChildProcess` instead;
/// this test finds a `Process()` that slipped back in, before a parallel run does.
@Suite("Children are spawned without Foundation's Process")
struct ChildProcessRuleTests {
    @Test func everyChildIsSpawnedByChildProcess() throws {
        let files = FileManager.default
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = ModuleImportTests.root.appendingPathComponent(folder)
            guard let walk = files.enumerator(atPath: base.path) else { continue }
            for case let path as String in walk where path.hasSuffix(".swift") {
                // This file names the call in its own examples.
                guard base.appendingPathComponent(path).path != #filePath else { continue }
                let text = try String(
                    contentsOf: base.appendingPathComponent(path), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
                    .enumerated()
                where Self.makesAProcess(line) {
                    offenders.append("\(folder)/\(path):\(number + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "use ChildProcess: \(offenders)")
    }

    /// Whether a line of code calls `Process()` itself, not a name that ends in it.
    static func makesAProcess(_ line: Substring) -> Bool {
        guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return false }
        var rest = line[...]
        while let found = rest.range(of: "Process()") {
            let before = rest[..<found.lowerBound].last
            if before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    @Test func theRuleTellsACallFromAName() {
        #expect(Self.makesAProcess("        let restore = Process()"))
        #expect(Self.makesAProcess("run(Process())"))
        #expect(!Self.makesAProcess("        let child = ChildProcess()"))
        #expect(!Self.makesAProcess("    /// `Process()` crashes"))
    }
}
