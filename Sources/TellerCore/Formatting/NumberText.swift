// Numbers written as fixed-width text, by hand. FoundationEssentials has no
// `String(format:)`, and full Foundation, which has it, brings ICU's 38 MB
// into the static binary. It lives in TellerCore because every module that
// writes such numbers (features, data, the executables) already imports it.

extension BinaryInteger {
    /// The value's digits, padded on the left with zeros to at least
    /// `width` characters, as `%02d` or `%08X` would write it.
    ///
    /// `7.zeroPadded(2)` is "07", `255.zeroPadded(4, radix: 16, uppercase: true)`
    /// is "00FF", `(-42).zeroPadded(5)` is "-0042": like printf, the width
    /// counts the sign. Wider values are never cut.
    public func zeroPadded(_ width: Int, radix: Int = 10, uppercase: Bool = false) -> String {
        let digits = String(magnitude, radix: radix, uppercase: uppercase)
        let sign = self < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }
}

extension Double {
    /// The value with exactly `decimals` digits after the point, as `%.4f`
    /// would write it: `0.5.fixed(decimals: 2)` is "0.50",
    /// `(-1.23456).fixed(decimals: 4)` is "-1.2346".
    ///
    /// Rounds to the nearest, a tie to even. The value is scaled before it
    /// is rounded, so at a tie the last digit may differ from printf's,
    /// which rounds the exact binary value; for the coefficients and
    /// milliseconds shown here that digit is noise either way. Values too
    /// large for 64 bits once scaled fall back to Swift's own spelling.
    public func fixed(decimals: Int) -> String {
        precondition((0...18).contains(decimals), "fixed(decimals:) takes 0 to 18 decimals, not \(decimals)")
        guard isFinite else { return isNaN ? "nan" : (self < 0 ? "-inf" : "inf") }
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (magnitude * Double(scale)).rounded(.toNearestOrEven)
        guard scaled < 0x1p64 else { return description }
        let units = UInt64(scaled)
        // Like printf, a negative value keeps its sign even when it rounds to zero.
        let sign = self.sign == .minus ? "-" : ""
        let whole = String(units / scale)
        return decimals == 0 ? sign + whole : sign + whole + "." + (units % scale).zeroPadded(decimals)
    }
}
