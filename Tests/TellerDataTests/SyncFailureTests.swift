import Testing
@testable import TellerData

/// The drain's error classes, decided from the host's error in one place.
@Suite struct SyncFailureTests {
    @Test func eachHostErrorHasItsClass() {
        #expect(SyncFailure(.cancelled) == .stopping)
        #expect(SyncFailure(.keyReused(detail: "other body")) == .needsReview)
        #expect(SyncFailure(.badRequest(code: "invalid", field: "amount", detail: "negative")) == .needsReview)
        #expect(SyncFailure(.mismatch("another key")) == .mismatch)
        #expect(SyncFailure(.offline("no route")) == .retry(after: nil))
        #expect(SyncFailure(.retryable(status: 503, code: nil, retryAfter: 30)) == .retry(after: 30))
        #expect(SyncFailure(.inProgress(retryAfter: 2)) == .retry(after: 2))
    }
}
