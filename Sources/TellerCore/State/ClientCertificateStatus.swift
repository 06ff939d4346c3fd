import FoundationEssentials

/// The terminal's own certificate for mutual TLS as monitoring, status and
/// the technician's screen report it: whom it names, until when, and
/// whether it is time to renew it.
public struct ClientCertificateStatus: Hashable, Sendable {
    /// The subject's commonName: the terminal id the bank maps it to.
    public var subject: String
    public var issuer: String
    public var notBefore: Date
    public var notAfter: Date
    /// `client_cert_warn_days`: how long before `notAfter` the terminal warns.
    public var warnDays: Int

    public init(subject: String, issuer: String, notBefore: Date, notAfter: Date, warnDays: Int) {
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.warnDays = warnDays
    }

    /// Whole days from `now` until it expires; negative once it has.
    public func daysLeft(at now: Date) -> Int {
        Int((notAfter.timeIntervalSince(now) / 86_400).rounded(.down))
    }

    /// Expired, or not valid yet: the bank refuses it now.
    public func isInvalid(at now: Date) -> Bool { notAfter <= now || notBefore > now }

    /// Time to renew: fewer than `warnDays` days left, or not valid now.
    public func needsRenewal(at now: Date) -> Bool { isInvalid(at: now) || daysLeft(at: now) < warnDays }
}
