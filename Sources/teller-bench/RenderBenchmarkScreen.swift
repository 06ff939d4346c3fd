import Widgets

/// The benchmark's teller screen, the same shape as the account golden in WidgetsTests.
enum RenderBenchmarkScreen {
    static func account(amount: String = "250.00") -> any Widget {
        let rows = (0..<10).map { i in
            ListRow(identifier: "activity.\(i)", title: i % 3 == 0 ? "Cash deposit" : "Transfer to Lena Vogel",
                    subtitle: "Today 1\(i):20", trailing: i % 2 == 0 ? "+500.00" : "-120.00",
                    badge: i < 2 ? Badge(i == 0 ? "Queued" : "Confirmed", tone: i == 0 ? .warning : .success) : nil)
        }
        return Screen(identifier: "account", VStack(spacing: 0, [
            HStack(spacing: 12, alignment: .center, padding: .symmetric(horizontal: 16, vertical: 6), background: .statusBar, [
                Label("Branch 0412 \u{00B7} Counter 3", style: .caption, color: .onStatusBar),
                Spacer(),
                Badge("Online", tone: .success),
                Badge("2 queued"),
                Label("14:05", style: .bodyBold, color: .onStatusBar, canTruncate: false),
            ]),
            HStack(spacing: 16, padding: .all(12), [
                Flexible(3, VStack(spacing: 8, [
                    VStack(spacing: 2, padding: .symmetric(horizontal: 14, vertical: 10), background: .header, cornerRadius: 8, [
                        Label("Anna Schmidt", style: .title, color: .onHeader),
                        Label("DE89 3704 0044 0532 0130 00", style: .amount, color: .onHeader),
                        HStack(spacing: 12, alignment: .center, [
                            Label("Available balance", style: .caption, color: .onHeader),
                            Spacer(),
                            Label("\u{20AC} 12,480.25", style: .title, color: .onHeader, canTruncate: false),
                        ]),
                    ]),
                    Label("Recent activity", style: .headline),
                    List(identifier: "activity", label: "Recent activity", rows: rows),
                ])),
                Flexible(2, VStack(spacing: 8, [
                    Label("Deposit amount", style: .headline),
                    TextField(identifier: "deposit.amount", label: "Deposit amount", value: amount),
                    Keypad(identifier: "deposit.keypad", name: "Keypad", enterTitle: "Deposit", enterName: "Enter", backspaceName: "Delete", spaceName: "Space"),
                ])),
            ]),
        ]))
    }
}
