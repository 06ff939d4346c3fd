import CSodium

/// SHA-256 through libsodium's `crypto_hash_sha256`, for the journal's hash
/// chain and the host's public key pin (the hash `host_pin_sha256` names).
package enum SHA256 {
    /// The 32-byte digest of `parts`, one after another, as if they were one message.
    package static func digest(_ parts: [UInt8]...) -> [UInt8] {
        precondition(sodiumReady, "libsodium failed to initialise")
        var state = crypto_hash_sha256_state()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256_init(&state)
        for part in parts { crypto_hash_sha256_update(&state, part, UInt64(part.count)) }
        crypto_hash_sha256_final(&state, &digest)
        return digest
    }

    private static let sodiumReady = sodium_init() >= 0
}
