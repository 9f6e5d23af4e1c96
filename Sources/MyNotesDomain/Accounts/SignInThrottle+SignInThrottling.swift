// Its synchronous, non-throwing methods are the protocol's witnesses.
extension SignInThrottle: SignInThrottling {}
