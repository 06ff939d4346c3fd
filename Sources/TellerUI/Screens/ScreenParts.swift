import Graphics
import TellerFeatures
import Widgets

/// Pieces every screen is built from, so all screens share one look: a top
/// row with Back, the title and the screen's main action; label/value cards;
/// keypads worded by their view model.
enum ScreenParts {
    /// Back on the left, the title, and an optional primary action on the right.
    ///
    /// A long language at large text does not cut it, nor take room from
    /// the rest of the screen (the row claims no more width, and no more
    /// height, than it did): Back, the title and the action whole in the
    /// title's face; else the title whole in the body's bold face; else,
    /// where there is an action, the two buttons whole and no title (the
    /// action names what the screen does), and where there is none, Back
    /// whole with the title on a line of its own under it; only past that
    /// is anything shortened.
    static func topRow(back: Button?, title: String, action: Button? = nil) -> any Widget {
        func row(_ title: Label?, whole: Bool) -> any Widget {
            var children: [any Widget] = []
            if let back { children.append(whole ? KeepsWordsWhole(back) : back) }
            if let title { children.append(title) }
            // At least a touch target high, so the title sits at the same place with or without buttons.
            children.append(Frame(height: LayoutContext.minimumTouchTarget, Spacer()))
            if let action { children.append(whole ? KeepsWordsWhole(action) : action) }
            return HStack(spacing: Theme.Spacing.medium, alignment: .center, children)
        }
        func whole(_ style: TextStyle) -> Label {
            var label = Label(title, style: style)
            label.canTruncate = false
            return label
        }
        let shortened = row(Label(title, style: .title), whole: false)
        return ClaimsAsLittleAs(shortened, FirstThatFits([row(whole(.title), whole: true), row(whole(.bodyBold), whole: true)]
            // With an action, the buttons alone; without, the title on its own line under Back (a form that scrolls takes it).
            + [action == nil ? VStack(spacing: Theme.Spacing.xxSmall, [row(nil, whole: true), Label(title, style: .title, maxLines: 2)])
                             : row(nil, whole: true), shortened]))
    }

    static func backButton(_ title: String, identifier: String) -> Button {
        Button(title, identifier: identifier, style: .secondary)
    }

    /// A caption over a field, as forms read.
    static func captioned(_ caption: String, _ field: any Widget) -> any Widget {
        VStack(spacing: Theme.Spacing.xxSmall, [Label(caption, style: .caption, color: .secondaryText), field])
    }

    /// Label on the left, value on the right, one row per line; see ``labelled(_:_:)``.
    static func card(_ lines: [(label: String, value: String)], identifier: String) -> any Widget {
        VStack(spacing: Theme.Spacing.xSmall, padding: .symmetric(horizontal: Theme.Spacing.large, vertical: Theme.Spacing.medium),
               background: .surface, cornerRadius: Theme.Size.cornerRadius,
               identifier: identifier,
               lines.map { labelled(Label($0.label, style: .body, color: .secondaryText), Label($0.value, style: .bodyBold)) })
    }

    /// A label on the left and its value on the right. Where large text
    /// leaves the row no room, the value moves under its label and wraps
    /// (an IBAN in its groups of four) to at most `valueLines`: a value is
    /// never cut, since it is what the operator checks against the
    /// customer's card and slip. Paper, which grows, passes more lines.
    static func labelled(_ label: Label, _ value: Label, labelLines: Int = 2, valueLines: Int = 4) -> any Widget {
        var label = label, value = value
        label.canTruncate = false
        value.canTruncate = false
        var stackedLabel = label, stackedValue = value
        stackedLabel.maxLines = labelLines
        stackedValue.maxLines = valueLines
        value.alignment = .trailing
        return FirstThatFits([
            HStack(spacing: Theme.Spacing.medium, alignment: .center, [label, Spacer(), value]),
            VStack(spacing: 0, [stackedLabel, stackedValue]),
        ])
    }

    /// A message under a form: red when it is a refusal or error.
    static func message(_ text: String, isError: Bool, identifier: String, maxLines: Int = 6) -> any Widget {
        Label(text, style: .body, color: isError ? .danger : .secondaryText, maxLines: maxLines, canTruncate: false, identifier: identifier)
    }
}

extension Keypad {
    /// A keypad with a view model's words.
    /// `primaryAction` names the enter key after the screen's one primary
    /// action, drawn where the operator's thumb already is.
    init(identifier: String, layout: KeypadLayout = .numeric, _ text: KeypadText, isEnabled: Bool = true,
         primaryAction: String? = nil, isActionEnabled: Bool = true) {
        self.init(identifier: identifier, layout: layout, name: text.name, enterTitle: text.enterTitle, enterName: text.enter,
                  backspaceName: text.backspace, spaceName: text.space, isEnabled: isEnabled,
                  enterIdentifier: primaryAction, isEnterEnabled: isActionEnabled)
    }
}

/// A control whose words count as its minimum width, so a ``FirstThatFits``
/// around it moves it to a narrower arrangement rather than cut them (a
/// button's own minimum is only its touch size).
struct KeepsWordsWhole: Widget {
    let child: any Widget

    init(_ child: any Widget) { self.child = child }

    func measure(_ available: Size, _ context: LayoutContext) -> Size { child.measure(available, context) }

    func minimumSize(_ available: Size, _ context: LayoutContext) -> Size {
        let minimum = child.minimumSize(available, context)
        let natural = child.measure(Size(width: Int(Int32.max) / 4, height: available.height), context)
        return Size(width: max(minimum.width, natural.width), height: minimum.height)
    }

    func flexibility(_ axis: Axis) -> Double { child.flexibility(axis) }

    func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode { child.layout(in: frame, context) }
}

/// Lays out as `child` does, but tells its parent the minimum size of
/// `modest`: a ``FirstThatFits`` whose first arrangements need more must
/// not take that room from its neighbours; it only uses what it is given.
struct ClaimsAsLittleAs: Widget {
    let modest: any Widget
    let child: any Widget

    init(_ modest: any Widget, _ child: any Widget) {
        self.modest = modest
        self.child = child
    }

    func measure(_ available: Size, _ context: LayoutContext) -> Size { child.measure(available, context) }

    func minimumSize(_ available: Size, _ context: LayoutContext) -> Size { modest.minimumSize(available, context) }

    func flexibility(_ axis: Axis) -> Double { child.flexibility(axis) }

    func layout(in frame: Rect, _ context: LayoutContext) -> LayoutNode { child.layout(in: frame, context) }
}
