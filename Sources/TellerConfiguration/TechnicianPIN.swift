import Cryptography

/// The technician PIN as `teller hash-pin` and `teller config set
/// --technician-pin-stdin` take it: 4 to 12 digits on standard input, never
/// on a command line, stored only as an Argon2id verifier in
/// `technician_pin_hash`.
public enum TechnicianPIN: Sendable {
    public static let key = "technician_pin_hash"

    public static func isValid(_ pin: String) -> Bool {
        (4...12).contains(pin.count) && pin.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The verifier to store for `pin`: `current` itself when it already
    /// verifies `pin`, so provisioning the same PIN again writes nothing
    /// (a new verifier would differ by its random salt); otherwise a new one.
    /// - Parameters:
    ///   - pin: a PIN that ``isValid(_:)``.
    ///   - current: the verifier the file holds now, if any; a malformed one never matches.
    public static func verifier(for pin: String, keeping current: String?, hasher: PINHasher = .interactive) throws(PINHashError) -> String {
        if let current, hasher.matches(pin, verifier: current) { return current }
        return try hasher.verifier(for: pin)
    }
}
