import Testing
@testable import TellerQA

/// What a golden comparison leaves out because it changes from run to run,
/// and what it keeps comparing.
@Suite struct GoldenComparisonTests {
    @Test(arguments: ["08:28", "6 Dec 2026 04:41", "BD84C54A", "12345678", "Deposit 4992EB20 · Wrong amount",
                      "Receipt BD84C54A", "Synced 08:02"])
    func changesFromRunToRun(_ text: String) {
        #expect(GoldenComparison.isVolatile(text), "\(text)")
    }

    @Test(arguments: ["3,270.00 EUR", "Deposit · Wrong amount", "DE54 5001 0517 0426 3971 58", "Sabine Roth (2001)",
                      "ABCDEF123", "xBD84C54A", "T-0001"])
    func staysCompared(_ text: String) {
        #expect(!GoldenComparison.isVolatile(text), "\(text)")
    }
}
