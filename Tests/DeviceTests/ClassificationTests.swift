import Testing
@testable import Device
