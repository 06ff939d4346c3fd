import Foundation
import Testing
import TellerCore
import TellerFeatures

/// Dates and times per language, through an explicit format on
/// ``TimeFormatting`` (the process-wide language stays English).
@Suite struct RegionalTimeFormattingTests {
    static let afternoon = try! Date("2026-12-01T14:05:00Z", strategy: .iso8601)
    static let nextDay = try! Date("2026-12-02T09:00:00Z", strategy: .iso8601)

    static func time(_ language: Language, _ digits: RegionalFormat.Digits = .latin) -> TimeFormatting {
        TimeFormatting(zone: .utc, format: RegionalFormat(language: language, digits: digits))
    }

    @Test func anotherDayWithTheDatePerLanguage() {
        #expect(Self.time(.english).dayAndClock(Self.afternoon, now: Self.nextDay) == "1 Dec 14:05")
        #expect(Self.time(.german).dayAndClock(Self.afternoon, now: Self.nextDay) == "01.12.2026 14:05")
        #expect(Self.time(.spanish).dayAndClock(Self.afternoon, now: Self.nextDay) == "01/12/2026 14:05")
        #expect(Self.time(.arabic).dayAndClock(Self.afternoon, now: Self.nextDay) == "\u{2066}01/12/2026 14:05\u{2069}")
        #expect(Self.time(.arabic, .native).dayAndClock(Self.afternoon, now: Self.nextDay) == "\u{2066}٠١/١٢/٢٠٢٦ ١٤:٠٥\u{2069}")
    }

    @Test func todayIsTheClockAlone() {
        let later = Self.afternoon.addingTimeInterval(3600)
        #expect(Self.time(.german).dayAndClock(Self.afternoon, now: later) == "14:05")
        #expect(Self.time(.arabic, .native).clock(Self.afternoon) == "\u{2066}١٤:٠٥\u{2069}")
        #expect(Self.time(.arabic).clock(Self.afternoon) == "\u{2066}14:05\u{2069}")
    }

    @Test func relativeTimesAndUpdatedReadTheSameInEnglish() {
        let en = Self.time(.english)
        #expect(en.relative(Self.afternoon.addingTimeInterval(-20), now: Self.afternoon) == "just now")
        #expect(en.relative(Self.afternoon.addingTimeInterval(-60), now: Self.afternoon) == "1 min ago")
        #expect(en.relative(Self.afternoon.addingTimeInterval(-3600), now: Self.afternoon) == "1 h ago")
        #expect(en.relative(Self.afternoon.addingTimeInterval(-86_400), now: Self.afternoon) == "1 day ago")
        #expect(en.relative(Self.afternoon.addingTimeInterval(-86_400 * 3), now: Self.afternoon) == "3 days ago")
        #expect(en.updated(Self.afternoon, now: Self.nextDay) == "updated 1 Dec 14:05")
    }

    @Test func relativeCountsTakeTheFormatsDigits() {
        // The words come from the catalog (English here); the count is the format's.
        let ar = Self.time(.arabic, .native)
        #expect(ar.relative(Self.afternoon.addingTimeInterval(-120), now: Self.afternoon) == "٢ min ago")
    }

    @Test func timestampsForTheTechnicianAreNeverLocalized() {
        #expect(Self.time(.arabic, .native).timestamp(Self.afternoon) == "2026-12-01T14:05:00Z")
    }
}
