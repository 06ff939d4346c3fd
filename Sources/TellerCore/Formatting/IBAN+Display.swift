extension IBAN {
    /// The IBAN as screens show it: the paper form in groups of four, Latin
    /// letters and digits whatever the format's digits (an IBAN is an
    /// identifier, not a number), isolated left to right so that in Arabic
    /// "DE89 3704 …" never reads backwards. ``grouped`` stays plain for logs
    /// and host messages.
    public func displayed(format: RegionalFormat = Localization.format) -> String {
        format.leftToRight(grouped)
    }
}
