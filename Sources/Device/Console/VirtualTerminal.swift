import SystemCalls
import CDRM
import Glibc

/// A Linux virtual terminal (/dev/ttyN): the console the display draws
/// over. Its display mode decides whether the kernel's fbcon draws console
/// text there, its keyboard mode whether the console takes keys (typing,
/// Ctrl+Alt+Fn, Ctrl+Alt+Del); both stay as set after the descriptor is
/// closed, while Teller restarts too.
///
/// Reading needs no privilege; changing a VT needs root (CAP_SYS_TTY_CONFIG).
/// Not thread-safe; closes its descriptor when released.
public final class VirtualTerminal {
    public let path: String
    /// N of /dev/ttyN, by which VT_ACTIVATE and VT_GETSTATE name it.
    public let number: Int
    private let file: DeviceFile

    /// Opens `path` and makes sure it is one numbered VT before anything is changed.
    ///
    /// Opened without becoming the controlling terminal (a service is a
    /// session leader) and without waiting for a carrier (a serial port
    /// named by mistake fails at once instead of hanging).
    /// - Throws: ``ConsoleError`` naming `path`: no such node, not a VT
    ///   (KDGETMODE refused: /dev/null, a regular file, a serial port), or a
    ///   console that is not one numbered VT (/dev/tty0, /dev/console).
    public init(path: String) throws(ConsoleError) {
        self.path = path
        do { file = try DeviceFile(path: path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK) }
        catch { throw .failed("open", path, error.errno) }
        _ = try Self.displayMode(of: file)
        let device = FileStatus(descriptor: file.descriptor)?.device
        guard let device, device.major == UInt32(TTY_MAJOR), (1...UInt32(MAX_NR_CONSOLES)).contains(device.minor) else {
            throw ConsoleError(kind: .notNumbered(device), path: path, operation: nil, errno: nil)
        }
        number = Int(device.minor)
    }

    /// KDGETMODE: whether fbcon draws text on this VT.
    public func displayMode() throws(ConsoleError) -> ConsoleDisplayMode {
        try Self.displayMode(of: file)
    }

    /// KDGKBMODE: what the console keyboard does on this VT.
    public func keyboardMode() throws(ConsoleError) -> ConsoleKeyboardMode {
        var mode: Int32 = 0
        do { try file.descriptor.ioctl(UInt(KDGKBMODE), &mode) }
        catch { throw .failed("KDGKBMODE", path, error.errno) }
        return ConsoleKeyboardMode(rawValue: mode)
    }

    /// KDSETMODE.
    public func setDisplayMode(_ mode: ConsoleDisplayMode) throws(ConsoleError) {
        do { try file.descriptor.ioctl(UInt(KDSETMODE), value: mode.rawValue) }
        catch { throw .failed("KDSETMODE \(mode)", path, error.errno) }
    }

    /// KDSKBMODE.
    public func setKeyboardMode(_ mode: ConsoleKeyboardMode) throws(ConsoleError) {
        do { try file.descriptor.ioctl(UInt(KDSKBMODE), value: mode.rawValue) }
        catch { throw .failed("KDSKBMODE \(mode)", path, error.errno) }
    }

    /// VT_GETSTATE: the number of the VT the kernel shows now (this one or another).
    public func activeNumber() throws(ConsoleError) -> Int {
        var state = vt_stat()
        do { try file.descriptor.ioctl(UInt(VT_GETSTATE), &state) }
        catch { throw .failed("VT_GETSTATE", path, error.errno) }
        return Int(state.v_active)
    }

    /// Makes this VT the one the kernel shows (VT_ACTIVATE), and waits until it is.
    ///
    /// The kernel switches later, from a work item, and ignores a switch
    /// away from a VT in graphics mode (or delays it while the program that
    /// controls switching there answers). VT_WAITACTIVE would then wait
    /// forever, so the wait reads VT_GETSTATE until `wait` runs out.
    /// - Throws: ``ConsoleError`` ``ConsoleError/Kind/notActivated(stillActive:after:)``
    ///   when another VT is still shown after `wait`.
    public func activate(waitingUpTo wait: Duration = .seconds(2)) throws(ConsoleError) {
        if try activeNumber() == number { return }
        do { try file.descriptor.ioctl(UInt(VT_ACTIVATE), value: Int32(number)) }
        catch { throw .failed("VT_ACTIVATE \(number)", path, error.errno) }
        let deadline = ContinuousClock.now.advanced(by: wait)
        while true {
            let active = try activeNumber()
            if active == number { return }
            guard ContinuousClock.now < deadline else {
                throw ConsoleError(kind: .notActivated(stillActive: active, after: wait), path: path, operation: "VT_ACTIVATE \(number)", errno: nil)
            }
            usleep(10_000)
        }
    }

    private static func displayMode(of file: DeviceFile) throws(ConsoleError) -> ConsoleDisplayMode {
        var mode: Int32 = 0
        do { try file.descriptor.ioctl(UInt(KDGETMODE), &mode) }
        catch { throw .failed("KDGETMODE", file.path, error.errno) }
        return ConsoleDisplayMode(rawValue: mode)
    }
}
