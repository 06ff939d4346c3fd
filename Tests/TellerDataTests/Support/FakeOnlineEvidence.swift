import TellerData

/// The store's online evidence as a test sets it. `online` is whether the
/// bank answered recently and whether it answers a proof, unless `recent`
/// pins the first.
final class FakeOnlineEvidence: OnlineEvidence, @unchecked Sendable {
    var online: Bool
    var recent: Bool?
    var believed = false
    /// How often the store asked the bank to prove it answers.
    var proofsAsked = 0

    init(online: Bool, recent: Bool? = nil) {
        self.online = online
        self.recent = recent
    }

    func bankAnsweredRecently() -> Bool { recent ?? online }
    func believedOnline() -> Bool { believed }
    func proveOnline() async -> Bool {
        proofsAsked += 1
        return online
    }
}
