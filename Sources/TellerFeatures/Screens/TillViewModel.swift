import FoundationEssentials
import Observation
import TellerCore

/// The operator's till: open it with a count by denomination, watch the
/// cash position, close it with a count and see expected, counted and over
/// or short. A close beyond the tolerance calls a supervisor
/// (``ApprovalSubject/tillClose(_:overShort:)``).
@MainActor @Observable
public final class TillViewModel {
    public enum Phase: Hashable, Sendable {
        case loading
        /// No till open: counting the float.
        case opening
        /// The till is open; its position shows.
        case open(TillSession)
        /// Counting the drawer to close it.
        case closing(TillSession)
        /// Closed: the result.
        case closed(TillSession)
        case failed(String)
    }

    /// One denomination's line of the count.
    public struct CountLine: Hashable, Sendable {
        public let denomination: Int64
        /// "50.00 EUR × 2": the denomination and its pieces, on its tile.
        public let title: String
        public let denominationText: String
        public let pieces: String
        public let total: String
        public let isNote: Bool
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public private(set) var phase: Phase = .loading
    public private(set) var count: TillCount
    /// The denomination the keypad types into.
    public private(set) var selected: Int64
    /// What is typed for the selected denomination.
    private var entry = KeypadEntry(maximumLength: String(TillCount.maximumPieces).count)
    public private(set) var refusal: String?
    /// Set when the last close was refused for its difference: the supervisor can approve it.
    public private(set) var approvalNeeded: Money?
    public private(set) var isWorking = false
    /// The supervisor who approved the close's difference, as their approval named them.
    private let approver: Operator?

    init(dependencies: FeatureDependencies, navigator: any Navigator, closed: TillSession? = nil, approver: Operator? = nil) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.approver = approver
        let table = Self.table(dependencies)
        count = TillCount(currency: table.currency)
        selected = table.denominations[0]
        if let closed { phase = .closed(closed) }
    }

    private static func table(_ dependencies: FeatureDependencies) -> DenominationTable {
        dependencies.till?.denominations ?? TillSettings.standard(for: dependencies.terminalCurrency).denominations
    }

    public var denominations: DenominationTable { Self.table(dependencies) }

    public var title: String {
        switch phase {
        case .loading, .failed: tr("Till")
        case .opening: tr("Open till")
        case .open: tr("Till")
        case .closing: tr("Close till")
        case .closed: tr("Till closed")
        }
    }

    public var backTitle: String { tr("Back") }
    public var keypad: KeypadText { KeypadText(name: tr("Number pad"), enterTitle: tr("Next")) }
    public var isCounting: Bool {
        switch phase {
        case .opening, .closing: true
        default: false
        }
    }

    public var instructions: String {
        switch phase {
        case .opening: tr("Count the float: the pieces of each note and coin. Enter moves to the next.")
        case .closing: tr("Count the drawer: the pieces of each note and coin. The expected cash shows after the count.")
        default: ""
        }
    }

    public var countLines: [CountLine] {
        denominations.denominations.map { denomination in
            let pieces = denomination == selected && isCounting ? entry.digits : String(count.pieces[denomination] ?? 0)
            let value = Money(minorUnits: denomination * Int64(count.pieces[denomination] ?? 0), currency: count.currency)
            let denominationText = MoneyFormatting.text(Money(minorUnits: denomination, currency: count.currency))
            let piecesText = Localization.digits(pieces.isEmpty ? "0" : pieces)
            let figure = MoneyFormatting.figure(Money(minorUnits: denomination, currency: count.currency))
            return CountLine(denomination: denomination, title: tr("{denomination} × {pieces}", ["denomination": figure, "pieces": piecesText]),
                             denominationText: denominationText, pieces: piecesText, total: MoneyFormatting.text(value),
                             isNote: denominations.isNote(denomination))
        }
    }

    public var countTotalText: String { tr("Counted: {amount}", ["amount": MoneyFormatting.text(count.total)]) }

    /// Label and value pairs of the position (open) or the result (closed).
    public var summary: [(label: String, value: String)] {
        switch phase {
        case .open(let till), .closing(let till):
            return [(tr("Opened"), dependencies.time.dateAndClock(till.openedAt)),
                    (tr("Float"), MoneyFormatting.text(till.opening.total)),
                    (tr("Cash in"), MoneyFormatting.text(till.cashIn)),
                    (tr("Cash out"), MoneyFormatting.text(till.cashOut)),
                    (tr("Cash payments"), Localization.digits(String(till.cashPayments))),
                    (tr("Cash position"), MoneyFormatting.text(till.position))]
        case .closed(let till):
            guard let closing = till.closing else { return [] }
            var lines = [(tr("Closed"), dependencies.time.dateAndClock(closing.closedAt)),
                         (tr("Expected"), MoneyFormatting.text(closing.expected)),
                         (tr("Counted"), MoneyFormatting.text(closing.counted.total)),
                         (Self.overShortLabel(closing.overShort),
                          MoneyFormatting.text(Money(minorUnits: abs(closing.overShort.minorUnits), currency: closing.overShort.currency)))]
            if let supervisor = closing.approvedBy { lines.append((tr("Approved by"), StaffText.text(supervisor, known: approver))) }
            return lines
        default:
            return []
        }
    }

    /// One row of the till's exceptions: a heading (Voided, To settle with
    /// the bank) with how many, or one payment (its kind and receipt number)
    /// with its amount and why it is listed.
    public struct ExceptionLine: Hashable, Sendable {
        public let label: String
        public let value: String
        /// Why the payment is listed (the void's reason, the bank's); nil on a heading.
        public let reason: String?
        public var isHeading: Bool { reason == nil }
    }

    /// The till's cash payments the bank will not post as they stand, for
    /// the screen's second card and the report: a heading for the voided and
    /// for those to settle with the bank, then one row per payment (its
    /// kind, receipt number and why) with its amount. Empty when there are none.
    public var exceptions: [ExceptionLine] {
        switch phase {
        case .open(let till), .closing(let till), .closed(let till): Self.exceptionLines(of: till)
        default: []
        }
    }

    /// ``exceptions`` of `till`, written once for the screen and the paper.
    nonisolated static func exceptionLines(of till: TillSession) -> [ExceptionLine] {
        func rows(_ heading: String, _ payments: [OutboxEntry]) -> [ExceptionLine] {
            guard !payments.isEmpty else { return [] }
            return [ExceptionLine(label: heading, value: Localization.digits(String(payments.count)), reason: nil)] + payments.map { entry in
                let why = switch entry.state {
                case .voided(let reason): ReceiptViewModel.reasonTitle(reason)
                case .rejected(let reason, _): ReasonText.text(reason)
                case .needsReview: tr("Under review with the bank")
                case .queued, .sending, .confirmed: ""
                }
                return ExceptionLine(label: tr("{kind} {receipt}", ["kind": AccountViewModel.kindTitle(entry.request.kind),
                                                                     "receipt": Localization.leftToRight(entry.key.receiptNumber)]),
                                     value: MoneyFormatting.text(entry.request.amount), reason: why)
            }
        }
        return rows(tr("Voided"), till.voided) + rows(tr("To settle with the bank"), till.toSettle)
    }

    nonisolated static func overShortLabel(_ difference: Money) -> String {
        difference.minorUnits > 0 ? tr("Over") : difference.minorUnits < 0 ? tr("Short") : tr("Balanced")
    }

    public var openTitle: String { tr("Open till") }
    public var startCloseTitle: String { tr("Close till") }
    public var closeTitle: String { tr("Count and close") }
    public var supervisorTitle: String { tr("Call supervisor") }
    public var doneTitle: String { tr("Done") }
    public var printTitle: String { tr("Print report") }
    /// A printer is configured: the closed till's report can be printed.
    public var canPrint: Bool { dependencies.printQueue != nil }
    /// What the last print request came to; nil before any.
    public private(set) var printMessage: String?
    public var failureText: String? {
        if case .failed(let text) = phase { return text }
        return nil
    }

    public func load() async {
        guard let till = dependencies.till, let signedIn = navigator?.signedInOperator else {
            phase = .failed(tr("This terminal keeps no tills."))
            return
        }
        if case .closed = phase { return }
        do throws(TellerError) {
            phase = try await till.openTill(of: signedIn.id).map { .open($0) } ?? .opening
        } catch {
            phase = .failed(ErrorText.text(error))
        }
    }

    // MARK: Counting

    /// The keypad types into `denomination`'s pieces.
    public func select(_ denomination: Int64) {
        guard isCounting, denominations.denominations.contains(denomination) else { return }
        commitEntry()
        selected = denomination
        entry.clear()
    }

    public func press(digit: Character) {
        guard isCounting else { return }
        entry.append(digit)
        commitEntry()
    }

    public func backspace() {
        guard isCounting else { return }
        entry.backspace()
        commitEntry()
    }

    /// Enter: the next denomination (the last one stays).
    public func next() {
        let all = denominations.denominations
        guard let index = all.firstIndex(of: selected), index + 1 < all.count else { return }
        select(all[index + 1])
    }

    private func commitEntry() {
        try? count.set(Int(entry.digits) ?? 0, of: selected, in: denominations)
        approvalNeeded = nil
        refusal = nil
    }

    // MARK: Actions

    public func open() async {
        guard case .opening = phase else { return }
        await act { till, signedIn throws(TellerError) in
            .open(try await till.open(by: signedIn.id, count: self.count))
        }
    }

    public func startClose() {
        guard case .open(let till) = phase else { return }
        count = TillCount(currency: till.currency)
        selected = denominations.denominations[0]
        entry.clear()
        phase = .closing(till)
    }

    public func close() async {
        guard case .closing = phase else { return }
        await act { till, signedIn throws(TellerError) in
            .closed(try await till.close(by: signedIn.id, count: self.count, approvedBy: nil))
        }
    }

    /// Queues the till report; it prints when the printer can.
    public func printReport() async {
        guard case .closed(let till) = phase, let queue = dependencies.printQueue, let signedIn = navigator?.signedInOperator else { return }
        do throws(TellerError) {
            _ = try await queue.queueTillReport(tillID: till.id, by: signedIn.id)
            await navigator?.printQueueChanged()
            printMessage = tr("The till report is on its way to the printer.")
        } catch {
            printMessage = tr("Could not queue the till report: {problem}", ["problem": ErrorText.text(error)])
        }
    }

    /// A supervisor approves the close with this count.
    public func callSupervisor() {
        guard let difference = approvalNeeded else { return }
        navigator?.push(.approval(.tillClose(count, overShort: difference)))
    }

    public func back() {
        if case .closing(let till) = phase {
            phase = .open(till)
            refusal = nil
            approvalNeeded = nil
            return
        }
        navigator?.pop()
    }

    private func act(_ body: @escaping @MainActor (any TillPort, Operator) async throws(TellerError) -> Phase) async {
        guard !isWorking, let till = dependencies.till, let signedIn = navigator?.signedInOperator else { return }
        isWorking = true
        refusal = nil
        do throws(TellerError) {
            phase = try await body(till, signedIn)
            navigator?.outboxChanged()
        } catch {
            if case .till(.needsApproval(let difference, _)) = error { approvalNeeded = difference }
            refusal = ErrorText.text(error)
        }
        isWorking = false
    }
}

extension TillViewModel: ScreenViewModel {
    public var screenName: String { "till" }
    public var screenKind: ScreenKind { .till(self) }
    public func appeared() async { await load() }
}
