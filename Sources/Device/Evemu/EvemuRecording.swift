/// A device description plus the events it produced, in evemu-record's text format.
///
/// The format (evemu 1.3, what `evemu-record` writes):
/// ```
/// # comments start with '#', anywhere on a line
/// N: <device name>
/// I: <bustype> <vendor> <product> <version>        (hex)
/// P: <8 property bitmask bytes>                    (hex, repeated)
/// B: <type> <8 code bitmask bytes>                 (hex, repeated per type)
/// A: <code> <min> <max> <fuzz> <flat> [<resolution>]  (code hex, rest decimal)
/// L: <led code> <state>
/// S: <switch code> <state>
/// E: <sec>.<usec> <type> <code> <value>            (type and code hex, value decimal)
/// ```
/// Bitmask bytes are little-endian bit order: bit n of byte k is code 8·k+n;
/// successive lines for the same type continue where the last one ended.
/// The `B: 00` line (event types) is written but not trusted on reading,
/// because libevemu always writes `B: 00 0b`: a type exists when it has codes.
public struct EvemuRecording: Hashable, Sendable {
    public var capabilities: InputCapabilities
    public var ledStates: [EventCode: Int32]
    public var switchStates: [EventCode: Int32]
    public var events: [InputEvent]

    public init(capabilities: InputCapabilities, ledStates: [EventCode: Int32] = [:], switchStates: [EventCode: Int32] = [:], events: [InputEvent] = []) {
        self.capabilities = capabilities
        self.ledStates = ledStates
        self.switchStates = switchStates
        self.events = events
    }
}
