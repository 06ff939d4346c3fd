@testable import ProcessHarness
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Two network namespaces, one for the host and one for the terminal,
/// joined by a veth pair. The addresses (one private /30) exist only inside
/// the two namespaces; nothing is added to the machine's own namespace.
final class VethBench: @unchecked Sendable {
    static let hostAddress = "10.254.91.1"
    static let terminalAddress = "10.254.91.2"
    static let prefixLength = 30

    /// Root can create namespaces; anyone else cannot.
    static var isAvailable: Bool { getuid() == 0 && ChildProcess.locate("ip") != nil }

    let hostNamespace: String
    let terminalNamespace: String
    /// The veth end inside the host's namespace: setting it down cuts the
    /// terminal's carrier, so its packets vanish instead of being refused.
    let hostInterface: String
    let terminalInterface: String
    private var created = false

    init() {
        // Unique per run; interface names stay under the kernel's 15 characters.
        let tag = String(format: "%06x", UInt32.random(in: 0..<0xFF_FFFF))
        hostNamespace = "teller-host-\(tag)"
        terminalNamespace = "teller-term-\(tag)"
        hostInterface = "tvh\(tag)"
        terminalInterface = "tvt\(tag)"
    }

    deinit { remove() }

    /// Creates both namespaces and the link, up, with addresses.
    func create() async throws {
        created = true
        try await ip("netns", "add", hostNamespace)
        try await ip("netns", "add", terminalNamespace)
        // IPv4 only: IPv6 duplicate-address detection would add addresses
        // seconds later, and each is a wake the test did not ask for.
        for namespace in [hostNamespace, terminalNamespace] {
            try await ip("netns", "exec", namespace, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1")
        }
        // Created inside the terminal's namespace with its peer placed straight into the host's.
        try await ip("-n", terminalNamespace, "link", "add", terminalInterface, "type", "veth", "peer", "name", hostInterface, "netns", hostNamespace)
        for (namespace, interface, address) in [(hostNamespace, hostInterface, Self.hostAddress), (terminalNamespace, terminalInterface, Self.terminalAddress)] {
            try await ip("-n", namespace, "addr", "add", "\(address)/\(Self.prefixLength)", "dev", interface)
            try await ip("-n", namespace, "link", "set", "lo", "up")
            try await ip("-n", namespace, "link", "set", interface, "up")
        }
    }

    func setHostSide(up: Bool) async throws {
        try await ip("-n", hostNamespace, "link", "set", hostInterface, up ? "up" : "down")
    }

    /// The terminal's neighbour (ARP) entries, as `ip neigh show` prints them.
    func terminalNeighbourState() async throws -> String {
        try await ChildProcess.run(try ChildProcess.ip(), ["-n", terminalNamespace, "neigh", "show"]).stdout
    }

    /// Deletes both namespaces (and with them the veth pair). Safe to call twice.
    func remove() {
        if created, let ip = try? ChildProcess.ip() {
            created = false
            for namespace in [hostNamespace, terminalNamespace] {
                if let child = try? ChildProcess(ip, ["netns", "delete", namespace]) { child.waitBlocking() }
            }
        }
    }

    /// Whether a namespace of this bench is still listed by `ip netns`.
    func leftovers() async throws -> [String] {
        let listing = try await ChildProcess.run(try ChildProcess.ip(), ["netns", "list"]).stdout
        return [hostNamespace, terminalNamespace].filter { listing.contains($0) }
    }

    private func ip(_ arguments: String...) async throws {
        let result = try await ChildProcess.run(try ChildProcess.ip(), arguments)
        guard result.status == 0 else { throw ChildProcessError.failed("ip " + arguments.joined(separator: " "), result.status, result.stderr) }
    }
}
