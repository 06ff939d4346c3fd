import CEvdev

extension InputEvent {
    /// Size of one `struct input_event` as read(2) returns it from /dev/input/eventN.
    public static let kernelSize = MemoryLayout<input_event>.size

    /// The event as the kernel lays it out (what uinput takes and evdev gives).
    public var kernelBytes: [UInt8] {
        withUnsafeBytes(of: raw) { Array($0) }
    }

    /// Events in `bytes`, which hold whole `struct input_event`s back to back
    /// (a trailing partial event is ignored, as the kernel never returns one).
    public static func decodeKernelEvents(_ bytes: UnsafeRawBufferPointer) -> [InputEvent] {
        stride(from: 0, to: bytes.count - kernelSize + 1, by: kernelSize).map { offset in
            InputEvent(bytes.loadUnaligned(fromByteOffset: offset, as: input_event.self))
        }
    }
}
