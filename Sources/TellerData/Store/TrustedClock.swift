import FoundationEssentials
import Synchronization
import TellerCore

/// The terminal's time, as far as it can be trusted. Boards without a
/// real-time clock boot at 1970, or at the time saved at the last shutdown,
/// until NTP corrects them; a clock is input like any other.
///
/// The floor is the newest time the terminal knows has passed: the bank's
/// `Date` on its last good answer, the last committed row's time, and the
/// binary's build date. From the moment it is learnt, the floor advances
/// with the monotonic clock, which no `date -s` moves. A wall clock below
/// it is wrong: ``now()`` stamps from the floor instead and
/// ``isVerified`` is false ("Clock not set"). The bank's own time, when it
/// has been heard in this run, is the reference instead of the floor: a
/// clock corrected after booting in the future is right again at once.
public final class TrustedClock: WallClock, Sendable {
    private struct State {
        /// The newest time known to have passed, and when (monotonic) that was so.
        var floor: Date
        var floorAt: ContinuousClock.Instant
        /// The bank's time and when it was heard, if it was in this run.
        var bank: (date: Date, at: ContinuousClock.Instant)?
    }

    /// How far the wall clock may lag the reference before it counts as not set
    /// (the bank's Date has one-second resolution and travels a network).
    public static let slack: TimeInterval = 120

    private let system: any WallClock
    private let state: Mutex<State>

    /// - Parameter floor: the newest of the binary's build date and the last committed row's time.
    public init(floor: Date, system: any WallClock = SystemClock()) {
        self.system = system
        state = Mutex(State(floor: floor, floorAt: .now, bank: nil))
    }

    /// The reference at this instant: the bank's time carried forward when
    /// it was heard in this run, otherwise the floor carried forward; and
    /// whether it is the bank's.
    private var reference: (date: Date, isBank: Bool) {
        state.withLock { state in
            if let bank = state.bank { return (bank.date.addingTimeInterval((ContinuousClock.now - bank.at).seconds), true) }
            return (state.floor.addingTimeInterval((ContinuousClock.now - state.floorAt).seconds), false)
        }
    }

    /// The wall clock when it is plausible, else the reference.
    public func now() -> Date { stamp().date }

    /// ``now()`` and ``isVerified`` from one reading of both clocks, for a
    /// row's time and its `clock_unverified` flag: asked one after the
    /// other, they could fall on either side of a clock step and disagree.
    /// Not verified when the wall clock is behind the reference (or, once
    /// the bank has been heard, off from its time): "Clock not set".
    public func stamp() -> (date: Date, isVerified: Bool) {
        let wall = system.now()
        let reference = self.reference
        let offset = wall.timeIntervalSince(reference.date)
        let plausible = reference.isBank ? abs(offset) <= Self.slack : offset >= -Self.slack
        return plausible ? (wall, true) : (reference.date, false)
    }

    /// A row was committed at `date` (as stamped by this clock): time has passed at least that far.
    public func committed(at date: Date) {
        state.withLock { state in
            let current = state.floor.addingTimeInterval((ContinuousClock.now - state.floorAt).seconds)
            if date > current {
                state.floor = date
                state.floorAt = .now
            }
        }
    }

    /// The bank answered with this `Date`: from now on its time is the reference.
    public func bankSaid(_ date: Date) {
        state.withLock { state in
            state.bank = (date, .now)
            state.floor = date
            state.floorAt = .now
        }
    }


    /// An RFC 9110 HTTP-date ("Sun, 06 Nov 1994 08:49:37 GMT"), or nil.
    public static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), (1...31).contains(day), (1970...9999).contains(year) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), no calendar or time zone database needed.
        let y = month < 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = month + 1
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }
}

extension Duration {
    /// The duration in seconds, for arithmetic with `Date` and `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
