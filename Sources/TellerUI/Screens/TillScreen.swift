import TellerCore
import TellerFeatures
import Widgets

/// The operator's till. Counting (opening or closing): one row per note and
/// coin, the keypad typing the pieces of the selected row, the total under
/// them. Open: the cash position. Closed: expected, counted, over or short.
@MainActor
public struct TillScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        case back, open, startClose, close, supervisor, done, print
        /// `till.count.<denomination in minor units>`: selects that row for the keypad (`till.count.5000` is a 50.00 note).
        case count(Int64)
        /// A key of the keypad (`till.keys.5`).
        case key(KeypadKey)

        /// The counting form, which scrolls.
        public static let list = "till.count"
        public static let keypad = "till.keys"

        public var rawValue: String {
            switch self {
            case .back: "till.back"
            case .open: "till.open"
            case .startClose: "till.start-close"
            case .close: "till.close"
            case .supervisor: "till.supervisor"
            case .done: "till.done"
            case .print: "till.print"
            case .count(let denomination): "\(Self.list).\(denomination)"
            case .key(let key): "\(Self.keypad).\(key.identifierSuffix)"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.back, .open, .startClose, .close, .supervisor, .done, .print].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let key = KeypadKey(tapIdentifier: rawValue, keypadIdentifier: Self.keypad) {
                self = .key(key)
            } else if let denomination = rawValue.member(of: Self.list).flatMap({ Int64($0) }) {
                self = .count(denomination)
            } else {
                return nil
            }
        }
    }

    public let model: TillViewModel

    public init(model: TillViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        let padding = Insets.symmetric(horizontal: Theme.Spacing.medium, vertical: Theme.Spacing.small)
        switch model.phase {
        case .opening, .closing:
            // The step the count leads to is the screen's main action, in the top row; the keys keep the height beside the tiles.
            return VStack(spacing: Theme.Spacing.small, padding: padding, [topRow(action: countAction), Flexible(1, counting())])
        case .open:
            // At the largest text the figures scroll above the button rather than squeeze Back.
            return VStack(spacing: Theme.Spacing.medium, padding: padding, [
                topRow(action: nil),
                Flexible(1, ScrollArea(identifier: "till.body", label: model.title, VStack(spacing: Theme.Spacing.medium, [
                    ScreenParts.card(model.summary, identifier: "till.position"), exceptions(), messages(),
                ]))),
                Frame(height: Theme.Size.buttonRowHeight, button(model.startCloseTitle, .startClose)),
            ])
        case .closed:
            return VStack(spacing: Theme.Spacing.medium, padding: padding, [
                topRow(action: nil),
                Flexible(1, ScrollArea(identifier: "till.body", label: model.title, VStack(spacing: Theme.Spacing.medium, [
                    ScreenParts.card(model.summary, identifier: "till.result"), exceptions(),
                    model.printMessage.map { ScreenParts.message($0, isError: false, identifier: "till.print-message") } ?? Spacer(),
                ]))),
                HStack(spacing: Theme.Spacing.large,
                       (model.canPrint ? [Flexible(1, Frame(height: Theme.Size.buttonRowHeight, button(model.printTitle, .print, style: .secondary)))] : [])
                    + [Flexible(2, Frame(height: Theme.Size.buttonRowHeight, button(model.doneTitle, .done)))]),
            ])
        case .loading, .failed:
            return VStack(spacing: Theme.Spacing.medium, padding: padding, [topRow(action: nil), messages(), Spacer()])
        }
    }

    private func topRow(action: Button?) -> any Widget {
        ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue), title: model.title, action: action)
    }

    /// The voided payments and those to settle with the bank, in a card of their own; nothing when there are none.
    private func exceptions() -> any Widget {
        let lines = model.exceptions
        return lines.isEmpty ? Spacer() : ScreenParts.card(lines.map { line in
            (line.reason.map { "\(line.label) · \($0)" } ?? line.label, line.value)
        }, identifier: "till.exceptions")
    }

    private func messages() -> any Widget {
        var lines: [any Widget] = []
        if let failure = model.failureText { lines.append(ScreenParts.message(failure, isError: true, identifier: "till.message", maxLines: 12)) }
        if let refusal = model.refusal { lines.append(ScreenParts.message(refusal, isError: true, identifier: "till.refusal", maxLines: 12)) }
        return VStack(spacing: Theme.Spacing.xxSmall, lines)
    }

    private func counting() -> any Widget {
        // Every note and coin is a tile, as many across as their words fit
        // whole (three, two or one), the one the keypad types into drawn as
        // the primary button; past the panel's height the column scrolls.
        let tiles: [any Widget] = model.countLines.map { line in
            KeepsWordsWhole(Frame(height: LayoutContext.minimumTouchTarget,
                                  button(line.title, .count(line.denomination),
                                         style: line.denomination == model.selected ? .primary : .secondary)))
        }
        func grid(_ columns: Int) -> any Widget {
            VStack(spacing: Theme.Spacing.xSmall, stride(from: 0, to: tiles.count, by: columns).map { start in
                let row = tiles[start..<min(start + columns, tiles.count)].map { Flexible(1, $0) as any Widget }
                return HStack(spacing: Theme.Spacing.xSmall, row + Array(repeating: Flexible(1, Spacer()) as any Widget, count: columns - row.count))
            })
        }
        // The refusal under the total it is about, above the tiles. It takes
        // the instructions' place: the drawer is counted by then, and so the
        // tiles keep their room (at text scale 1.0 every one is in sight).
        let instructions: [any Widget] = model.refusal == nil && model.failureText == nil
            ? [Label(model.instructions, style: .caption, color: .secondaryText, maxLines: 4, canTruncate: false)] : []
        func arrangement(_ columns: Int) -> any Widget {
            let form: [any Widget] = instructions + [
                // In the screen's own face, as the rest of it (the amount style is monospace).
                Label(model.countTotalText, style: .title, maxLines: 2, canTruncate: false, identifier: "till.total"),
                messages(),
                grid(columns),
            ]
            return HStack(spacing: Theme.Spacing.large, [
                Flexible(3, ScrollArea(identifier: Control.list, label: model.title, VStack(spacing: Theme.Spacing.xSmall, form))),
                Flexible(2, Keypad(identifier: Control.keypad, model.keypad)),
            ])
        }
        // The tiles and the keys side by side, the tiles in as many columns as leave the keys their width.
        return FirstThatFits([arrangement(3), arrangement(2), arrangement(1)])
    }

    /// Open till, Count and close, or, once a close was refused for its
    /// difference, Call supervisor (a changed count asks again).
    private var countAction: Button {
        if model.phase == .opening { return button(model.openTitle, .open) }
        if model.approvalNeeded != nil { return button(model.supervisorTitle, .supervisor) }
        return button(model.closeTitle, .close)
    }
}

extension TillScreen {
    private var digits: DigitEntry { DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: model.next) }

    /// Open and Close once: not again while the till is being written.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .open, .close: !model.isWorking
        case .back, .startClose, .supervisor, .done, .print, .count, .key: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .key(let key): digits.tap(key)
        case .count(let denomination): model.select(denomination)
        case .back, .done: model.back()
        case .open: actions.perform { await model.open() }
        case .startClose: model.startClose()
        case .close: actions.perform { await model.close() }
        case .supervisor: model.callSupervisor()
        case .print: actions.perform { await model.printReport() }
        }
    }

    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        digits.key(key)
    }
}
