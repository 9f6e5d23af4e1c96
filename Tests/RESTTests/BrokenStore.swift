import Storage

/// A store whose disk has failed: only bearer-token lookups still work (so requests get
/// past authentication), every other call fails as a broken database does. It lets the
/// real server show its `500` answers.
final class BrokenStore: NoteStore {
    let base: any NoteStore

    init(wrapping base: any NoteStore) {
        self.base = base
    }

    private func fail<T>() throws(StoreError) -> T { throw .failed("disk I/O error") }

    func account(tokenHash: [UInt8]) throws(StoreError) -> Account? {
        try base.account(tokenHash: tokenHash)
    }

    func account(email: String) throws(StoreError) -> Account? { try fail() }
    func account(email: String, presenting tokenHash: [UInt8]?) throws(StoreError) -> TokenCheck? {
        try fail()
    }
    func createAccount(
        email: String, tokenHash: [UInt8]?, passwordHash: String?
    ) throws(StoreError) -> Account { try fail() }
    func allAccounts() throws(StoreError) -> [Account] { try fail() }
    func removeAccount(email: String) throws(StoreError) -> Bool { try fail() }
    func replaceTokens(email: String, tokenHash: [UInt8]) throws(StoreError) -> Bool { try fail() }
    func addToken(_ tokenHash: [UInt8], account: Int64) throws(StoreError) {
        throw .failed("disk I/O error")
    }
    func removeToken(_ tokenHash: [UInt8]) throws(StoreError) -> Bool { try fail() }
    func setPasswordHash(_ passwordHash: String, email: String) throws(StoreError) -> Bool {
        try fail()
    }
    func notes(account: Int64) throws(StoreError) -> [Note] { try fail() }
    func notes(account: Int64, page: NotePage) throws(StoreError) -> [Note] { try fail() }
    func accountAndNotes(
        email: String, presenting tokenHash: [UInt8]?
    ) throws(StoreError) -> (check: TokenCheck, notes: [Note])? { try fail() }
    func note(id: Int64, account: Int64) throws(StoreError) -> Note? { try fail() }
    func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota) throws(StoreError) -> Note {
        try fail()
    }
    func updateNote(
        id: Int64, account: Int64, with draft: NoteDraft, ifVersion version: Int64?
    ) throws(StoreError) -> ConditionalWrite<Note> { try fail() }
    func removeNote(
        id: Int64, account: Int64, ifVersion version: Int64?
    ) throws(StoreError) -> ConditionalWrite<Void> { try fail() }

    func close() { base.close() }
}
