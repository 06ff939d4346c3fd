import CSodium
import FoundationEssentials

/// Seals small secrets the terminal must keep on disk (the refresh token)
/// under a key derived from the terminal secret, which in the field is a
/// systemd credential sealed to the board (`LoadCredentialEncrypted=`, TPM2
/// where there is one). The file alone, copied off the disk, reads as noise;
/// a terminal given another secret cannot open it and authenticates afresh.
///
/// libsodium's secretbox (XSalsa20-Poly1305) with a random nonce per write:
/// the file is `TLSB` 0x01, the 24-byte nonce, then the sealed bytes.
package struct SealedBox {
    private let key: [UInt8]
    private static let magic: [UInt8] = Array("TLSB".utf8) + [1]

    /// - Parameter purpose: separates keys for different files derived from one secret.
    package init(secret: String, purpose: String) {
        precondition(sodium_init() >= 0, "sodium_init failed")
        let input = Array("teller \(purpose) seal v1".utf8) + [0] + Array(secret.utf8)
        var key = [UInt8](repeating: 0, count: Int(crypto_secretbox_KEYBYTES))
        crypto_generichash(&key, key.count, input, UInt64(input.count), nil, 0)
        self.key = key
    }

    package func seal(_ plaintext: [UInt8]) -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: Int(crypto_secretbox_NONCEBYTES))
        randombytes_buf(&nonce, nonce.count)
        var sealed = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_secretbox_MACBYTES))
        crypto_secretbox_easy(&sealed, plaintext, UInt64(plaintext.count), nonce, key)
        return Self.magic + nonce + sealed
    }

    /// Whether `bytes` are in the sealed format (whatever key sealed them).
    package static func isSealed(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

    /// The plaintext, or nil when `bytes` are not sealed, were sealed under
    /// another key, or were changed.
    package func open(_ bytes: [UInt8]) -> [UInt8]? {
        let nonceCount = Int(crypto_secretbox_NONCEBYTES), macCount = Int(crypto_secretbox_MACBYTES)
        guard Self.isSealed(bytes), bytes.count >= Self.magic.count + nonceCount + macCount else { return nil }
        let nonce = Array(bytes[Self.magic.count..<(Self.magic.count + nonceCount)])
        let sealed = Array(bytes[(Self.magic.count + nonceCount)...])
        var plaintext = [UInt8](repeating: 0, count: sealed.count - macCount)
        guard crypto_secretbox_open_easy(&plaintext, sealed, UInt64(sealed.count), nonce, key) == 0 else { return nil }
        return plaintext
    }
}
