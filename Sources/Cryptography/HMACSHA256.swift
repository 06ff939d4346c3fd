import CSodium

/// HMAC-SHA256 (RFC 2104) through libsodium's `crypto_auth_hmacsha256`,
/// whose streaming form takes a key of any length (the terminal secret is
/// text the bank chose, not 32 random bytes).
package enum HMACSHA256 {
    package static let byteCount = Int(crypto_auth_hmacsha256_BYTES)

    /// The 32-byte tag of `message` under `key`.
    package static func tag(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(sodiumReady, "libsodium failed to initialise")
        var state = crypto_auth_hmacsha256_state()
        var tag = [UInt8](repeating: 0, count: byteCount)
        crypto_auth_hmacsha256_init(&state, key, key.count)
        crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        crypto_auth_hmacsha256_final(&state, &tag)
        return tag
    }

    /// Whether `tag` is `message`'s tag under `key`, compared in constant time.
    package static func isValid(_ tag: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        let expected = Self.tag(message, key: key)
        return tag.count == expected.count && sodium_memcmp(tag, expected, expected.count) == 0
    }

    private static let sodiumReady = sodium_init() >= 0
}
