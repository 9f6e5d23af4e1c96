import Storage

extension SignInThrottle: SignInThrottling {
    func wait(beforeSignIn email: String, from address: String?) async throws(StoreError)
        -> Duration?
    {
        delay(email: email, address: address)
    }

    func countFailure(email: String, from address: String?) async throws(StoreError) {
        recordFailure(email: email, address: address)
    }

    func countSuccess(email: String) async throws(StoreError) {
        recordSuccess(email: email)
    }
}
