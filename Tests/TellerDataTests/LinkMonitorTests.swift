import CNetlink
import Glibc
import Testing
@testable import TellerData
@testable import HostTransport

/// What the link monitor makes of the kernel's rtnetlink messages, built
/// here in the kernel's own layout (`nlmsghdr`, then `ifinfomsg` or
/// `ifaddrmsg`): a link that stops running wakes the engine as surely as
/// one that starts, so a cut shows at once.
@Suite struct LinkMonitorTests {
    static func message(type: Int32, flags: UInt32 = 0, index: Int32 = 2) -> [UInt8] {
        var info = ifinfomsg()
        info.ifi_family = UInt8(AF_UNSPEC)
        info.ifi_index = index
        info.ifi_flags = flags
        var header = nlmsghdr()
        header.nlmsg_len = UInt32(MemoryLayout<nlmsghdr>.size + MemoryLayout<ifinfomsg>.size)
        header.nlmsg_type = UInt16(type)
        return withUnsafeBytes(of: header) { Array($0) } + withUnsafeBytes(of: info) { Array($0) }
    }

    static let up = UInt32(IFF_UP.rawValue)
    static let running = UInt32(IFF_RUNNING.rawValue)
    static let loopback = UInt32(IFF_LOOPBACK.rawValue)

    @Test func linksComingAndGoingAreBothChanges() {
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_NEWLINK), flags: Self.up | Self.running)[...]) == "link up (ifindex 2)")
        // Carrier lost: still administratively up, no longer running.
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_NEWLINK), flags: Self.up, index: 3)[...]) == "link down (ifindex 3)")
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_NEWLINK), flags: 0)[...]) == "link down (ifindex 2)")
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_DELLINK), flags: Self.up | Self.running)[...]) == "link removed (ifindex 2)")
    }

    @Test func addressesComingAndGoingAreBothChanges() {
        var added = Self.message(type: Int32(RTM_NEWADDR))
        #expect(LinkMonitor.interestingChange(in: added[...]) == "address added")
        added[4] = UInt8(RTM_DELADDR)
        #expect(LinkMonitor.interestingChange(in: added[...]) == "address removed")
    }

    @Test func theLoopbackAndDamagedMessagesAreNotChanges() {
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_NEWLINK), flags: Self.loopback)[...]) == nil)
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_NEWLINK), flags: Self.loopback | Self.up | Self.running)[...]) == nil)
        // A header whose length runs past the bytes read is left alone.
        #expect(LinkMonitor.interestingChange(in: Self.message(type: Int32(RTM_NEWLINK), flags: Self.up).dropLast(4)) == nil)
        #expect(LinkMonitor.interestingChange(in: [UInt8](repeating: 0, count: 3)[...]) == nil)
        // The loopback first, a real link after it in the same batch: the real one counts.
        let batch = Self.message(type: Int32(RTM_NEWLINK), flags: Self.loopback) + Self.message(type: Int32(RTM_NEWLINK), flags: Self.up, index: 4)
        #expect(LinkMonitor.interestingChange(in: batch[...]) == "link down (ifindex 4)")
    }
}
