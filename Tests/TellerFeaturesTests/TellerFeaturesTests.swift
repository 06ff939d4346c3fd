import Testing
@testable import TellerFeatures
