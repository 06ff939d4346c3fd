import TellerCore

/// What a printed slip says, line by line, in the terminal's words and
/// language, with no paper width, font or printer in it: TellerUI lays it
/// out on paper of any width (right to left for Arabic, long lines wrapped,
/// never cut), and Device prints it.
public struct PrintedDocument: Hashable, Sendable {
    /// Where a line of text sits across the paper. Leading is the right
    /// edge in a right-to-left document.
    public enum Alignment: Hashable, Sendable {
        case leading, center, trailing
    }

    /// How much a line stands out.
    public enum Emphasis: Hashable, Sendable {
        case regular
        /// Bold: what the customer checks (the status, the receipt number).
        case strong
        /// Bold and larger: the amount.
        case large
    }

    public enum Line: Hashable, Sendable {
        /// A title across the paper, centred: the bank, the kind of payment.
        case heading(String)
        /// A label and its value on one line, or the value under its label
        /// when both do not fit; a value is wrapped, never cut.
        case row(label: String, value: String, emphasis: Emphasis)
        /// Text wrapped to the paper's width.
        case text(String, alignment: Alignment, emphasis: Emphasis)
        /// A rule across the paper.
        case separator
        /// An empty line.
        case blank
        /// Words that must be seen at a glance, printed white on black: "COPY".
        case mark(String)
    }

    public var lines: [Line]
    /// The document reads right to left (Arabic): taken from the language
    /// it was written in, so it prints the same whatever the terminal speaks by then.
    public var isRightToLeft: Bool
    /// A second copy or a reprint (``markedAsCopy()``).
    public private(set) var isCopy = false
    /// What the slip said, for the terminal's log and not for paper, in
    /// fixed English words: a receipt's payment state when it printed
    /// ("queued", "confirmed H-1042"), so that "printed Queued although the
    /// bank had posted it" can be told from the log alone. Nil says nothing more.
    public var logSummary: String?

    public init(lines: [Line], isRightToLeft: Bool = Localization.language.isRightToLeft, logSummary: String? = nil) {
        self.lines = lines
        self.isRightToLeft = isRightToLeft
        self.logSummary = logSummary
    }

    /// The same document marked as a copy at its top and its bottom: the
    /// second copy a bank keeps, a reprint, or a slip printed again after a
    /// power cut, which must never pass for the original.
    public func markedAsCopy() -> PrintedDocument {
        guard !isCopy else { return self }
        var copy = self
        copy.lines = [.mark(tr("COPY")), .blank] + lines + [.blank, .mark(tr("COPY"))]
        copy.isCopy = true
        return copy
    }
}
