@testable import ProcessHarness
import Foundation
import TellerCore

/// A clock the test moves by hand.
final class FixedClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ date: Date) { current = date }

    func now() -> Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

enum Fixtures {
    static let eur = Currency.eur
    static func eur(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .eur) }
    static let account = try! IBAN("DE89370400440532013000")
    static let recipient = try! IBAN("GB29NWBK60161331926819")
    static let operatorID = OperatorID("1001")!
    /// Noon UTC on a fixed day, so "today" is unambiguous on a UTC wall clock.
    static let noon = Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 86_400) + 43_200)

    static var limits: Limits {
        try! Limits(currency: .eur, perTransaction: eur(100_000), dailyPerTerminal: eur(300_000),
                    perOfflineTransaction: eur(20_000), offlineQueuedTotal: eur(50_000), maxOfflineAge: 72 * 3600)
    }

    static func deposit(_ minor: Int64) -> TransactionRequest {
        try! TransactionRequest(kind: .deposit, account: account, amount: eur(minor), operatorID: operatorID)
    }

    static func withdrawal(_ minor: Int64) -> TransactionRequest {
        try! TransactionRequest(kind: .withdrawal, account: account, amount: eur(minor), operatorID: operatorID)
    }
}
