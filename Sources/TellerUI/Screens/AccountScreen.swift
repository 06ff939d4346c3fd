import TellerFeatures
import Widgets

/// The account in two paints: holder, balance and available in a header
/// card, "updated HH:MM" while the figures are cached, recent activity with
/// this terminal's queued rows, and the three transactions.
@MainActor
public struct AccountScreen: TerminalScreen {
    public static let deposit = "account.deposit"
    public static let withdraw = "account.withdraw"
    public static let transfer = "account.transfer"
    public static let back = "account.back"
    public static let activity = "account.activity"

    public let model: AccountViewModel

    public init(model: AccountViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        // The account's details head its activity and scroll with it, so large
        // text gives the holder and the IBAN room instead of cutting them.
        var top: [any Widget] = [header()]
        if let freshness = model.freshnessText {
            top.append(Label(freshness, style: .body, color: .secondaryText, maxLines: 2, identifier: "account.freshness"))
        }
        if let message = model.message {
            top.append(ScreenParts.message(message, isError: true, identifier: "account.message"))
        }
        top.append(Label(model.activityTitle, style: .headline))
        let lines = model.activity
        let left: any Widget
        if lines.isEmpty {
            top.append(Label(model.noActivityText, style: .body, color: .secondaryText, maxLines: 3, identifier: "account.no-activity"))
            left = ScrollArea(identifier: Self.activity, label: model.activityTitle, VStack(spacing: 8, top))
        } else {
            left = List(identifier: Self.activity, label: model.activityTitle,
                        header: VStack(spacing: 8, padding: Insets(bottom: 8), top),
                        rows: lines.enumerated().map { index, line in
                ListRow(identifier: "\(Self.activity).\(index)", title: line.title, subtitle: line.detail, trailing: line.amount,
                        badge: line.badge.map { Badge($0, tone: .warning) })
            })
        }
        let back = ScreenParts.backButton(model.backTitle, identifier: Self.back)
        let transactions: [any Widget] = [
            Frame(height: 72, Button(model.depositTitle, identifier: Self.deposit, isEnabled: model.canTransact)),
            Frame(height: 72, Button(model.withdrawTitle, identifier: Self.withdraw, isEnabled: model.canTransact)),
            Frame(height: 72, Button(model.transferTitle, identifier: Self.transfer, isEnabled: model.canTransact)),
        ]
        // Landscape: the actions in a column on the right, wide enough for "Withdraw" at the largest
        // text. Portrait: Back on top, the actions in a row under the thumb.
        return FirstThatFits([
            HStack(spacing: 16, padding: .all(12), [
                Flexible(3, left),
                Frame(width: 220, VStack(spacing: 12, [back, Spacer()] + transactions)),
            ]),
            VStack(spacing: 12, padding: .all(12), [
                HStack(spacing: 12, [back, Spacer()]),
                Flexible(1, left),
                FirstThatFits([
                    HStack(spacing: 12, transactions.map { Flexible(1, $0) }),
                    VStack(spacing: 12, transactions),
                ]),
            ]),
        ])
    }

    private func header() -> any Widget {
        VStack(spacing: 2, padding: .symmetric(horizontal: 14, vertical: 10), background: .header, cornerRadius: 8,
               identifier: "account.header", [
            // The holder and the IBAN wrap (the IBAN in its groups of four) rather than lose a letter.
            Label(model.title, style: .title, color: .onHeader, maxLines: 3, canTruncate: false, identifier: "account.holder"),
            Label(model.ibanText, style: .amount, color: .onHeader, maxLines: 3, canTruncate: false, identifier: "account.iban"),
            ScreenParts.labelled(Label(model.balanceLabel, style: .body, color: .onHeader),
                                 Label(model.balanceText, style: .title, color: .onHeader, identifier: "account.balance")),
            ScreenParts.labelled(Label(model.availableLabel, style: .body, color: .onHeader),
                                 Label(model.availableText, style: .headline, color: .onHeader, identifier: "account.available")),
        ])
    }
}

extension AccountScreen {
    public func tap(_ identifier: String, _ actions: ScreenActions) -> Bool {
        switch identifier {
        case Self.deposit where model.canTransact: model.deposit()
        case Self.withdraw where model.canTransact: model.withdraw()
        case Self.transfer where model.canTransact: model.transfer()
        case Self.back: model.back()
        default: return identifier.hasPrefix(Self.activity + ".")
        }
        return true
    }
}
