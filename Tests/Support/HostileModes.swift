/// Every way `teller-hostile-host` answers wrongly, with the problem class
/// the terminal must name for it (SyncProblem.Kind's raw value) and where
/// the rows end up. One table for the `teller drain` and `teller run` tests.
struct HostileMode: CustomStringConvertible, Sendable {
    let mode: String
    let problem: String
    /// "queued" (retried) or "needsReview" (answered for another request).
    let rowState: String
    /// Whether the status bar says "Connection: host problem" rather than "Connection: offline".
    var isHostProblem: Bool { problem != "offline" && problem != "timeout" }
    var isRedirect: Bool { mode.hasPrefix("redirect-") }
    var description: String { mode }

    static let all: [HostileMode] = [
        HostileMode(mode: "malformed-json", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "huge-body", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "html-500", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "captive-portal", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "drip-headers", problem: "timeout", rowState: "queued"),
        HostileMode(mode: "drip-body", problem: "timeout", rowState: "queued"),
        HostileMode(mode: "wrong-content-type", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "wrong-content-type-html", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "ok-text-plain", problem: "notUnderstood", rowState: "queued"),
        HostileMode(mode: "unauthorized", problem: "authentication", rowState: "queued"),
        HostileMode(mode: "reset", problem: "offline", rowState: "queued"),
        HostileMode(mode: "other-key", problem: "mismatch", rowState: "needsReview"),
        HostileMode(mode: "wrong-amount", problem: "mismatch", rowState: "needsReview"),
        HostileMode(mode: "wrong-account", problem: "mismatch", rowState: "needsReview"),
        HostileMode(mode: "wrong-kind", problem: "mismatch", rowState: "needsReview"),
        HostileMode(mode: "wrong-currency", problem: "mismatch", rowState: "needsReview"),
        HostileMode(mode: "redirect-302", problem: "redirectRefused", rowState: "queued"),
        HostileMode(mode: "redirect-307", problem: "redirectRefused", rowState: "queued"),
    ]
}
