import Foundation
import Testing

/// The documents send a reader from one to another; a link that leads nowhere is a dead end
/// a newcomer meets first. These tests read every relative link in the README, the
/// contributing guide, the manual under docs/ and the benchmarks' README, and check that
/// the file it names exists and, for a `#fragment` into a Markdown file, that the file has
/// a heading whose GitHub anchor is that fragment.
@Suite("The documents' links lead somewhere")
struct DocumentationLinkTests {
    static let root = ModuleImportTests.root

    /// A link found in a document: where it stands and what it names.
    struct Link: CustomStringConvertible {
        var document: String
        var line: Int
        var target: String
        var description: String { "\(document):\(line): (\(target))" }
    }

    /// The documents whose links are checked, as paths from the repository's root.
    static func documents() -> [String] {
        var found = ["README.md", "CONTRIBUTING.md", "benchmarks/README.md"]
        let docs = root.appendingPathComponent("docs")
        if let walk = FileManager.default.enumerator(atPath: docs.path) {
            for case let path as String in walk where path.hasSuffix(".md") {
                found.append("docs/" + path)
            }
        }
        return found.sorted()
    }

    /// The targets of the inline links `[text](target)`, images `![alt](target)` and
    /// reference definitions `[label]: target` of a Markdown text, outside fenced code
    /// blocks and code spans, each with its line number.
    static func links(in text: String) -> [(line: Int, target: String)] {
        var found: [(Int, String)] = []
        for (index, line) in proseLines(of: text) {
            let prose = withoutCodeSpans(line)
            // A reference definition: `[label]: target` at the start of the line.
            if prose.first == "[", let close = prose.range(of: "]: ") {
                let target = prose[close.upperBound...].prefix { $0 != " " }
                if !target.isEmpty { found.append((index + 1, String(target))) }
            }
            // Inline links and images: a `](` opens the target, the matching `)` closes it.
            var rest = prose[...]
            while let open = rest.range(of: "](") {
                var depth = 0
                var end = open.upperBound
                while end < rest.endIndex {
                    let character = rest[end]
                    if character == "(" { depth += 1 }
                    if character == ")" {
                        if depth == 0 { break }
                        depth -= 1
                    }
                    end = rest.index(after: end)
                }
                var target = rest[open.upperBound..<end].trimmingCharacters(in: .whitespaces)
                // A title may follow the destination: `(path "title")`.
                if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }
                if target.hasPrefix("<"), target.hasSuffix(">") {
                    target = String(target.dropFirst().dropLast())
                }
                if !target.isEmpty { found.append((index + 1, target)) }
                rest = rest[end...]
            }
        }
        return found
    }

    /// The line with its code spans blanked, so that `[a](b)` written as code is not a link.
    static func withoutCodeSpans(_ line: Substring) -> String {
        var result = ""
        var rest = line[...]
        while let open = rest.firstIndex(of: "`") {
            result += rest[..<open]
            let ticks = rest[open...].prefix { $0 == "`" }
            let after = rest[ticks.endIndex...]
            guard let close = after.range(of: String(ticks)) else {
                result += rest[open...]
                return result
            }
            result += String(repeating: " ", count: ticks.count * 2)
            rest = after[close.upperBound...]
        }
        return result + rest
    }

    /// Whether a link leaves the repository: a URL with a scheme, or a protocol-relative one.
    static func isExternal(_ target: String) -> Bool {
        if target.hasPrefix("//") { return true }
        guard let colon = target.firstIndex(of: ":") else { return false }
        let scheme = target[..<colon]
        return !scheme.isEmpty
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            && !scheme.contains("/")
    }

    /// The anchor GitHub gives a heading: lowercased, stripped of punctuation (letters,
    /// digits, spaces, hyphens and underscores stay), spaces turned into hyphens.
    static func slug(_ heading: String) -> String {
        var text = heading
        // Links and images in a heading show only their text.
        while let open = text.range(of: "]("),
            let close = text[open.upperBound...].firstIndex(of: ")")
        {
            text.removeSubrange(open.lowerBound...close)
        }
        var slug = ""
        for character in text.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter
                || character.isNumber
            {
                slug.append(character)
            }
        }
        return slug
    }

    /// The lines of a Markdown text outside fenced code blocks, with their 0-based index:
    /// neither a link nor a heading lives inside a fence.
    static func proseLines(of text: String) -> [(index: Int, line: Substring)] {
        var lines: [(Int, Substring)] = []
        var fence: Substring?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix { $0 == trimmed.first }
                continue
            }
            lines.append((index, line))
        }
        return lines
    }

    /// The anchors of a Markdown text: one per heading, the second of two equal ones with
    /// `-1`, the third with `-2`, and so on; and any explicit `id="…"` or `name="…"`.
    static func anchors(in text: String) -> Set<String> {
        var found: Set<String> = []
        var seen: [String: Int] = [:]
        for (_, line) in proseLines(of: text) {
            for attribute in ["id=\"", "name=\""] {
                var rest = line[...]
                while let at = rest.range(of: attribute) {
                    let value = rest[at.upperBound...].prefix { $0 != "\"" }
                    found.insert(String(value))
                    rest = rest[at.upperBound...]
                }
            }
            let hashes = line.prefix { $0 == "#" }
            guard (1...6).contains(hashes.count), line.dropFirst(hashes.count).first == " "
            else { continue }
            var heading = line.dropFirst(hashes.count).trimmingCharacters(in: .whitespaces)
            // A closing run of hashes is not part of the heading.
            while heading.hasSuffix("#") { heading.removeLast() }
            let base = slug(heading.trimmingCharacters(in: .whitespaces))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            found.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return found
    }

    /// Every relative link in the documents, with what is wrong with it, if anything.
    static func brokenLinks() throws -> [(Link, String)] {
        var broken: [(Link, String)] = []
        var anchorsByFile: [String: Set<String>] = [:]
        let files = FileManager.default
        for document in documents() {
            let url = root.appendingPathComponent(document)
            guard files.fileExists(atPath: url.path) else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (line, target) in links(in: text) where !isExternal(target) {
                let link = Link(document: document, line: line, target: target)
                let parts = target.split(
                    separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = (parts[0].removingPercentEncoding ?? String(parts[0]))
                let fragment = parts.count > 1 ? String(parts[1]) : nil
                let file =
                    path.isEmpty
                    ? url
                    : path.hasPrefix("/")
                        ? root.appendingPathComponent(String(path.dropFirst()))
                        : url.deletingLastPathComponent().appendingPathComponent(path)
                let resolved = file.standardizedFileURL
                guard resolved.path.hasPrefix(root.standardizedFileURL.path) else {
                    broken.append((link, "leads out of the repository"))
                    continue
                }
                guard files.fileExists(atPath: resolved.path) else {
                    broken.append((link, "names no file"))
                    continue
                }
                guard let fragment, !fragment.isEmpty, resolved.pathExtension == "md" else {
                    continue
                }
                if anchorsByFile[resolved.path] == nil {
                    anchorsByFile[resolved.path] = anchors(
                        in: try String(contentsOf: resolved, encoding: .utf8))
                }
                let anchor = fragment.removingPercentEncoding ?? fragment
                if !(anchorsByFile[resolved.path] ?? []).contains(anchor.lowercased()) {
                    broken.append((link, "names no heading of \(resolved.lastPathComponent)"))
                }
            }
        }
        return broken
    }

    @Test func everyRelativeLinkResolves() throws {
        #expect(Self.documents().contains("README.md"))
        for (link, problem) in try Self.brokenLinks() {
            Issue.record("\(link) \(problem)")
        }
    }

    @Test func theCheckFindsLinksAndAnchorsAsGitHubDoes() {
        let text = """
            # MyNotes: a notes server
            See [the manual](docs/REST-API.md#notes-and-tags), ![shot](a.png "A title").
            `[not](a link)` and [site](https://example.com).

            ```
            [also not](a link)
            ```
            ## Tests
            ## Tests
            [ref]: docs/TESTING.md
            """
        let targets = Self.links(in: text).map(\.target)
        #expect(
            targets == [
                "docs/REST-API.md#notes-and-tags", "a.png", "https://example.com",
                "docs/TESTING.md",
            ])
        #expect(Self.isExternal("https://example.com"))
        #expect(!Self.isExternal("docs/TESTING.md#a-b"))
        #expect(Self.anchors(in: text) == ["mynotes-a-notes-server", "tests", "tests-1"])
        #expect(Self.slug("Restructuring: before and after") == "restructuring-before-and-after")
        #expect(Self.slug("`POST /api/v1/notes` (create)") == "post-apiv1notes-create")
    }
}
