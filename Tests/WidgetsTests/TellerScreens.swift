import Graphics
import Widgets

/// Teller-like screens composed only from Widgets, as TellerUI's screens are
/// (Sources/TellerUI/Screens/), so Widgets' goldens, damage and accessibility
/// tests need no TellerUI. The strings are sample data; in the app they come
/// from view models.
enum TellerScreens {
    static func statusBar(online: Bool = true) -> any Widget {
        HStack(spacing: 12, alignment: .center, padding: .symmetric(horizontal: 16, vertical: 6), background: .statusBar,
                                 identifier: "status-bar", [
            Label("Branch 0412 \u{00B7} Counter 3", style: .caption, color: .onStatusBar),
            Spacer(),
            Badge(online ? "Online" : "Offline", tone: online ? .success : .warning, identifier: "status.connection"),
            Badge("2 queued", tone: .neutral, identifier: "status.queue"),
            Label("14:05", style: .bodyBold, color: .onStatusBar, canTruncate: false, identifier: "status.clock"),
        ])
    }

    /// The customer card: who, which account, how much is available.
    static func header(name: String = "Anna Schmidt", balance: String = "\u{20AC} 12,480.25") -> any Widget {
        VStack(spacing: 2, padding: .symmetric(horizontal: 14, vertical: 10), background: .header, cornerRadius: 8,
               identifier: "account.header", [
            Label(name, style: .title, color: .onHeader, identifier: "account.name"),
            Label("DE89 3704 0044 0532 0130 00", style: .amount, color: .onHeader, identifier: "account.iban"),
            HStack(spacing: 12, alignment: .center, [
                Label("Available balance", style: .caption, color: .onHeader),
                Spacer(),
                Label(balance, style: .title, color: .onHeader, alignment: .trailing, canTruncate: false,
                      identifier: "account.balance"),
            ]),
        ])
    }

    static let activity: [ListRow] = [
        ListRow(identifier: "activity.0", title: "Cash deposit", subtitle: "Today 13:52", trailing: "+500.00",
                badge: Badge("Queued", tone: .warning)),
        ListRow(identifier: "activity.1", title: "Transfer to Lena Vogel", subtitle: "Today 11:20", trailing: "-120.00",
                badge: Badge("Confirmed", tone: .success)),
        ListRow(identifier: "activity.2", title: "Cash withdrawal", subtitle: "Yesterday", trailing: "-200.00"),
        ListRow(identifier: "activity.3", title: "Salary Stadtwerke Kassel GmbH and Co. KG", subtitle: "27 Nov", trailing: "+2,950.00"),
        ListRow(identifier: "activity.4", title: "Standing order rent", subtitle: "26 Nov", trailing: "-980.00"),
        ListRow(identifier: "activity.5", title: "Card payment Bakery", subtitle: "25 Nov", trailing: "-4.80"),
        ListRow(identifier: "activity.6", title: "Cash deposit", subtitle: "24 Nov", trailing: "+150.00",
                badge: Badge("Rejected", tone: .danger)),
        ListRow(identifier: "activity.7", title: "Transfer from Jonas Weber", subtitle: "23 Nov", trailing: "+60.00"),
        ListRow(identifier: "activity.8", title: "Fee account statement", subtitle: "22 Nov", trailing: "-2.50"),
        ListRow(identifier: "activity.9", title: "Cash withdrawal", subtitle: "21 Nov", trailing: "-100.00"),
    ]

    /// Status bar, customer header, recent activity and an amount keypad: the
    /// shape of `teller-bench render`'s screen (Sources/teller-bench/RenderBenchmarkScreen.swift).
    static func account(amount: String = "250.00") -> any Widget {
        Screen(identifier: "account", title: "Account", VStack(spacing: 0, [
            statusBar(),
            HStack(spacing: 16, padding: .all(12), [
                Flexible(3, VStack(spacing: 8, [
                    header(),
                    Label("Recent activity", style: .headline),
                    List(identifier: "activity", label: "Recent activity", rows: activity),
                ])),
                Flexible(2, VStack(spacing: 8, [
                    Label("Deposit amount", style: .headline),
                    TextField(identifier: "deposit.amount", label: "Deposit amount", value: amount, placeholder: "0.00"),
                    Keypad(identifier: "deposit.keypad", name: "Keypad", enterTitle: "Deposit", enterName: "Enter", backspaceName: "Delete", spaceName: "Space"),
                ])),
            ]),
        ]))
    }

    static func signIn(operatorID: String = "40127", pin: String = "12", message: String? = nil) -> any Widget {
        Screen(identifier: "sign-in", title: "Sign in", VStack(spacing: 0, [
            statusBar(online: false),
            HStack(spacing: 24, padding: .all(24), [
                Flexible(1, VStack(spacing: 12, [
                    Label("Teller", style: .title),
                    Label("Sign in with your operator ID and PIN.", style: .body, color: .secondaryText, maxLines: 3),
                    Label("Operator ID", style: .caption, color: .secondaryText),
                    TextField(identifier: "sign-in.operator", label: "Operator ID", value: operatorID, placeholder: "5 digits"),
                    Label("PIN", style: .caption, color: .secondaryText),
                    TextField(identifier: "sign-in.pin-field", label: "PIN", value: pin, placeholder: "4 to 6 digits",
                              isSecure: true),
                    Label(message ?? "Offline: sign-in uses the PIN stored on this terminal.", style: .caption,
                          color: .secondaryText, maxLines: 3, identifier: "sign-in.message"),
                    Spacer(),
                ])),
                Flexible(1, Keypad(identifier: "sign-in.pin", name: "Keypad", enterTitle: "Sign in", enterName: "Enter", backspaceName: "Delete", spaceName: "Space")),
            ]),
        ]))
    }

    static func transferForm(reference: String = "INVOICE 2291") -> any Widget {
        Screen(identifier: "transfer", title: "Transfer", VStack(spacing: 0, [
            statusBar(),
            VStack(spacing: 8, padding: .symmetric(horizontal: 16, vertical: 8), [
                HStack(spacing: 12, alignment: .center, [
                    Button("Back", identifier: "transfer.back", accessibilityLabel: "Back to account", style: .secondary),
                    Label("New transfer", style: .title),
                    Spacer(),
                    Button("Review", identifier: "transfer.review", isEnabled: false),
                ]),
                HStack(spacing: 12, [
                    Flexible(1, VStack(spacing: 4, [
                        Label("Recipient IBAN", style: .caption, color: .secondaryText),
                        TextField(identifier: "transfer.iban", label: "Recipient IBAN", value: "", placeholder: "DE.."),
                    ])),
                    Flexible(1, VStack(spacing: 4, [
                        Label("Reference", style: .caption, color: .secondaryText),
                        TextField(identifier: "transfer.reference", label: "Reference", value: reference),
                    ])),
                ]),
                Keypad(identifier: "transfer.keys", layout: .alphanumeric, name: "Keypad", enterTitle: "Next", enterName: "Enter", backspaceName: "Delete", spaceName: "Space"),
            ]),
        ]))
    }

    static func rejectedAlert() -> any Widget {
        Modal(account(amount: ""), alert: Alert(
            identifier: "alert.rejected", title: "Deposit rejected",
            message: "The bank rejected the deposit of 150.00 on 24 Nov: the daily cash limit for this account is reached.",
            actions: [
                Button("Details", identifier: "alert.rejected.details", style: .secondary),
                Button("Acknowledge", identifier: "alert.rejected.ok"),
            ]))
    }

    /// Every screen by golden name.
    static let all: [(name: String, widget: any Widget, state: InteractionState)] = [
        ("account", account(), InteractionState(focused: "deposit.amount")),
        ("sign-in", signIn(), InteractionState(focused: "sign-in.pin-field")),
        ("transfer", transferForm(), InteractionState(focused: "transfer.reference")),
        ("alert", rejectedAlert(), InteractionState()),
    ]
}
