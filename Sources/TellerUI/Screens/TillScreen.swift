import TellerCore
import TellerFeatures
import Widgets

/// The operator's till. Counting (opening or closing): one row per note and
/// coin, the keypad typing the pieces of the selected row, the total under
/// them. Open: the cash position. Closed: expected, counted, over or short.
@MainActor
public struct TillScreen: TerminalScreen {
    public static let back = "till.back"
    public static let list = "till.count"
    public static let keypad = "till.keys"
    public static let open = "till.open"
    public static let startClose = "till.start-close"
    public static let close = "till.close"
    public static let supervisor = "till.supervisor"
    public static let done = "till.done"
    public static let print = "till.print"
    /// `till.count.<denomination in minor units>`: selects that row for the keypad (`till.count.5000` is a 50.00 note).
    public nonisolated static func row(_ denomination: Int64) -> String { "till.count.\(denomination)" }

    public let model: TillViewModel

    public init(model: TillViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        let padding = Insets.symmetric(horizontal: 12, vertical: 8)
        switch model.phase {
        case .opening, .closing:
            return VStack(spacing: 8, padding: padding, [topRow(action: nil), Flexible(1, counting())])
        case .open:
            return VStack(spacing: 12, padding: padding, [
                topRow(action: nil),
                ScreenParts.card(model.summary, identifier: "till.position"),
                messages(),
                Spacer(),
                Frame(height: 64, Button(model.startCloseTitle, identifier: Self.startClose)),
            ])
        case .closed:
            return VStack(spacing: 12, padding: padding, [
                topRow(action: nil),
                ScreenParts.card(model.summary, identifier: "till.result"),
                model.printMessage.map { ScreenParts.message($0, isError: false, identifier: "till.print-message") } ?? Spacer(),
                Spacer(),
                HStack(spacing: 16, (model.canPrint ? [Flexible(1, Frame(height: 64, Button(model.printTitle, identifier: Self.print, style: .secondary)))] : [])
                    + [Flexible(2, Frame(height: 64, Button(model.doneTitle, identifier: Self.done)))]),
            ])
        case .loading, .failed:
            return VStack(spacing: 12, padding: padding, [topRow(action: nil), messages(), Spacer()])
        }
    }

    private func topRow(action: Button?) -> any Widget {
        ScreenParts.topRow(back: ScreenParts.backButton(model.backTitle, identifier: Self.back), title: model.title, action: action)
    }

    private func messages() -> any Widget {
        var lines: [any Widget] = []
        if let failure = model.failureText { lines.append(ScreenParts.message(failure, isError: true, identifier: "till.message")) }
        if let refusal = model.refusal { lines.append(ScreenParts.message(refusal, isError: true, identifier: "till.refusal")) }
        return VStack(spacing: 4, lines)
    }

    private func counting() -> any Widget {
        // Every note and coin is a tile on screen at once, three across, the
        // one the keypad types into drawn as the primary button.
        let tiles: [any Widget] = model.countLines.map { line in
            Flexible(1, Frame(height: LayoutContext.minimumTouchTarget,
                              Button(line.title, identifier: Self.row(line.denomination),
                                     style: line.denomination == model.selected ? .primary : .secondary)))
        }
        let rows: [any Widget] = stride(from: 0, to: tiles.count, by: 3).map { start in
            let row = Array(tiles[start..<min(start + 3, tiles.count)])
            return HStack(spacing: 6, row + Array(repeating: Flexible(1, Spacer()) as any Widget, count: 3 - row.count))
        }
        // The refusal under the tiles, where there is room for the whole sentence.
        let form: [any Widget] = [Label(model.instructions, style: .caption, color: .secondaryText, maxLines: 3)] + rows + [messages()]
        var side: [any Widget] = [Label(model.countTotalText, style: .amount, identifier: "till.total")]
        // A close refused for its difference: the next step is the supervisor (a changed count asks again).
        let action = model.phase == .opening
            ? Button(model.openTitle, identifier: Self.open, isEnabled: !model.isWorking)
            : model.approvalNeeded != nil
                ? Button(model.supervisorTitle, identifier: Self.supervisor)
                : Button(model.closeTitle, identifier: Self.close, isEnabled: !model.isWorking)
        side.append(Flexible(1, Keypad(identifier: Self.keypad, model.keypad)))
        side.append(Frame(height: 56, action))
        return HStack(spacing: 16, [
            Flexible(3, ScrollArea(identifier: Self.list, label: model.title, VStack(spacing: 6, form))),
            Flexible(2, VStack(spacing: 8, side)),
        ])
    }
}

extension TillScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        if DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: model.next).tap(identifier, keypad: Self.keypad) { return true }
        if identifier.hasPrefix(Self.list + "."), let denomination = Int64(identifier.dropFirst(Self.list.count + 1)) {
            model.select(denomination)
            return true
        }
        switch identifier {
        case Self.back: model.back()
        case Self.open: actions.perform { await model.open() }
        case Self.startClose: model.startClose()
        case Self.close: actions.perform { await model.close() }
        case Self.supervisor: model.callSupervisor()
        case Self.done: model.back()
        case Self.print: actions.perform { await model.printReport() }
        default: return false
        }
        return true
    }

    public func key(_ key: TerminalKey, _ actions: ScreenActions) {
        DigitEntry(press: model.press(digit:), backspace: model.backspace, enter: model.next).key(key)
    }
}

extension TillViewModel: PresentedByTerminalScreen {
    public var terminalScreen: any TerminalScreen { TillScreen(model: self) }
}
