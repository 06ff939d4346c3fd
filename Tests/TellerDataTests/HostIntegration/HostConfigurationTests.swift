@testable import ProcessHarness
import Foundation
import Testing
@testable import TellerData
@testable import HostTransport

/// Plain http only to loopback unless the configuration says otherwise. No network.
@Suite struct HostConfigurationTests {
    @Test(arguments: ["http://127.0.0.1:8480", "http://127.1.2.3", "http://localhost:8480/", "http://[::1]:8480", "https://bank.example", "https://10.0.0.5:8443"])
    func loopbackHTTPAndAnyHTTPSAreAccepted(_ address: String) throws {
        let configuration = try HostConfiguration(baseURL: URL(string: address)!)
        #expect(configuration.baseURL.absoluteString == address)
        #expect(!configuration.allowInsecureHTTP)
    }

    @Test(arguments: ["http://10.0.0.5:8480", "http://bank.example", "http://127.bank.example", "http://192.168.1.10", "http://[fe80::1]:8480"])
    func plainHTTPToAnyOtherHostIsRefused(_ address: String) throws {
        #expect(throws: HostError.self) { try HostConfiguration(baseURL: URL(string: address)!) }
        do {
            _ = try HostConfiguration(baseURL: URL(string: address)!)
        } catch {
            guard case .insecureURL(let message) = error else {
                Issue.record("expected insecureURL, got \(error)")
                return
            }
            #expect(message.contains("allow_insecure_http"), "the message names the switch: \(message)")
        }
        // ...unless a lab bench explicitly allows it.
        let allowed = try HostConfiguration(baseURL: URL(string: address)!, allowInsecureHTTP: true)
        #expect(allowed.allowInsecureHTTP)
    }

    @Test(arguments: ["ftp://127.0.0.1/", "file:///var/lib/teller", "/v1/health"])
    func somethingThatIsNotAnHTTPURLIsRefused(_ address: String) throws {
        let url = try #require(URL(string: address))
        #expect(throws: HostError.self) { try HostConfiguration(baseURL: url, allowInsecureHTTP: true) }
    }
}
