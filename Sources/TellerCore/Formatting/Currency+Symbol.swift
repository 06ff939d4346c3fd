extension Currency {
    /// The symbol a counter customer knows the currency by, or nil where
    /// there is none we can show without ambiguity: the amount then shows
    /// the ISO code instead. "$" is the US dollar's alone; Canadian and
    /// Australian dollars keep their codes.
    public var symbol: String? {
        switch code {
        case "EUR": "€"
        case "USD": "$"
        case "GBP": "£"
        case "JPY": "¥"
        // The Swiss franc's own sign is its code.
        case "CHF": "CHF"
        default: nil
        }
    }
}
