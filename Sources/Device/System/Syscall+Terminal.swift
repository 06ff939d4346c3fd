import Glibc

/// The terminal (termios) calls of Device: a serial receipt printer.
///
/// cfmakeraw and cfsetspeed are plain functions of the C library, so no
/// shim is needed for the function-like macros some termios flags are.
extension Syscall {
    /// The port's settings; ENOTTY when the descriptor is not a terminal.
    static func terminalAttributes(_ fd: Int32) throws(Errno) -> termios {
        var attributes = termios()
        _ = try retrying("tcgetattr") { tcgetattr(fd, &attributes) }
        return attributes
    }

    /// Applies `attributes` at once (TCSANOW).
    static func setTerminalAttributes(_ fd: Int32, _ attributes: termios) throws(Errno) {
        var attributes = attributes
        _ = try retrying("tcsetattr") { tcsetattr(fd, TCSANOW, &attributes) }
    }

    /// Discards what was received and not read, and what was written and not sent.
    static func flushTerminal(_ fd: Int32) throws(Errno) {
        _ = try retrying("tcflush") { tcflush(fd, TCIOFLUSH) }
    }
}
