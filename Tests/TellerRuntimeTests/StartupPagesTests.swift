import Testing
@testable import TellerRuntime

/// `StartupPages` may advise only pages that hold nothing but the file's
/// own bytes: a written page given `MADV_DONTNEED` would come back as the
/// file's unrelocated bytes.
struct StartupPagesTests {
    private let page: UInt = 0x1000

    private func load(_ start: UInt, _ size: UInt, writable: Bool) -> StartupPages.Segment {
        .init(kind: .loaded, writable: writable, start: start, size: size)
    }

    @Test func onlyWholePagesOfReadOnlySegments() {
        let segments = [
            load(0x1000, 0x2800, writable: false),  // text: its last page is partly the next segment's
            load(0x3800, 0x1900, writable: false),  // read-only data, shares a page at each end
            load(0x5100, 0x2000, writable: true),   // data
        ]
        #expect(StartupPages.releasable(segments, pageSize: page) == [
            .init(start: 0x1000, end: 0x3000),
            .init(start: 0x4000, end: 0x5000),
        ])
    }

    @Test func neverARelocatedPage() {
        // A RELRO range is written by the loader and then made read-only.
        let segments = [
            load(0x1000, 0x4000, writable: false),
            .init(kind: .relocatedReadOnly, writable: false, start: 0x1000, size: 0x1800),
        ]
        #expect(StartupPages.releasable(segments, pageSize: page) == [.init(start: 0x3000, end: 0x5000)])
    }

    @Test func nothingWhenNoWholePageIsReadOnly() {
        let segments = [load(0x1100, 0x800, writable: false), load(0x2000, 0x1000, writable: true)]
        #expect(StartupPages.releasable(segments, pageSize: page).isEmpty)
    }

    /// The real thing, in this test process: every object is looked at, the
    /// kernel takes every range, and code in the released pages still runs.
    @Test func theRunningProcessKeepsWorking() {
        let released = StartupPages.release()
        #expect(released.objects > 1)
        #expect(released.bytes > 0)
        #expect(released.refused == 0)
        let words = (1...1000).map { "word \($0)" }.joined(separator: " ")
        #expect(words.split(separator: " ").count == 2000)
        #expect(StartupPages.release().refused == 0)
    }
}
