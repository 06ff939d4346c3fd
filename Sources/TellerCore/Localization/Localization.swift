import Synchronization

/// The terminal's language and regional format, and the catalog that
/// translates into it. Every user-visible string goes through ``tr(_:)``,
/// ``tr(_:_:)`` or ``trn(_:_:count:_:)``; `tools/catalogs` extracts those calls
/// into `po/teller.pot`, and a test fails when a string on screen did not.
///
/// One per process: the technician's language switch replaces it, and the
/// next frame is drawn in the new language.
public enum Localization {
    struct State: Sendable {
        var format: RegionalFormat
        var catalog: Catalog?
        /// Unique per switch (``use(_:catalog:)`` or ``with(_:catalog:_:)``).
        var revision: Int

        init(format: RegionalFormat, catalog: Catalog?) {
            self.format = format
            self.catalog = catalog
            revision = Localization.revisions.add(1, ordering: .relaxed).newValue
        }
    }

    static let revisions = Atomic<Int>(0)
    static let state = Mutex(State(format: .standard, catalog: nil))

    /// A language for the current task only: tests render screens in
    /// Arabic or pseudo beside tests that expect English in the same process.
    @TaskLocal static var scoped: State?

    static var current: State { scoped ?? state.withLock { $0 } }

    /// Runs `body` with `format` and `catalog` for this task (and the tasks it
    /// starts) only; the process-wide language is untouched.
    public static func with<R>(_ format: RegionalFormat, catalog: Catalog? = nil, _ body: () throws -> R) rethrows -> R {
        try $scoped.withValue(State(format: format, catalog: catalog), operation: body)
    }

    /// The asynchronous form of ``with(_:catalog:_:)``.
    public static func with<R>(_ format: RegionalFormat, catalog: Catalog? = nil, isolation: isolated (any Actor)? = #isolation,
                               _ body: () async throws -> R) async rethrows -> R {
        try await $scoped.withValue(State(format: format, catalog: catalog), operation: body, isolation: isolation)
    }

    /// The current regional format (language, currency display, digits).
    public static var format: RegionalFormat { current.format }

    /// The current language.
    public static var language: Language { format.language }

    /// Switches language and format. `catalog` is the language's compiled
    /// catalog; nil for English and pseudo, which need none.
    public static func use(_ format: RegionalFormat, catalog: Catalog? = nil) {
        let state = State(format: format, catalog: catalog)
        self.state.withLock { $0 = state }
    }

    /// Changes with every switch of language or format, so that caches of
    /// laid-out text can tell that the same screen now reads differently.
    public static var currentRevision: Int { current.revision }

    /// `text` as data inside translated text: an IBAN, an amount, a receipt
    /// number, a time. In a right-to-left language it is isolated left to
    /// right (U+2066 … U+2069), so "DE89 3704" never reads backwards inside
    /// Arabic; in pseudo it is marked the same way, so QA can tell data from
    /// text that skipped the catalog. Unchanged in other languages.
    public static func leftToRight(_ text: String) -> String {
        format.leftToRight(text)
    }

    /// A name or free text from outside (an account holder, an operator):
    /// isolated with its own direction (U+2068 … U+2069) in right-to-left and
    /// pseudo, unchanged elsewhere.
    public static func verbatim(_ text: String) -> String {
        let language = language
        guard language.isRightToLeft || language == .pseudo, !text.isEmpty else { return text }
        return "\u{2068}" + text + "\u{2069}"
    }

    /// `text` with its Latin digits 0-9 written in the language's own digits
    /// when the bank chose them (`digits = native`): Arabic-Indic "١٢٣" in
    /// Arabic. Unchanged otherwise, and for languages with no digits of their own.
    public static func digits(_ text: String) -> String {
        format.digits(text)
    }

    /// The bidirectional isolate marks ``leftToRight(_:)`` and ``verbatim(_:)`` add.
    public static let isolateMarks: Set<Unicode.Scalar> = ["\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]

    static func translate(_ msgid: String, plural: String? = nil, count: Int? = nil) -> String {
        let current = current
        let (language, catalog) = (current.format.language, current.catalog)
        if language == .pseudo { return Pseudo.text(count.map { $0 == 1 ? msgid : plural ?? msgid } ?? msgid) }
        if let catalog, let translated = catalog.translation(msgid, plural: plural, count: count) { return translated }
        guard let plural, let count else { return msgid }
        return count == 1 ? msgid : plural
    }
}

/// The text of `msgid` in the terminal's language.
public func tr(_ msgid: String) -> String {
    Localization.translate(msgid)
}

/// The text of `msgid` with each `{name}` replaced by its value. Values are
/// inserted as given: wrap data in ``Localization/leftToRight(_:)``.
public func tr(_ msgid: String, _ values: KeyValuePairs<String, String>) -> String {
    Placeholders.fill(Localization.translate(msgid), values)
}

/// The singular or the plural form the language needs for `count`, with
/// `{count}` (grouped, in the format's digits) and each `{name}` filled:
/// "1 queued", "5 queued", and Arabic's six forms.
public func trn(_ singular: String, _ plural: String, count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
    let text = Localization.translate(singular, plural: plural, count: count)
    return Placeholders.fill(text, values, extra: ("count", Localization.format.number(count)))
}

enum Placeholders {
    /// `template` with each `{name}` that `values` (or `extra`) names
    /// replaced by its value, in one pass: a value goes in as it is and is
    /// never read for placeholders itself (an account holder named
    /// "{count}" keeps that name). Unknown names and a lone brace stay.
    /// Screens fill their words on every new body, so this is one scan, not
    /// a search and a copy per value.
    static func fill(_ template: String, _ values: KeyValuePairs<String, String>, extra: (name: String, value: String)? = nil) -> String {
        let brace = UInt8(ascii: "{")
        guard template.utf8.contains(brace) else { return template }
        var result = ""
        result.reserveCapacity(template.utf8.count + 32)
        var rest = Substring(template)
        while let open = rest.utf8.firstIndex(of: brace) {
            result += rest[..<open]
            let name = rest.index(after: open)
            if let close = rest[name...].utf8.firstIndex(of: UInt8(ascii: "}")),
               let value = value(for: rest[name..<close], values, extra) {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[name...]
            }
        }
        result += rest
        return result
    }

    private static func value(for name: Substring, _ values: KeyValuePairs<String, String>, _ extra: (name: String, value: String)?) -> String? {
        for (key, value) in values where key == name { return value }
        if let extra, extra.name == name { return extra.value }
        return nil
    }
}
