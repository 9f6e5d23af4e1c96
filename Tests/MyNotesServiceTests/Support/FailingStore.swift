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

    func account(email: String, presenting tokenHash: [UInt8]?) throws(StoreError) -> TokenCheck? {
        try check(.accountLookup)
        return try base.account(email: email, presenting: tokenHash)
    }

    func account(tokenHash: [UInt8]) throws(StoreError) -> Account? {
        try check(.accountLookup)
        return try base.account(tokenHash: tokenHash)
    }

    func accountAndNotes(
        email: String, presenting tokenHash: [UInt8]?
    ) throws(StoreError) -> (check: TokenCheck, notes: [Note])? {
        try check(.accountLookup)
        try check(.notes)
        return try base.accountAndNotes(email: email, presenting: tokenHash)
    }

    func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) throws(StoreError) -> Account {
        try base.createAccount(email: email, tokenHash: tokenHash, passwordHash: passwordHash)
    }

    func allAccounts() throws(StoreError) -> [Account] { try base.allAccounts() }

    func removeAccount(email: String) throws(StoreError) -> Bool {
        try base.removeAccount(email: email)
    }

    func replaceTokens(email: String, tokenHash: [UInt8]) throws(StoreError) -> Bool {
        try base.replaceTokens(email: email, tokenHash: tokenHash)
    }

    func addToken(_ tokenHash: [UInt8], account: Int64) throws(StoreError) {
        try base.addToken(tokenHash, account: account)
    }

    func removeToken(_ tokenHash: [UInt8]) throws(StoreError) -> Bool {
        try base.removeToken(tokenHash)
    }

    func setPasswordHash(_ passwordHash: String, email: String) throws(StoreError) -> Bool {
        try base.setPasswordHash(passwordHash, email: email)
    }

    func notes(account: Int64) throws(StoreError) -> [Note] {
        try check(.notes)
        return try base.notes(account: account)
    }

    func notes(account: Int64, page: NotePage) throws(StoreError) -> [Note] {
        try check(.notes)
        return try base.notes(account: account, page: page)
    }

    func note(id: Int64, account: Int64) throws(StoreError) -> Note? {
        try check(.notes)
        return try base.note(id: id, account: account)
    }

    func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota) throws(StoreError) -> Note {
        try check(.notes)
        return try base.addNote(draft, account: account, quota: quota)
    }

    func updateNote(
        id: Int64, account: Int64, with draft: NoteDraft, ifVersion version: Int64?
    ) throws(StoreError) -> ConditionalWrite<Note> {
        try check(.notes)
        return try base.updateNote(id: id, account: account, with: draft, ifVersion: version)
    }

    func removeNote(
        id: Int64, account: Int64, ifVersion version: Int64?
    ) throws(StoreError) -> ConditionalWrite<Void> {
        try check(.notes)
        return try base.removeNote(id: id, account: account, ifVersion: version)
    }

    func close() { base.close() }
}
