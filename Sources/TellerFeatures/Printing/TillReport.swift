import TellerCore

/// The till report printed at the end of a drawer session: the float and
/// the closing count by denomination, the cash that moved, expected against
/// counted, over or short, and who approved a difference. Written by the
/// functions the till screen uses, so paper and screen agree.
public enum TillReport {
    /// - Parameter staff: The members of staff whose names the terminal
    ///   knows: the operator and the approving supervisor print by name and
    ///   number when they are among them, else by staff number.
    public static func document(for till: TillSession, header: PaymentReceipt.Header, staff: [Operator] = [], time: TimeFormatting) -> PrintedDocument {
        func named(_ id: OperatorID) -> String { StaffText.text(id, known: staff.first { $0.id == id }) }
        var lines: [PrintedDocument.Line] = []
        if !header.bankName.isEmpty { lines.append(.heading(Localization.verbatim(header.bankName))) }
        if !header.terminal.branch.isEmpty {
            lines.append(.text(Localization.verbatim(header.terminal.branch), alignment: .center, emphasis: .regular))
        }
        if let terminalID = header.terminal.terminalID {
            lines.append(.row(label: tr("Terminal"), value: Localization.leftToRight(terminalID), emphasis: .regular))
        }
        lines.append(.separator)
        lines.append(.heading(tr("Till report")))
        lines.append(.row(label: tr("Till"), value: Localization.digits(String(till.id)), emphasis: .regular))
        lines.append(.row(label: tr("Operator"), value: named(till.operatorID), emphasis: .regular))
        lines.append(.row(label: tr("Opened"), value: time.dateAndClock(till.openedAt), emphasis: .regular))
        if let closing = till.closing {
            lines.append(.row(label: tr("Closed"), value: time.dateAndClock(closing.closedAt), emphasis: .regular))
        }
        lines.append(.separator)
        lines.append(.row(label: tr("Float"), value: MoneyFormatting.text(till.opening.total), emphasis: .strong))
        lines += counted(till.opening)
        lines.append(.row(label: tr("Cash in"), value: MoneyFormatting.text(till.cashIn), emphasis: .regular))
        lines.append(.row(label: tr("Cash out"), value: MoneyFormatting.text(till.cashOut), emphasis: .regular))
        lines.append(.row(label: tr("Cash payments"), value: Localization.digits(String(till.cashPayments)), emphasis: .regular))
        let exceptions = TillViewModel.exceptionLines(of: till)
        if !exceptions.isEmpty {
            lines.append(.separator)
            for line in exceptions {
                lines.append(.row(label: line.label, value: line.value, emphasis: line.isHeading ? .strong : .regular))
                if let reason = line.reason { lines.append(.text(reason, alignment: .leading, emphasis: .regular)) }
            }
        }
        lines.append(.separator)
        guard let closing = till.closing else {
            lines.append(.row(label: tr("Cash position"), value: MoneyFormatting.text(till.position), emphasis: .large))
            lines.append(.text(tr("The till is still open."), alignment: .leading, emphasis: .strong))
            return PrintedDocument(lines: lines)
        }
        lines.append(.row(label: tr("Expected"), value: MoneyFormatting.text(closing.expected), emphasis: .strong))
        lines.append(.row(label: tr("Counted"), value: MoneyFormatting.text(closing.counted.total), emphasis: .strong))
        lines += counted(closing.counted)
        let difference = Money(minorUnits: abs(closing.overShort.minorUnits), currency: closing.overShort.currency)
        lines.append(.row(label: TillViewModel.overShortLabel(closing.overShort), value: MoneyFormatting.text(difference), emphasis: .large))
        if let supervisor = closing.approvedBy {
            lines.append(.row(label: tr("Approved by"), value: named(supervisor), emphasis: .regular))
        }
        lines.append(.blank)
        lines.append(.row(label: tr("Operator's signature"), value: "", emphasis: .regular))
        lines.append(.blank)
        lines.append(.separator)
        return PrintedDocument(lines: lines)
    }

    /// "50.00 × 4 = 200.00" for each denomination counted.
    private static func counted(_ count: TillCount) -> [PrintedDocument.Line] {
        count.pieces.keys.sorted(by: >).map { denomination in
            let pieces = count.pieces[denomination] ?? 0
            let figure = MoneyFormatting.figure(Money(minorUnits: denomination, currency: count.currency))
            return .row(label: tr("{denomination} × {pieces}", ["denomination": figure, "pieces": Localization.digits(String(pieces))]),
                        value: MoneyFormatting.text(Money(minorUnits: denomination * Int64(pieces), currency: count.currency)), emphasis: .regular)
        }
    }
}
