import Storage

/// A store whose accounts work but whose chosen steps fail as a broken database
/// does, to reach ResultCode -3 through the real server.
final class FailingStore: NoteStore {
    enum Step: Sendable, CaseIterable {
        case accountLookup, notes
    }

    let base: any NoteStore
    let failing: Set<Step>

    init(wrapping base: any NoteStore, failing: Set<Step>) {
        self.base = base
        self.failing = failing
    }

    private func check(_ step: Step) throws(StoreError) {
        if failing.contains(step) { throw .failed("disk I/O error") }
    }

    func account(email: String) throws(StoreError) -> Account? {
        try check(.accountLookup)
        return try base.account(email: email)
    }

    func accountAndNotes(email: String) throws(StoreError) -> (account: Account, notes: [Note])? {
        try check(.accountLookup)
        try check(.notes)
        return try base.accountAndNotes(email: email)
    }

    func createAccount(email: String, tokenHash: [UInt8]) throws(StoreError) -> Account {
        try base.createAccount(email: email, tokenHash: tokenHash)
    }

    func allAccounts() throws(StoreError) -> [Account] { try base.allAccounts() }

    func removeAccount(email: String) throws(StoreError) -> Bool {
        try base.removeAccount(email: email)
    }

    func replaceTokenHash(email: String, tokenHash: [UInt8]) throws(StoreError) -> Bool {
        try base.replaceTokenHash(email: email, tokenHash: tokenHash)
    }

    func notes(account: Int64) throws(StoreError) -> [Note] {
        try check(.notes)
        return try base.notes(account: account)
    }

    func note(id: Int64, account: Int64) throws(StoreError) -> Note? {
        try check(.notes)
        return try base.note(id: id, account: account)
    }

    func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota) throws(StoreError) -> Note {
        try check(.notes)
        return try base.addNote(draft, account: account, quota: quota)
    }

    func updateNote(id: Int64, account: Int64, with draft: NoteDraft) throws(StoreError) -> Note? {
        try check(.notes)
        return try base.updateNote(id: id, account: account, with: draft)
    }

    func removeNote(id: Int64, account: Int64) throws(StoreError) -> Bool {
        try check(.notes)
        return try base.removeNote(id: id, account: account)
    }

    func close() { base.close() }
}
