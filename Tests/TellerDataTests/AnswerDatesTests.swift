import Foundation
import Synchronization
import Testing
@testable import TellerData

/// The bank's `Date` header sets the trusted clock, and only an answer that
/// proved to be the bank's may set it. Two exchanges run at once on a
/// terminal (the drain's posting, the idle health probe, an account
/// lookup): each keeps the dates of its own answers, so a captive portal's
/// date heard by one cannot be credited to the bank's answer in another.
@Suite struct AnswerDatesTests {
    static let bank = Date(timeIntervalSince1970: 1_800_000_000)
    static let portal = Date(timeIntervalSince1970: 86_400)

    @Test func anExchangeCreditsOnlyItsOwnAnswersDate() async throws {
        let reachability = HostReachability()
        let heard = Mutex<[Date]>([])
        reachability.observeBankTime { date in heard.withLock { $0.append(date) } }
        let exchange = AnswerDates()
        let beside = AnswerDates()
        let portalArrived = AsyncStream<Void>.makeStream()
        let bankRead = AsyncStream<Void>.makeStream()
        // The other exchange: its answer (the portal's) arrives after the
        // bank's was received and before the bank's is proved and credited.
        let other = Task {
            await AnswerDates.$current.withValue(beside) {
                for await _ in bankRead.stream { break }
                AnswerDates.current?.received(Self.portal)
                portalArrived.continuation.finish()
            }
        }
        await AnswerDates.$current.withValue(exchange) {
            AnswerDates.current?.received(Self.bank)
            bankRead.continuation.finish()
            for await _ in portalArrived.stream {}
        }
        await other.value
        // The portal's body was not the contract's: its exchange credits nothing.
        reachability.noteBankAnswer(date: exchange.latest)
        #expect(heard.withLock { $0 } == [Self.bank])
        #expect(beside.latest == Self.portal)
    }

    @Test func anAnswerWithoutADateLeavesTheClockAlone() {
        let reachability = HostReachability()
        let heard = Mutex<[Date]>([])
        reachability.observeBankTime { date in heard.withLock { $0.append(date) } }
        reachability.noteBankAnswer(date: nil)
        #expect(heard.withLock { $0 }.isEmpty)
        #expect(reachability.isOnline)
    }
}
