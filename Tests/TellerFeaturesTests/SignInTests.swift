import Foundation
import Testing
import TellerCore
@testable import TellerFeatures
import TellerFakes

@MainActor
@Suite struct SignInTests {
    func signInModel(_ h: FeatureHarness) async throws -> SignInViewModel {
        await h.coordinator.start()
        return try #require(h.coordinator.current.signIn)
    }

    @Test func operatorIDThenMaskedPIN() async throws {
        let h = FeatureHarness()
        let model = try await signInModel(h)
        #expect(model.prompt == "Operator ID")
        for digit in "1001" { model.press(digit: digit) }
        #expect(model.fieldText == "1001")
        await model.enter()
        #expect(model.prompt == "PIN for operator 1001")
        for digit in "12" { model.press(digit: digit) }
        #expect(model.fieldText == "••")
        #expect(model.fieldAccessibilityValue == "2 digits entered")
        model.backspace()
        #expect(model.fieldText == "•")
    }

    @Test func shortOperatorIDIsRefused() async throws {
        let h = FeatureHarness()
        let model = try await signInModel(h)
        for digit in "10" { model.press(digit: digit) }
        await model.enter()
        #expect(model.message == "An operator ID is 4 to 8 digits.")
        #expect(model.step == .operatorID)
    }

    @Test func wrongPINsCountDownToALockoutWithItsTime() async throws {
        let h = FeatureHarness()
        let model = try await signInModel(h)
        for digit in "1001" { model.press(digit: digit) }
        await model.enter()
        for expected in ["Wrong PIN. 2 attempts left.", "Wrong PIN. 1 attempt left.", "Too many wrong PINs. Try again at 08:07."] {
            for digit in "0000" { model.press(digit: digit) }
            await model.enter()
            #expect(model.message == expected)
        }
        #expect(model.isError)
        #expect(h.coordinator.phase == .signedOut)
    }

    @Test func offlineNoteAndNeverSeenOnline() async throws {
        let h = FeatureHarness(online: false)
        await h.session.setOnline(false)
        let model = try await signInModel(h)
        #expect(model.offlineNote == "Offline: only operators who have signed in on this terminal before can sign in.")
        for digit in "1002" { model.press(digit: digit) }
        await model.enter()
        for digit in "2580" { model.press(digit: digit) }
        await model.enter()
        #expect(model.message == "Operator 1002 has never signed in online on this terminal, so cannot sign in offline.")
        // The known operator signs in offline.
        model.back()
        for _ in 0..<4 { model.backspace() }
        for digit in "1001" { model.press(digit: digit) }
        await model.enter()
        for digit in "1234" { model.press(digit: digit) }
        await model.enter()
        #expect(h.coordinator.signInMode == .offline)
    }
}
