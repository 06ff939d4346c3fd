import TellerCore
import Widgets

/// The benchmark's teller screen, the same shape as the account golden in WidgetsTests.
enum RenderBenchmarkScreen {
    static func account(amount: String = "250.00", text: ScreenText = .english) -> any Widget {
        let rows = (0..<10).map { i in
            ListRow(identifier: "activity.\(i)", title: i % 3 == 0 ? text.deposit : text.transfer,
                    subtitle: text.time("1\(i):20"), trailing: text.data(i % 2 == 0 ? "+500.00" : "-120.00"),
                    badge: i < 2 ? Badge(i == 0 ? text.queued : text.confirmed, tone: i == 0 ? .warning : .success) : nil)
        }
        return Screen(identifier: "account", VStack(spacing: 0, [
            HStack(spacing: 12, alignment: .center, padding: .symmetric(horizontal: 16, vertical: 6), background: .statusBar, [
                Label(text.counter, style: .caption, color: .onStatusBar),
                Spacer(),
                Badge(text.online, tone: .success),
                Badge(text.queuedCount),
                Label(text.data("14:05"), style: .bodyBold, color: .onStatusBar, canTruncate: false),
            ]),
            HStack(spacing: 16, padding: .all(12), [
                Flexible(3, VStack(spacing: 8, [
                    VStack(spacing: 2, padding: .symmetric(horizontal: 14, vertical: 10), background: .header, cornerRadius: 8, [
                        Label(text.holder, style: .title, color: .onHeader),
                        Label(text.data("DE89 3704 0044 0532 0130 00"), style: .amount, color: .onHeader),
                        HStack(spacing: 12, alignment: .center, [
                            Label(text.available, style: .caption, color: .onHeader),
                            Spacer(),
                            Label(text.data("\u{20AC} 12,480.25"), style: .title, color: .onHeader, canTruncate: false),
                        ]),
                    ]),
                    Label(text.recent, style: .headline),
                    List(identifier: "activity", label: text.recent, rows: rows),
                ])),
                Flexible(2, VStack(spacing: 8, [
                    Label(text.amount, style: .headline),
                    TextField(identifier: "deposit.amount", label: text.amount, value: amount),
                    Keypad(identifier: "deposit.keypad", name: text.keypad, enterTitle: text.enter, enterName: text.enter,
                           backspaceName: text.delete, spaceName: text.space),
                ])),
            ]),
        ]))
    }
}

/// The words on the benchmark screen: English as written, or the same
/// screen in the current catalog's language.
struct ScreenText: Sendable {
    var counter: String
    var online: String
    var queuedCount: String
    var holder: String
    var available: String
    var recent: String
    var deposit: String
    var transfer: String
    var queued: String
    var confirmed: String
    var amount: String
    var keypad: String
    var enter: String
    var delete: String
    var space: String
    /// An amount, a time or an IBAN inside the text.
    var data: @Sendable (String) -> String = { $0 }
    /// "Today 10:20" in English.
    var time: @Sendable (String) -> String = { "Today " + $0 }

    static let english = ScreenText(
        counter: "Branch 0412 \u{00B7} Counter 3", online: "Online", queuedCount: "2 queued", holder: "Anna Schmidt",
        available: "Available balance", recent: "Recent activity", deposit: "Cash deposit", transfer: "Transfer to Lena Vogel",
        queued: "Queued", confirmed: "Confirmed", amount: "Deposit amount", keypad: "Keypad", enter: "Deposit",
        delete: "Delete", space: "Space")

    /// The screen as TellerFeatures words it, in the language of `Localization`:
    /// the catalog's msgids that TellerFeatures already uses (so already in
    /// po/teller.pot, each extracted where the terminal shows it), and data
    /// isolated left to right as view models isolate it.
    ///
    /// The catalog functions are taken as values: a call with a literal here
    /// would add this benchmark's file to every entry of po/teller.pot, which
    /// is the lead's to regenerate, although nothing here is on a terminal.
    static func catalog() -> ScreenText {
        let translate: (String) -> String = tr
        let plural: (String, String, Int, KeyValuePairs<String, String>) -> String = trn
        let data: @Sendable (String) -> String = { Localization.leftToRight(Localization.digits($0)) }
        return ScreenText(
            counter: translate(counterID).replacing("{name}", with: Localization.verbatim("Lena Vogel"))
                .replacing("{terminal}", with: data("0412-3")),
            online: translate("Online"), queuedCount: plural(queuedCountID, queuedCountID, 2, ["amounts": data("EUR 620.00")]),
            holder: Localization.verbatim("Anna Schmidt"),
            available: translate("Available"), recent: translate("Recent activity"), deposit: translate("Deposit"),
            transfer: translate("Transfer") + " \u{00B7} " + Localization.verbatim("Lena Vogel"),
            queued: translate("Queued"), confirmed: translate("Confirmed"), amount: translate("Amount"),
            keypad: translate("Amount keypad"), enter: translate("Deposit"), delete: translate("Delete"),
            space: translate("Space"), data: data, time: data)
    }

    private static let counterID = "{name} \u{00B7} {terminal}"
    private static let queuedCountID = "{count} queued \u{00B7} {amounts}"
}
