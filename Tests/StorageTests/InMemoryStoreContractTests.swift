import MyNotesDomain
import MyNotesProtocol
import MyNotesTesting
import Testing

@testable import Storage

/// The in-memory store that the domain's tests run over must answer as the SQLite store
/// does, or those tests prove rules about a store that does not exist: the same seeded
/// sequence of adds, updates, removals, pages, searches, feed reads and purges runs on
/// both, and every answer (but the wall-clock times of notes) must be equal.
@Suite struct InMemoryStoreContractTests {
    static let seed: UInt64 = 20_261_207
    static let steps = 200
    static let quota = NoteQuota(notes: 10, bytes: 400)
    static let dates: [NoteDate] = [
        "2026-11-28", "2026-11-29", "2026-11-29 08:00:00", "2026-11-30",
    ]
    static let needles = ["milk", "STRASSE", "café", "会议", "🎉", "a_b", "e", "zzz", ""]

    /// One step of the sequence, chosen before either store runs it.
    enum Step: CustomStringConvertible {
        case add(NoteDraft, account: Int64)
        case update(id: Int64, account: Int64, NoteChange, WritePrecondition)
        case remove(id: Int64, account: Int64, WritePrecondition)
        case list(account: Int64, NotePage)
        /// A read after the cursor `back` changes before the account's position (`nil`:
        /// from nothing; -1: past the position, as another database's cursor is).
        case feed(account: Int64, back: Int64?, limit: Int)
        case purge

        var description: String {
            switch self {
            case .add(let draft, let account): "add \(draft) to \(account)"
            case .update(let id, let account, let change, let precondition):
                "update \(id) of \(account) with \(change) if \(precondition)"
            case .remove(let id, let account, let precondition):
                "remove \(id) of \(account) if \(precondition)"
            case .list(let account, let page): "list \(account) \(page)"
            case .feed(let account, let back, let limit):
                "feed of \(account) from \(back.map { "\($0) back" } ?? "nothing"), \(limit)"
            case .purge: "purge every tombstone"
            }
        }
    }

    static func steps(seed: UInt64) -> [Step] {
        var random = SQLiteSearchIndexTests.SeededGenerator(state: seed)
        func account() -> Int64 { Int64.random(in: 1...2, using: &random) }
        // IDs past those made, and notes of the other account, name no note.
        func id() -> Int64 { Int64.random(in: 1...24, using: &random) }
        func precondition() -> WritePrecondition {
            switch Int.random(in: 0..<6, using: &random) {
            case 0..<3: .none
            case 3: .exists
            case 4: .matches([Int64.random(in: 1...3, using: &random)])
            default: .matches([])
            }
        }
        func date() -> NoteDate { dates.randomElement(using: &random)! }
        return (0..<steps).map { _ in
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                return .add(
                    NoteDraft(date: date(), content: SQLiteSearchIndexTests.note(&random)),
                    account: account())
            case 30..<50:
                let change = NoteChange(
                    date: Bool.random(using: &random) ? date() : nil,
                    content: Bool.random(using: &random)
                        ? SQLiteSearchIndexTests.note(&random) : nil)
                return .update(id: id(), account: account(), change, precondition())
            case 50..<62:
                return .remove(id: id(), account: account(), precondition())
            case 62..<82:
                let after =
                    Bool.random(using: &random)
                    ? NotePosition(sortKey: date().sortKey, id: id()) : nil
                let needle =
                    Bool.random(using: &random) ? needles.randomElement(using: &random) : nil
                return .list(
                    account: account(),
                    NotePage(
                        after: after, limit: Int.random(in: 0...6, using: &random),
                        containing: needle))
            case 82..<98:
                let back =
                    Int.random(in: 0..<3, using: &random) == 0
                    ? nil : Int64.random(in: -1...8, using: &random)
                return .feed(
                    account: account(), back: back, limit: Int.random(in: 1...12, using: &random))
            default:
                return .purge
            }
        }
    }

    /// What `store` answers to `step`, the times of notes left out (each store stamps its
    /// own), then the account's position in its feed.
    static func answer(_ step: Step, on store: any NoteStore) async -> String {
        func bare(_ note: Note) -> Note {
            var note = note
            note.createdAt = 0
            note.updatedAt = 0
            return note
        }
        do {
            switch step {
            case .add(let draft, let account):
                let note = try await store.addNote(draft, account: account, quota: quota)
                return "\(bare(note))"
            case .update(let id, let account, let change, let precondition):
                switch try await store.updateNote(
                    id: id, account: account, change: change, precondition: precondition,
                    quota: quota)
                {
                case .applied(let note): return "applied \(bare(note))"
                case .notFound: return "not found"
                case .preconditionFailed(let current): return "failed \(current.map(bare) as Any)"
                }
            case .remove(let id, let account, let precondition):
                switch try await store.removeNote(
                    id: id, account: account, precondition: precondition)
                {
                case .applied: return "removed"
                case .notFound: return "not found"
                case .preconditionFailed(let current): return "failed \(current.map(bare) as Any)"
                }
            case .list(let account, let page):
                return "\(try await store.notes(account: account, page: page).map(bare))"
            case .feed(let account, let back, let limit):
                // Both stores hold the same state here, so the cursor is the same on each.
                let position = try await store.changePosition(account: account)
                let cursor = back.map { max(0, position - $0) }
                guard
                    case .page(var page) = try await store.changes(
                        account: account, after: cursor, limit: limit)
                else { return "expired at \(position)" }
                for index in page.changes.indices {
                    page.changes[index].note = page.changes[index].note.map(bare)
                }
                return "\(page) at \(position)"
            case .purge:
                return "purged \(try await store.purgeChanges(removedBefore: .max))"
            }
        } catch {
            return "error \(error)"
        }
    }

    @Test func theInMemoryStoreAnswersAsTheSQLiteStoreDoes() async throws {
        let steps = Self.steps(seed: Self.seed)
        let memory = InMemoryNoteStore()
        defer { memory.close() }
        try await TemporaryStore.withNew(.sqlite) { sqlite in
            for store in [sqlite, memory as any NoteStore] {
                _ = try await store.annAndBob()
            }
            var kinds: Set<String> = []
            for (index, step) in steps.enumerated() {
                let expected = await Self.answer(step, on: sqlite)
                let answered = await Self.answer(step, on: memory)
                #expect(answered == expected, "step \(index): \(step)")
                guard answered == expected else { return }
                kinds.insert(String(expected.prefix(while: { $0 != " " && $0 != "(" })))
            }
            // The sequence reached the answers that matter, not only the easy ones.
            for kind in ["applied", "removed", "failed", "not", "error", "expired", "FeedPage"] {
                #expect(kinds.contains(kind), "no step answered \(kind)")
            }
        }
    }
}
