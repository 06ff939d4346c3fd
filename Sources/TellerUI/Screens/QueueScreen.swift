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
    public enum Control: RawRepresentable {
        case syncNow, back
        /// Scrolls the list to its first row (shown only while the list scrolls).
        case top
        /// Scrolls the list to its last row, the oldest.
        case bottom
        /// `queue.row.<n>`, n counting from 0 in the order shown: it takes the tap and does nothing.
        case row(Int)
        /// `queue.row.<n>.acknowledge`.
        case acknowledge(Int)
        /// `queue.row.<n>.reprint`: the row's receipt again, marked COPY (with a printer; not on a row to acknowledge or a voided one).
        case reprint(Int)

        public static let list = "queue.list"
        static let rows = "queue.row"

        public var rawValue: String {
            switch self {
            case .syncNow: "queue.sync-now"
            case .back: "queue.back"
            case .top: "queue.top"
            case .bottom: "queue.bottom"
            case .row(let index): "\(Self.rows).\(index)"
            case .acknowledge(let index): "\(Self.rows).\(index).acknowledge"
            case .reprint(let index): "\(Self.rows).\(index).reprint"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.syncNow, .back, .top, .bottom].first(where: { $0.rawValue == rawValue }) {
                self = fixed
                return
            }
            guard let member = rawValue.member(of: Self.rows) else { return nil }
            let parts = member.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard let index = Int(parts[0]) else { return nil }
            switch parts.count == 1 ? nil : String(parts[1]) {
            case nil: self = .row(index)
            case "acknowledge"?: self = .acknowledge(index)
            case "reprint"?: self = .reprint(index)
            default: return nil
            }
        }
    }

    public let model: QueueViewModel

    public init(model: QueueViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        var children: [any Widget] = [
            ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue), title: model.title,
                               action: button(model.syncNowTitle, .syncNow)),
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
            children.append(List(identifier: Control.list, label: model.title, rows: ListRows(count: rows.count, from: source) { $0.row($1) },
                                 overflowControls: HStack(spacing: Theme.Spacing.medium, [
                Spacer(),
                button(model.toTopTitle, .top, accessibilityLabel: model.toTopAccessibilityLabel, style: .secondary),
                button(model.toBottomTitle, .bottom, accessibilityLabel: model.toBottomAccessibilityLabel, style: .secondary),
            ])))
        }
        return VStack(spacing: Theme.Spacing.small, padding: .symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.small), children)
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
            Button(acknowledgeTitle, identifier: QueueScreen.Control.acknowledge(index).rawValue, accessibilityLabel: acknowledgeLabels[index])
        } else if let label = reprintLabels[index] {
            Button(reprintTitle, identifier: QueueScreen.Control.reprint(index).rawValue, accessibilityLabel: label, style: .secondary)
        } else {
            nil
        }
        return ListRow(identifier: QueueScreen.Control.row(index).rawValue, title: row.title, subtitle: row.detail,
                       badge: Badge(row.stateText, tone: QueueScreen.tone(row.tone)), action: action)
    }
}

extension QueueScreen {
    /// A row's control only while the row is shown; Acknowledge on a row
    /// that needs it, Reprint on one that can be reprinted and needs no acknowledging.
    public func isEnabled(_ control: Control) -> Bool {
        let rows = model.rows
        switch control {
        case .syncNow, .back, .top, .bottom: return true
        case .row(let index): return rows.indices.contains(index)
        case .acknowledge(let index): return rows.indices.contains(index) && rows[index].needsAcknowledgement
        case .reprint(let index): return rows.indices.contains(index) && rows[index].canReprint && !rows[index].needsAcknowledgement
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .syncNow: actions.perform { await model.syncNow() }
        case .back: model.back()
        case .top: actions.scroll(Control.list, to: .top)
        case .bottom: actions.scroll(Control.list, to: .bottom)
        case .row: break
        case .acknowledge(let index):
            let key = model.rows[index].key
            actions.perform { await model.acknowledge(key) }
        case .reprint(let index):
            let key = model.rows[index].key
            actions.perform { await model.reprint(key) }
        }
    }
}
