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
        var left: [any Widget] = [header()]
        if let freshness = model.freshnessText {
            left.append(Label(freshness, style: .body, color: .secondaryText, identifier: "account.freshness"))
        }
        if let message = model.message {
            left.append(ScreenParts.message(message, isError: true, identifier: "account.message"))
        }
        left.append(Label(model.activityTitle, style: .headline))
        let lines = model.activity
        if lines.isEmpty {
            left.append(Label(model.noActivityText, style: .body, color: .secondaryText, identifier: "account.no-activity"))
            left.append(Spacer())
        } else {
            left.append(List(identifier: Self.activity, label: model.activityTitle, rows: lines.enumerated().map { index, line in
                ListRow(identifier: "\(Self.activity).\(index)", title: line.title, subtitle: line.detail, trailing: line.amount,
                        badge: line.badge.map { Badge($0, tone: .warning) })
            }))
        }
        let actions: [any Widget] = [
            ScreenParts.backButton(model.backTitle, identifier: Self.back),
            Spacer(),
            Frame(height: 72, Button(model.depositTitle, identifier: Self.deposit, isEnabled: model.canTransact)),
            Frame(height: 72, Button(model.withdrawTitle, identifier: Self.withdraw, isEnabled: model.canTransact)),
            Frame(height: 72, Button(model.transferTitle, identifier: Self.transfer, isEnabled: model.canTransact)),
        ]
        return HStack(spacing: 16, padding: .all(12), [
            Flexible(3, VStack(spacing: 8, left)),
            // Wide enough for "Withdraw" at the largest text size.
            Frame(width: 220, VStack(spacing: 12, actions)),
        ])
    }

    private func header() -> any Widget {
        VStack(spacing: 2, padding: .symmetric(horizontal: 14, vertical: 10), background: .header, cornerRadius: 8,
               identifier: "account.header", [
            Label(model.title, style: .title, color: .onHeader, identifier: "account.holder"),
            Label(model.ibanText, style: .amount, color: .onHeader, identifier: "account.iban"),
            HStack(spacing: 12, alignment: .center, [
                Label(model.balanceLabel, style: .body, color: .onHeader),
                Spacer(),
                Label(model.balanceText, style: .title, color: .onHeader, alignment: .trailing, canTruncate: false,
                      identifier: "account.balance"),
            ]),
            HStack(spacing: 12, alignment: .center, [
                Label(model.availableLabel, style: .body, color: .onHeader),
                Spacer(),
                Label(model.availableText, style: .headline, color: .onHeader, alignment: .trailing, canTruncate: false,
                      identifier: "account.available"),
            ]),
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

extension AccountViewModel: PresentedByTerminalScreen {
    public var terminalScreen: any TerminalScreen { AccountScreen(model: self) }
}
