import TellerCore

/// The customer's printed receipt of one payment: who took it where and
/// when, what moved, and whether the bank has it yet.
///
/// Every value is written by the functions the receipt screen uses
/// (``AccountViewModel``'s kind titles, `IBAN.displayed()`,
/// ``MoneyFormatting``, ``TimeFormatting``, the receipt number of the
/// idempotency key), so paper and screen agree.
public enum PaymentReceipt {
    /// What heads every slip of this terminal.
    public struct Header: Hashable, Sendable {
        /// The bank's name, as the customer knows it; empty prints none.
        public var bankName: String
        /// The branch and the terminal's id.
        public var terminal: TerminalIdentity

        public init(bankName: String, terminal: TerminalIdentity) {
            self.bankName = bankName
            self.terminal = terminal
        }
    }

    /// The receipt of `entry` in the terminal's current language and regional format.
    /// - Parameters:
    ///   - entry: The outbox row, in the state it is in when the slip
    ///     prints: confirmed when the bank answered within `receipt_wait_s`,
    ///     queued when it had not or the terminal was offline; a reprint
    ///     says what it is by then (docs/qa.md, "What a receipt says").
    ///   - staff: The members of staff whose names the terminal knows
    ///     (``OperatorSessionPort/knownOperator(_:)``): the operator and the
    ///     approving supervisor print by name and number when they are among
    ///     them, else by the staff number the row records.
    ///   - time: The terminal's wall clock and format.
    public static func document(for entry: OutboxEntry, header: Header, staff: [Operator], time: TimeFormatting) -> PrintedDocument {
        let request = entry.request
        let status = ReceiptViewModel.Status(entry.state)
        var lines: [PrintedDocument.Line] = []
        // A void slip says so before anything else, white on black.
        if case .voided = status { lines += [.mark(status.title), .blank] }
        if !header.bankName.isEmpty { lines.append(.heading(Localization.verbatim(header.bankName))) }
        if !header.terminal.branch.isEmpty {
            lines.append(.text(Localization.verbatim(header.terminal.branch), alignment: .center, emphasis: .regular))
        }
        if let terminalID = header.terminal.terminalID {
            lines.append(.row(label: tr("Terminal"), value: Localization.leftToRight(terminalID), emphasis: .regular))
        }
        lines.append(.row(label: tr("Date"), value: time.dateAndClock(entry.createdAt), emphasis: .regular))
        lines.append(.separator)

        lines.append(.heading(AccountViewModel.kindTitle(request.kind)))
        lines.append(.row(label: request.kind == .transfer ? tr("From") : tr("Account"), value: request.account.displayed(), emphasis: .regular))
        if let counterparty = request.counterparty {
            lines.append(.row(label: tr("To"), value: counterparty.displayed(), emphasis: .regular))
        }
        lines.append(.row(label: tr("Amount"), value: MoneyFormatting.text(request.amount), emphasis: .large))
        func named(_ id: OperatorID) -> String { StaffText.text(id, known: staff.first { $0.id == id }) }
        lines.append(.row(label: tr("Operator"), value: named(request.operatorID), emphasis: .regular))
        if let supervisor = request.approvedBy {
            lines.append(.row(label: tr("Approved by"), value: named(supervisor), emphasis: .regular))
        }
        lines.append(.separator)

        lines.append(.row(label: tr("Status"), value: status.title, emphasis: .strong))
        switch status {
        case .queued:
            // Said as what happens, not as a fault: most Queued slips are printed online,
            // when the bank simply had not answered within receipt_wait_s.
            lines.append(.text(tr("Saved safely on this terminal and sent to the bank automatically. Nothing more needs to be done; keep this receipt."),
                               alignment: .leading, emphasis: .regular))
        case .confirmed(let reference):
            lines.append(.row(label: tr("Bank reference"), value: Localization.leftToRight(reference), emphasis: .regular))
        case .rejected, .voided:
            lines.append(.text(status.detail, alignment: .leading, emphasis: .regular))
        }
        lines.append(.row(label: tr("Receipt"), value: Localization.leftToRight(entry.key.receiptNumber), emphasis: .strong))
        lines.append(.row(label: tr("Transaction key"), value: Localization.leftToRight(entry.key.rawValue), emphasis: .regular))
        let summary = switch status {
        case .queued: "queued"
        case .confirmed(let reference): "confirmed \(reference)"
        case .rejected: "rejected"
        case .voided: "voided"
        }
        return PrintedDocument(lines: lines, logSummary: summary)
    }
}
