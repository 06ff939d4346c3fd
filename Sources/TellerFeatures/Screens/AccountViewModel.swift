import FoundationEssentials
import Observation
import TellerCore

/// An account in two paints: the cached snapshot at once, the host's fresh
/// one when it arrives. With no signal the cache stays, with "updated HH:MM".
@MainActor @Observable
public final class AccountViewModel {
    /// One line of recent activity, already formatted.
    public struct ActivityLine: Hashable, Sendable {
        public let id: String
        public let title: String
        public let amount: String
        public let detail: String
        /// "Queued" for this terminal's own rows not yet at the host.
        public let badge: String?
    }

    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    public let iban: IBAN
    public private(set) var state: LoadState<AccountSnapshot> = .idle
    public private(set) var pending: [OutboxEntry] = []

    init(dependencies: FeatureDependencies, navigator: any Navigator, iban: IBAN) {
        self.dependencies = dependencies
        self.navigator = navigator
        self.iban = iban
    }

    public var title: String { state.value.map { Localization.verbatim($0.holder) } ?? tr("Account") }
    public var ibanText: String { iban.displayed() }
    public var balanceLabel: String { tr("Balance") }
    public var availableLabel: String { tr("Available") }
    public var balanceText: String { state.value.map { MoneyFormatting.text($0.balance) } ?? "—" }
    public var availableText: String { state.value.map { MoneyFormatting.text($0.available) } ?? "—" }

    /// "updated 08:02" while the figures come from the cache; nil when fresh.
    public var freshnessText: String? {
        switch state {
        case .loaded(_, .cached(let asOf)): dependencies.time.updated(asOf, now: dependencies.now(shownBy: navigator))
        case .loading: tr("Loading…")
        default: nil
        }
    }

    /// A quiet message; never an error wall over figures already shown.
    public var message: String? {
        switch state {
        case .failed(.offline): tr("The bank's host cannot be reached and this account was never loaded on this terminal.")
        case .failed(let error): ErrorText.text(error)
        default: nil
        }
    }

    public var depositTitle: String { tr("Deposit") }
    public var withdrawTitle: String { tr("Withdraw") }
    public var transferTitle: String { tr("Transfer") }
    public var backTitle: String { tr("Back") }
    public var activityTitle: String { tr("Recent activity") }
    public var noActivityText: String { tr("No recent activity.") }
    public var canTransact: Bool { state.value != nil }

    /// The queued payments of the account listed one by one in its recent
    /// activity, newest first; the rest are counted on one line. A field team
    /// may queue hundreds for one account while offline, and each listed row
    /// is laid out and drawn (the queue screen lists them all).
    public static let queuedRowsShown = 10

    public var activity: [ActivityLine] {
        let now = dependencies.now(shownBy: navigator)
        var own = pending.prefix(Self.queuedRowsShown).map { entry in
            ActivityLine(
                id: entry.key.rawValue, title: Self.kindTitle(entry.request.kind),
                amount: MoneyFormatting.signed(entry.request.kind.isDebit ? (try? entry.request.amount.negated()) ?? entry.request.amount : entry.request.amount),
                detail: dependencies.time.dayAndClock(entry.createdAt, now: now), badge: tr("Queued"))
        }
        let more = pending.count - own.count
        if more > 0 {
            own.append(ActivityLine(id: "queued-more", title: trn("1 more queued payment", "{count} more queued payments", count: more),
                                    amount: "", detail: tr("All of them are on the Queue screen"), badge: tr("Queued")))
        }
        let host = (state.value?.recent ?? []).map { item in
            ActivityLine(id: item.reference, title: Self.kindTitle(item.kind), amount: MoneyFormatting.signed(item.amount),
                         detail: [dependencies.time.dayAndClock(item.bookedAt, now: now), Localization.verbatim(item.description)].filter { !$0.isEmpty }.joined(separator: " · "),
                         badge: nil)
        }
        return own + host
    }

    nonisolated static func kindTitle(_ kind: TransactionKind) -> String {
        switch kind {
        case .deposit: tr("Deposit")
        case .withdrawal: tr("Withdrawal")
        case .transfer: tr("Transfer")
        }
    }

    /// First paint from the cache, second from the host.
    public func load() async {
        if state.value == nil { state = .loading }
        await refreshPending()
        do throws(TellerError) {
            if let cached = try await dependencies.accounts.cachedSnapshot(for: iban) {
                state = .loaded(cached, .cached(asOf: cached.asOf))
            }
        } catch {
            state = .failed(error)
        }
        do throws(TellerError) {
            let fresh = try await dependencies.accounts.freshSnapshot(for: iban)
            state = .loaded(fresh, .fresh)
        } catch {
            // Keep cached figures on screen; only an empty screen shows the error.
            if state.value == nil { state = .failed(error) }
        }
    }

    func refreshPending() async {
        pending = (try? await dependencies.outbox.pendingEntries(for: iban)) ?? pending
    }

    public func deposit() { navigator?.push(.amount(iban, .deposit)) }
    public func withdraw() { navigator?.push(.amount(iban, .withdrawal)) }
    public func transfer() { navigator?.push(.amount(iban, .transfer)) }
    public func back() { navigator?.pop() }
}

extension AccountViewModel: ScreenViewModel {
    public var screenName: String { "account" }
    public var screenKind: ScreenKind { .account(self) }
    public func appeared() async { await load() }
    public func handle(_ event: SyncEvent) async { await refreshPending() }
}
