import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerData
import Cryptography

/// `teller hash-pin`: reads a technician PIN from stdin and prints the
/// Argon2id hash for `technician_pin_hash`, so the PIN itself is never stored.
public enum HashPINCommand {
    public static func run(_ arguments: [String]) -> Int32 {
        guard arguments.isEmpty else {
            Log.error("usage: echo PIN | teller hash-pin")
            return 2
        }
        guard let line = readLine(strippingNewline: true), TechnicianPIN.isValid(line) else {
            Log.error("teller hash-pin: a technician PIN is 4 to 12 digits, given on standard input")
            return 2
        }
        do {
            print(try PINHasher.interactive.verifier(for: line))
            return 0
        } catch {
            Log.error("teller hash-pin: \(error)")
            return 1
        }
    }
}
