import Testing
@testable import TellerCore

/// The background loops' pause: a wake ends it, a wake while nobody sleeps
/// is kept for the next sleep, the timer ends it otherwise, and a cancelled
/// sleeper returns. The long delay is never waited out when the wake works:
/// it only turns a lost wake into a failure (`timedOut`) rather than a hang.
@Suite struct WakeupTests {
    static let long = Duration.seconds(10)

    @Test func aWakeWhileNobodySleepsEndsTheNextSleepAtOnce() async {
        let wakeup = Wakeup()
        wakeup.wake()
        #expect(await wakeup.sleep(for: Self.long) == .woken)
    }

    @Test func aKeptWakeIsTakenOnce() async {
        let wakeup = Wakeup()
        wakeup.wake()
        wakeup.wake()
        #expect(await wakeup.sleep(for: .zero) == .woken)
        #expect(await wakeup.sleep(for: .milliseconds(1)) == .timedOut)
    }

    @Test func aWakeEndsASleepUnderWay() async {
        let wakeup = Wakeup()
        let sleeper = Task { await wakeup.sleep(for: Self.long) }
        // Until the sleeper is in place a wake is kept instead; either way it returns woken.
        wakeup.wake()
        #expect(await sleeper.value == .woken)
        // The wake was used: nothing is kept for the next sleep.
        #expect(await wakeup.sleep(for: .milliseconds(1)) == .timedOut)
    }

    @Test func theTimerEndsASleepNobodyWakes() async {
        let wakeup = Wakeup()
        #expect(await wakeup.sleep(for: .milliseconds(5)) == .timedOut)
    }

    @Test func theTimerOfAnEarlierSleepNeverEndsALaterOne() async {
        let wakeup = Wakeup()
        wakeup.wake()
        #expect(await wakeup.sleep(for: .milliseconds(10)) == .woken)
        let first = Task { await wakeup.sleep(for: .milliseconds(10)) }
        wakeup.wake()
        #expect(await first.value == .woken)
        let later = Task { await wakeup.sleep(for: Self.long) }
        // Well past the earlier sleeps' 10 ms.
        try? await Task.sleep(for: .milliseconds(100))
        wakeup.wake()
        #expect(await later.value == .woken)
    }

    @Test func cancellingTheSleeperEndsItsSleep() async {
        let wakeup = Wakeup()
        let sleeper = Task { await wakeup.sleep(for: Self.long) }
        sleeper.cancel()
        #expect(await sleeper.value == .woken)
    }
}
