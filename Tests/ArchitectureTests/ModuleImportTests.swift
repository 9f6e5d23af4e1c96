import Foundation
import Testing

/// The module diagram of docs/ARCHITECTURE.md is the rule: each module imports only the
/// modules its row names. These tests read the sources and the document, so that an
/// import that breaks the layering, or a document that no longer tells the truth, fails.
@Suite("The module diagram holds")
struct ModuleImportTests {
    /// The toolchain's and the system's modules, which any module may import.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc",
        "FoundationXML", "Darwin", "Musl", "Synchronization", "Testing", "XCTest", "os",
    ]

    /// What may stand before `import` besides attributes.
    static let access: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The rows of the document's table: a module, and the modules it may import.
    static func allowed() throws -> [String: Set<String>] {
        let text = try String(
            contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| module | may import |") {
                inTable = true
                continue
            }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, !cells[1].hasPrefix("-") else { continue }
            let names = { (cell: String) -> [String] in
                cell.split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
                }.filter { !$0.isEmpty && $0 != "—" }
            }
            rows[names(cells[1])[0]] = Set(names(cells[2]))
        }
        return rows
    }

    /// Each module's folder under Sources and the modules its files import.
    static func imports() throws -> [String: [String: Set<String>]] {
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default
        var found: [String: [String: Set<String>]] = [:]
        for module in try files.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(module)
            guard let walk = files.enumerator(atPath: folder.path) else { continue }
            for case let path as String in walk where path.hasSuffix(".swift") {
                let text = try String(
                    contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                        words[..<index].allSatisfy({ $0.hasPrefix("@") || Self.access.contains($0) }
                        )
                    else { continue }
                    // `import struct Module.Type` names the module after the kind.
                    let named =
                        ["struct", "class", "enum", "protocol", "func", "var"]
                            .contains(String(words[index + 1])) && index + 2 < words.count
                        ? words[index + 2] : words[index + 1]
                    let imported = String(named.split(separator: ".")[0])
                    found[module, default: [:]][path, default: []].insert(imported)
                }
            }
        }
        return found
    }

    @Test func everyModuleImportsOnlyWhatTheDiagramAllows() throws {
        let allowed = try Self.allowed()
        #expect(!allowed.isEmpty, "docs/ARCHITECTURE.md has no module table")
        for (module, files) in try Self.imports() {
            // C modules have no Swift sources to check.
            guard module.first != "C" || module == "CommandLineSupport" else { continue }
            guard let permitted = allowed[module] else {
                Issue.record("\(module) is not in docs/ARCHITECTURE.md's module table")
                continue
            }
            for (file, imported) in files {
                let stray = imported.subtracting(permitted).subtracting(Self.system)
                    .subtracting([module])
                #expect(stray.isEmpty, "Sources/\(module)/\(file) imports \(stray.sorted())")
            }
        }
    }

    @Test func theDiagramNamesOnlyModulesThatExist() throws {
        let modules = Set(
            try FileManager.default.contentsOfDirectory(
                atPath: Self.root.appendingPathComponent("Sources").path))
        for (module, permitted) in try Self.allowed() {
            #expect(modules.contains(module), "the table names \(module), which is not a module")
            for name in permitted {
                #expect(modules.contains(name), "\(module)'s row names \(name), not a module")
            }
        }
    }

    /// Each target's dependencies in Package.swift, read from its `.target(name: …,
    /// dependencies: […])` declarations (test and fuzz targets are left out).
    static func packageDependencies() throws -> [String: Set<String>] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var found: [String: Set<String>] = [:]
        let kinds = [".target(", ".executableTarget(", ".systemLibrary("]
        var rest = Substring(text)
        while let start = kinds.compactMap({ rest.range(of: $0) }).min(by: {
            $0.lowerBound < $1.lowerBound
        }) {
            rest = rest[start.upperBound...]
            let end =
                [".target(", ".executableTarget(", ".systemLibrary(", ".testTarget(", "]\n"]
                .compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
            let declaration = rest[..<end]
            guard let name = Self.quoted(after: "name:", in: declaration) else { continue }
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies:"),
                let close = declaration[list.upperBound...].firstIndex(of: "]")
            {
                var inside = declaration[list.upperBound..<close]
                while let open = inside.firstIndex(of: "\"") {
                    let after = inside[inside.index(after: open)...]
                    guard let shut = after.firstIndex(of: "\"") else { break }
                    dependencies.insert(String(after[..<shut]))
                    inside = after[after.index(after: shut)...]
                }
            }
            found[name] = dependencies
        }
        return found
    }

    private static func quoted(after label: String, in text: Substring) -> String? {
        guard let at = text.range(of: label) else { return nil }
        let after = text[at.upperBound...].drop { $0 == " " }
        guard after.first == "\"" else { return nil }
        return String(after.dropFirst().prefix { $0 != "\"" })
    }

    @Test func theDiagramIsWhatPackageSwiftDeclares() throws {
        let declared = try Self.packageDependencies()
        #expect(!declared.isEmpty)
        for (module, permitted) in try Self.allowed() {
            guard let dependencies = declared[module] else {
                Issue.record("\(module) is not a target in Package.swift")
                continue
            }
            #expect(
                dependencies == permitted,
                "\(module): Package.swift says \(dependencies.sorted()), the document \(permitted.sorted())"
            )
        }
    }

    /// The domain stays free of transport and storage.
    @Test func theDomainImportsNoHTTPAndNoSQL() throws {
        let permitted = try Self.allowed()["MyNotesDomain"] ?? []
        for forbidden in [
            "HTTPCore", "Storage", "CSQLite", "CLibPQ", "CH2O", "FoundationNetworking",
        ] {
            #expect(!permitted.contains(forbidden))
        }
    }
}
