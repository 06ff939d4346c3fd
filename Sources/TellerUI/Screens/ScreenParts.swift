import TellerFeatures
import Widgets

/// Pieces every screen is built from, so all screens share one look: a top
/// row with Back, the title and the screen's main action; label/value cards;
/// keypads worded by their view model.
enum ScreenParts {
    /// Back on the left, the title, and an optional primary action on the right.
    static func topRow(back: Button?, title: String, action: Button? = nil) -> any Widget {
        var children: [any Widget] = []
        if let back { children.append(back) }
        children.append(Label(title, style: .title))
        // At least a touch target high, so the title sits at the same place with or without buttons.
        children.append(Frame(height: LayoutContext.minimumTouchTarget, Spacer()))
        if let action { children.append(action) }
        return HStack(spacing: 12, alignment: .center, children)
    }

    static func backButton(_ title: String, identifier: String) -> Button {
        Button(title, identifier: identifier, style: .secondary)
    }

    /// A caption over a field, as forms read.
    static func captioned(_ caption: String, _ field: any Widget) -> any Widget {
        VStack(spacing: 4, [Label(caption, style: .caption, color: .secondaryText), field])
    }

    /// Label on the left, value on the right, one row per line. Values fit at
    /// every text size on the large panel; at the largest text on the small
    /// one a long IBAN may end in an ellipsis rather than squeeze the screen's buttons.
    static func card(_ lines: [(label: String, value: String)], identifier: String) -> any Widget {
        VStack(spacing: 6, padding: .symmetric(horizontal: 16, vertical: 12), background: .surface, cornerRadius: 8,
               identifier: identifier,
               lines.map { line in
                   HStack(spacing: 12, alignment: .center, [
                       Label(line.label, style: .body, color: .secondaryText),
                       Spacer(),
                       Label(line.value, style: .bodyBold, alignment: .trailing),
                   ])
               })
    }

    /// A message under a form: red when it is a refusal or error.
    static func message(_ text: String, isError: Bool, identifier: String, maxLines: Int = 3) -> any Widget {
        Label(text, style: .body, color: isError ? .danger : .secondaryText, maxLines: maxLines, identifier: identifier)
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
