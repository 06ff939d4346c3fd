import Testing
@testable import TellerData

/// Host answers tools/fuzz found that stopped the process (docs/qa.md,
/// "Fuzzing"), kept as ordinary tests.
struct HostAnswerFuzzRegressionTests {
    /// A 503 whose `Retry-After` is 1e300, inf or nan: `HostError.description`
    /// converted the seconds with `Int(_:)` and trapped, and
    /// HostConnection.send describes every retryable answer for the
    /// reachability: a proxy's garbage header ended the terminal. Found by
    /// the host-answer target; the first byte 0x1a is status 503 with
    /// Content-Type application/problem+json.
    @Test(arguments: ["1e300", "inf", "nan", "-5", "99999999999999999999"])
    func aGarbageRetryAfterIsIgnoredNotTrappedOn(_ retryAfter: String) {
        HostAnswerFuzzing.exercise([0x1a] + Array(retryAfter.utf8) + [0] + Array(#"{"code":"maintenance"}"#.utf8))
        let response = HostResponse(status: 503, headers: ["retry-after": retryAfter, "content-type": "application/problem+json"], body: .init())
        #expect(response.retryAfter == nil)
        #expect(HostMapper.error(for: response).description.hasPrefix("host busy or failing (503"))
    }
}
