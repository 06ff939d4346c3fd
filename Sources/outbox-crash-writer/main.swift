// outbox-crash-writer: the child process of the outbox crash test.
//
// Enqueues deposits into <data-dir>/teller.db as fast as it can and prints
// "<id> <idempotency-key> <payload-hex>" for each row only after enqueue has
// returned, i.e. after the commit reached the disk. The test SIGKILLs it at
// random moments and checks that every printed row survived intact.
import SystemCalls
import Glibc
import TellerCore
import TellerData

/// Writes `text` straight to `stream`'s descriptor, unbuffered: a line the test
/// reads must be one whose commit already returned, and none may wait in a
/// buffer when the kill comes. (C's `stdout` and `stderr` are globals Swift 6
/// refuses to touch.)
func writeAll(_ text: String, to stream: StandardStream) {
    // The test has gone away: nobody will read what follows.
    do { try stream.writeAll(Array(text.utf8)) } catch { exit(1) }
}

guard CommandLine.arguments.count == 2 else {
    writeAll("usage: outbox-crash-writer DATA_DIR\n", to: .error)
    exit(2)
}
let eur = Currency.eur
let huge = Money(minorUnits: 1 << 60, currency: eur)
let limits = try Limits(currency: eur, perTransaction: huge, dailyPerTerminal: huge, perOfflineTransaction: huge, offlineQueuedTotal: huge, maxOfflineAge: 1e9)
let store = try TellerStore(dataDirectory: CommandLine.arguments[1], limits: limits)
let account = try IBAN("DE89370400440532013000")
let operatorID = OperatorID("1001")!
var amount: Int64 = 1
while true {
    let request = try TransactionRequest(kind: .deposit, account: account, amount: Money(minorUnits: amount, currency: eur), operatorID: operatorID)
    let entry = try await store.enqueue(request)
    let payload = try await store.frozenPayload(for: entry.key) ?? []
    writeAll("\(entry.id) \(entry.key.rawValue) \(payload.map { $0.zeroPadded(2, radix: 16) }.joined())\n", to: .output)
    amount += 1
}
