import FoundationEssentials
import Testing
import TellerCore
import TellerFeatures

/// The printed receipt's content, line by line: the same values as the
/// receipt screen, in the regional format, honest about where the money is.
@Suite struct PaymentReceiptTests {
    static let at = try! Date("2026-11-29T14:05:00Z", strategy: .iso8601)
    static let key = IdempotencyKey(rawValue: "3f2a9c4e-0b1d-4e8f-9a7b-5c6d7e8f9a0b")!
    static let anna = Operator(id: OperatorID("1001")!, displayName: "Anna Berger")
    static let header = PaymentReceipt.Header(bankName: "Musterbank", terminal: TerminalIdentity(terminalID: "T-0001", branch: "Berlin Mitte"))

    static func entry(_ kind: TransactionKind, _ state: OutboxState, operatorID: String = "1001") throws -> OutboxEntry {
        let request = try TransactionRequest(
            kind: kind, account: try IBAN("DE89370400440532013000"),
            counterparty: kind == .transfer ? try IBAN("DE54500105170426397158") : nil,
            amount: Money(minorUnits: 1_248_025, currency: .eur), operatorID: OperatorID(operatorID)!)
        return OutboxEntry(id: 7, key: key, request: request, createdAt: at, state: state)
    }

    static func document(_ entry: OutboxEntry, operator op: Operator? = anna) -> PrintedDocument {
        PaymentReceipt.document(for: entry, header: header, staff: op.map { [$0] } ?? [], time: TimeFormatting(zone: .fixed(secondsEastOfUTC: 3600)))
    }

    @Test func aQueuedDepositSaysItIsNotYetAtTheBank() throws {
        let document = Self.document(try Self.entry(.deposit, .queued))
        #expect(document.lines == [
            .heading("Musterbank"),
            .text("Berlin Mitte", alignment: .center, emphasis: .regular),
            .row(label: "Terminal", value: "T-0001", emphasis: .regular),
            .row(label: "Date", value: "29 Nov 2026 15:05", emphasis: .regular),
            .separator,
            .heading("Deposit"),
            .row(label: "Account", value: "DE89 3704 0044 0532 0130 00", emphasis: .regular),
            .row(label: "Amount", value: "12,480.25 EUR", emphasis: .large),
            .row(label: "Operator", value: "Anna Berger (1001)", emphasis: .regular),
            .separator,
            .row(label: "Status", value: "Queued", emphasis: .strong),
            .text("Saved safely on this terminal and sent to the bank automatically. Nothing more needs to be done; keep this receipt.", alignment: .leading, emphasis: .regular),
            .row(label: "Receipt", value: "3F2A9C4E", emphasis: .strong),
            .row(label: "Transaction key", value: "3f2a9c4e-0b1d-4e8f-9a7b-5c6d7e8f9a0b", emphasis: .regular),
        ])
        #expect(!document.isCopy && !document.isRightToLeft)
    }

    /// A row still sending, or waiting for review, has no answer from the bank either.
    @Test(arguments: [OutboxState.sending, .needsReview(reason: "mismatch", acknowledged: false)])
    func aRowWithoutTheBanksAnswerReadsQueued(_ state: OutboxState) throws {
        let lines = Self.document(try Self.entry(.deposit, state)).lines
        #expect(lines.contains(.row(label: "Status", value: "Queued", emphasis: .strong)))
        #expect(!lines.contains { if case .row("Bank reference", _, _) = $0 { true } else { false } })
    }

    @Test func aConfirmedTransferNamesBothAccountsAndTheBanksReference() throws {
        let lines = Self.document(try Self.entry(.transfer, .confirmed(reference: "HX-20261129-0042"))).lines
        #expect(lines.contains(.heading("Transfer")))
        #expect(lines.contains(.row(label: "From", value: "DE89 3704 0044 0532 0130 00", emphasis: .regular)))
        #expect(lines.contains(.row(label: "To", value: "DE54 5001 0517 0426 3971 58", emphasis: .regular)))
        #expect(lines.contains(.row(label: "Status", value: "Confirmed", emphasis: .strong)))
        #expect(lines.contains(.row(label: "Bank reference", value: "HX-20261129-0042", emphasis: .regular)))
        #expect(!lines.contains { if case .text(let text, _, _) = $0 { text.hasPrefix("Not yet") } else { false } })
    }

    /// The approving supervisor reads as the operator does: by name where the
    /// terminal knows it, else by staff number, never a bare number beside a name.
    @Test func theApprovingSupervisorPrintsByNameWhereTheTerminalKnowsIt() throws {
        let jonas = Operator(id: OperatorID("2001")!, displayName: "Jonas Weber")
        let base = try Self.entry(.deposit, .confirmed(reference: "H1"))
        let request = try base.request.approved(by: jonas.id)
        let entry = OutboxEntry(id: base.id, key: base.key, request: request, createdAt: base.createdAt, state: base.state)
        let time = TimeFormatting(zone: .fixed(secondsEastOfUTC: 3600))
        let named = PaymentReceipt.document(for: entry, header: Self.header, staff: [Self.anna, jonas], time: time).lines
        #expect(named.contains(.row(label: "Operator", value: "Anna Berger (1001)", emphasis: .regular)))
        #expect(named.contains(.row(label: "Approved by", value: "Jonas Weber (2001)", emphasis: .regular)))
        let numbered = PaymentReceipt.document(for: entry, header: Self.header, staff: [Self.anna], time: time).lines
        #expect(numbered.contains(.row(label: "Approved by", value: "2001", emphasis: .regular)))
    }

    @Test func aRejectedPaymentSaysTheMoneyDidNotMove() throws {
        let lines = Self.document(try Self.entry(.withdrawal, .rejected(reason: "insufficient_funds", acknowledged: false))).lines
        #expect(lines.contains(.row(label: "Status", value: "Rejected", emphasis: .strong)))
        let said = lines.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }
        #expect(said.contains { $0.hasPrefix("The bank refused it: ") && $0.hasSuffix("The customer's money did not move.") }, "\(said)")
    }

    /// The name is the signed-in operator's only when they took the payment.
    @Test func anotherOperatorsPaymentPrintsTheStaffNumberItRecords() throws {
        let lines = Self.document(try Self.entry(.deposit, .queued, operatorID: "2002")).lines
        #expect(lines.contains(.row(label: "Operator", value: "2002", emphasis: .regular)))
        #expect(!lines.contains { if case .row(_, let value, _) = $0 { value.contains("Anna") } else { false } })
    }

    @Test func aCopyIsMarkedAtItsTopAndBottomOnce() throws {
        let original = Self.document(try Self.entry(.deposit, .queued))
        let copy = original.markedAsCopy()
        #expect(copy.isCopy)
        #expect(copy.lines.first == .mark("COPY") && copy.lines.last == .mark("COPY"))
        #expect(Array(copy.lines.dropFirst(2).dropLast(2)) == original.lines)
        #expect(copy.markedAsCopy() == copy)
    }

    @Test func theRegionalFormatWritesTheDateAndAmountAndArabicReadsRightToLeft() throws {
        let entry = try Self.entry(.deposit, .queued)
        let german = Localization.with(RegionalFormat(language: .german, currencyDisplay: .symbol)) { Self.document(entry) }
        #expect(german.lines.contains(.row(label: "Date", value: "29.11.2026 15:05", emphasis: .regular)))
        #expect(german.lines.contains(.row(label: "Amount", value: "12.480,25 €", emphasis: .large)))
        #expect(!german.isRightToLeft)
        let arabic = Localization.with(RegionalFormat(language: .arabic, currencyDisplay: .symbol, digits: .native)) { Self.document(entry) }
        #expect(arabic.isRightToLeft)
        #expect(arabic.lines.contains(.row(label: "Date", value: "\u{2066}٢٩/١١/٢٠٢٦ ١٥:٠٥\u{2069}", emphasis: .regular)))
        #expect(arabic.lines.contains(.row(label: "Amount", value: "\u{2066}١٢٬٤٨٠٫٢٥ €\u{2069}", emphasis: .large)))
        // Identifiers stay Latin and isolated left to right.
        #expect(arabic.lines.contains(.row(label: "Receipt", value: "\u{2066}3F2A9C4E\u{2069}", emphasis: .strong)))
    }

    @Test func dateAndClockAlwaysCarriesTheYear() {
        let english = TimeFormatting(zone: .utc, format: .standard)
        #expect(english.dateAndClock(Self.at) == "29 Nov 2026 14:05")
        // The screens' form drops the date today; the printed one never does.
        #expect(english.dayAndClock(Self.at, now: Self.at) == "14:05")
        #expect(TimeFormatting(zone: .utc, format: RegionalFormat(language: .spanish)).dateAndClock(Self.at) == "29/11/2026 14:05")
    }
}
