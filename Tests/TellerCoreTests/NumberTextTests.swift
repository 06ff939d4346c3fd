import Testing
import TellerCore

/// The hand-written replacements for `String(format:)`: each expectation is
/// what printf writes for the same value.
@Suite struct NumberTextTests {
    @Test func integersArePaddedWithZerosToAWidth() {
        #expect(7.zeroPadded(2) == "07")          // %02d
        #expect(2026.zeroPadded(4) == "2026")     // %04d
        #expect(123_456.zeroPadded(2) == "123456") // never cut
        #expect((-42).zeroPadded(5) == "-0042")   // the width counts the sign
        #expect(0x5A3C_1001.zeroPadded(8, radix: 16, uppercase: true) == "5A3C1001") // %08X
        #expect(UInt8(10).zeroPadded(2, radix: 16) == "0a") // %02x
    }

    @Test func doublesHaveAFixedNumberOfDecimals() {
        #expect(1.0.fixed(decimals: 4) == "1.0000")       // %.4f
        #expect((-1.23456).fixed(decimals: 4) == "-1.2346")
        #expect(0.0004.fixed(decimals: 3) == "0.000")
        #expect((-0.00001).fixed(decimals: 4) == "-0.0000") // printf keeps the sign
        #expect(2.5.fixed(decimals: 0) == "2")              // a tie goes to even
        #expect(123_456.789.fixed(decimals: 2) == "123456.79")
        #expect(0.0071234.fixed(decimals: 6) == "0.007123")
        #expect(Double.nan.fixed(decimals: 2) == "nan")
        #expect((-Double.infinity).fixed(decimals: 2) == "-inf")
    }
}
