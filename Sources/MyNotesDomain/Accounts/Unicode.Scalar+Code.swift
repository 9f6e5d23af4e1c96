extension Unicode.Scalar {
    /// `U+00A0`: how a refused character is named, never the character itself.
    package var code: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
