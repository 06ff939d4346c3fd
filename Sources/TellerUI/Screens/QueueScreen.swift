import TellerCore
import TellerFeatures
import Widgets

/// Every row of this terminal's outbox with its state; rejected rows carry
/// their reason and an Acknowledge button; Sync now wakes the engine. The
/// rows to act on come first (the view model orders them). When the rows
/// are taller than the screen, Top and Oldest under the list jump to either
/// end in one tap.
@MainActor
public struct QueueScreen: TerminalScreen {
    public static let syncNow = "queue.sync-now"
    public static let back = "queue.back"
    public static let list = "queue.list"
    /// Scrolls the list to its first row (shown only while the list scrolls).
    public static let top = "queue.top"
    /// Scrolls the list to its last row, the oldest.
    public static let bottom = "queue.bottom"

    /// `queue.row.<n>`, n counting from 0 in the order shown.
    public nonisolated static func row(_ index: Int) -> String { "queue.row.\(index)" }
    /// `queue.row.<n>.acknowledge`.
    public nonisolated static func acknowledge(_ index: Int) -> String { row(index) + ".acknowledge" }
    /// `queue.row.<n>.reprint`: the row's receipt again, marked COPY (with a printer; not on a row to acknowledge or a voided one).
    public nonisolated static func reprint(_ index: Int) -> String { row(index) + ".reprint" }

    public let model: QueueViewModel

    public init(model: QueueViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        var children: [any Widget] = [
            ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Self.back), title: model.title,
                               action: Button(model.syncNowTitle, identifier: Self.syncNow)),
            Label(model.summaryText, style: .body, color: .secondaryText, identifier: "queue.summary"),
        ]
        if case .failed(let text) = model.state {
            children.append(ScreenParts.message(text, isError: true, identifier: "queue.message"))
        } else if let printed = model.printMessage {
            children.append(ScreenParts.message(printed, isError: false, identifier: "queue.print-message"))
        }
        let rows = model.rows
        if rows.isEmpty {
            children.append(Label(model.emptyText, style: .body, color: .secondaryText, maxLines: 2, identifier: "queue.empty"))
            children.append(Spacer())
        } else {
            // Asked by index: the list builds the rows it shows, not a thousand on every tap.
            var acknowledgeLabels: [Int: String] = [:]
            var reprintLabels: [Int: String] = [:]
            for (index, row) in rows.enumerated() {
                if row.needsAcknowledgement {
                    acknowledgeLabels[index] = model.acknowledgeAccessibilityLabel(row)
                } else if row.canReprint {
                    reprintLabels[index] = model.reprintAccessibilityLabel(row)
                }
            }
            let source = QueueRows(rows: rows, acknowledgeTitle: model.acknowledgeTitle, acknowledgeLabels: acknowledgeLabels,
                                   reprintTitle: model.reprintTitle, reprintLabels: reprintLabels)
            children.append(List(identifier: Self.list, label: model.title, rows: ListRows(count: rows.count, from: source) { $0.row($1) },
                                 overflowControls: HStack(spacing: 12, [
                Spacer(),
                Button(model.toTopTitle, identifier: Self.top, accessibilityLabel: model.toTopAccessibilityLabel, style: .secondary),
                Button(model.toBottomTitle, identifier: Self.bottom, accessibilityLabel: model.toBottomAccessibilityLabel, style: .secondary),
            ])))
        }
        return VStack(spacing: 8, padding: .symmetric(horizontal: 12, vertical: 8), children)
    }

    nonisolated static func tone(_ tone: Tone) -> BadgeTone {
        switch tone {
        case .neutral: .neutral
        case .positive: .success
        case .attention: .warning
        case .negative: .danger
        }
    }
}

/// What the queue's list rows are made from: the view model's rows, which
/// it builds once per load, and the words of their Acknowledge and Reprint
/// buttons, translated while the screen was built. A row to acknowledge
/// shows Acknowledge (its one action); the others Reprint, with a printer.
private struct QueueRows: Equatable, Sendable {
    let rows: [QueueViewModel.Row]
    let acknowledgeTitle: String
    /// By row index, for the rows that need acknowledging.
    let acknowledgeLabels: [Int: String]
    let reprintTitle: String
    /// By row index, for the rows that offer a reprint.
    let reprintLabels: [Int: String]

    func row(_ index: Int) -> ListRow {
        let row = rows[index]
        let action: Button? = if row.needsAcknowledgement {
            Button(acknowledgeTitle, identifier: QueueScreen.acknowledge(index), accessibilityLabel: acknowledgeLabels[index])
        } else if let label = reprintLabels[index] {
            Button(reprintTitle, identifier: QueueScreen.reprint(index), accessibilityLabel: label, style: .secondary)
        } else {
            nil
        }
        return ListRow(identifier: QueueScreen.row(index), title: row.title, subtitle: row.detail,
                       badge: Badge(row.stateText, tone: QueueScreen.tone(row.tone)), action: action)
    }
}

extension QueueScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        switch identifier {
        case Self.syncNow: actions.perform { await model.syncNow() }
        case Self.back: model.back()
        case Self.top: actions.scroll(Self.list, to: .top)
        case Self.bottom: actions.scroll(Self.list, to: .bottom)
        default:
            for (index, row) in model.rows.enumerated() {
                if identifier == Self.acknowledge(index) {
                    guard row.needsAcknowledgement else { return false }
                    actions.perform { await model.acknowledge(row.key) }
                    return true
                }
                if identifier == Self.reprint(index) {
                    guard row.canReprint, !row.needsAcknowledgement else { return false }
                    actions.perform { await model.reprint(row.key) }
                    return true
                }
                if identifier == Self.row(index) { return true }
            }
            return false
        }
        return true
    }
}
