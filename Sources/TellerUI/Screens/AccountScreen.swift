import TellerFeatures
import Widgets

/// The account in two paints: holder, balance and available in a header
/// card, "updated HH:MM" while the figures are cached, recent activity with
/// this terminal's queued rows, and the three transactions.
@MainActor
public struct AccountScreen: TerminalScreen {
    public enum Control: RawRepresentable, Hashable {
        case deposit, withdraw, transfer, back
        /// A row of the activity list (`account.activity.0`): it takes the tap and does nothing.
        case activity(Int)

        /// The activity list itself.
        public static let activityList = "account.activity"

        public var rawValue: String {
            switch self {
            case .deposit: "account.deposit"
            case .withdraw: "account.withdraw"
            case .transfer: "account.transfer"
            case .back: "account.back"
            case .activity(let row): "\(Self.activityList).\(row)"
            }
        }

        public init?(rawValue: String) {
            if let fixed = [Control.deposit, .withdraw, .transfer, .back].first(where: { $0.rawValue == rawValue }) {
                self = fixed
            } else if let row = rawValue.member(of: Self.activityList).flatMap({ Int($0) }) {
                self = .activity(row)
            } else {
                return nil
            }
        }
    }

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
            left = ScrollArea(identifier: Control.activityList, label: model.activityTitle, VStack(spacing: Theme.Spacing.small, top))
        } else {
            left = List(identifier: Control.activityList, label: model.activityTitle,
                        header: VStack(spacing: Theme.Spacing.small, padding: Insets(bottom: Theme.Spacing.small), top),
                        rows: lines.enumerated().map { index, line in
                ListRow(identifier: Control.activity(index).rawValue, title: line.title, subtitle: line.detail, trailing: line.amount,
                        badge: line.badge.map { Badge($0, tone: .warning) })
            })
        }
        let back = ScreenParts.backButton(model.backTitle, identifier: Control.back.rawValue)
        let transactions: [any Widget] = [
            Frame(height: Theme.Size.tallButtonHeight, button(model.depositTitle, .deposit)),
            Frame(height: Theme.Size.tallButtonHeight, button(model.withdrawTitle, .withdraw)),
            Frame(height: Theme.Size.tallButtonHeight, button(model.transferTitle, .transfer)),
        ]
        // Landscape: the actions in a column on the right, wide enough for "Withdraw" at the largest
        // text. Portrait: Back on top, the actions in a row under the thumb.
        return FirstThatFits([
            HStack(spacing: Theme.Spacing.large, padding: .all(Theme.Spacing.medium), [
                Flexible(3, left),
                Frame(width: Theme.Size.actionColumnWidth, VStack(spacing: Theme.Spacing.medium, [back, Spacer()] + transactions)),
            ]),
            VStack(spacing: Theme.Spacing.medium, padding: .all(Theme.Spacing.medium), [
                HStack(spacing: Theme.Spacing.medium, [back, Spacer()]),
                Flexible(1, left),
                FirstThatFits([
                    HStack(spacing: Theme.Spacing.medium, transactions.map { Flexible(1, $0) }),
                    VStack(spacing: Theme.Spacing.medium, transactions),
                ]),
            ]),
        ])
    }

    private func header() -> any Widget {
        VStack(spacing: Theme.Spacing.hairline, padding: .symmetric(horizontal: Theme.Spacing.mediumLarge, vertical: Theme.Spacing.compact),
               background: .header, cornerRadius: Theme.Size.cornerRadius,
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
    /// The three transactions wait for an account that can take them.
    public func isEnabled(_ control: Control) -> Bool {
        switch control {
        case .deposit, .withdraw, .transfer: model.canTransact
        case .back, .activity: true
        }
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {
        switch control {
        case .deposit: model.deposit()
        case .withdraw: model.withdraw()
        case .transfer: model.transfer()
        case .back: model.back()
        case .activity: break
        }
    }
}
