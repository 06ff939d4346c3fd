import Testing
@testable import TellerCore
