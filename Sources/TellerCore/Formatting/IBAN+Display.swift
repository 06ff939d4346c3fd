extension IBAN {
    /// The IBAN as screens show it: the paper form in groups of four, Latin
    /// letters and digits whatever the format's digits (an IBAN is an
    /// identifier, not a number), isolated left to right so that in Arabic
    /// "DE89 3704 …" never reads backwards. ``grouped`` stays plain for logs
    /// and host messages.
    public func displayed(format: RegionalFormat = Localization.format) -> String {
        format.leftToRight(grouped)
    }

    /// Partly typed IBAN text (normalised) as the entry field shows it:
    /// groups of four so far, isolated like ``displayed(format:)``.
    public static func displayedEntry(_ normalised: String, format: RegionalFormat = Localization.format) -> String {
        var result = ""
        for (index, character) in normalised.enumerated() {
            if index > 0 && index % 4 == 0 { result.append(" ") }
            result.append(character)
        }
        return format.leftToRight(result)
    }
}
