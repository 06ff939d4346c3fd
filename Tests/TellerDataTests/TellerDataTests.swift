import Testing
@testable import TellerData
