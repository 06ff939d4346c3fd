import SystemCalls
import Glibc

/// An open device node that closes itself when released.
///
/// Not thread-safe; owned by one display or input device.
final class DeviceFile {
    let path: String
    let fd: Int32

    init(path: String, flags: Int32) throws(SystemCallError) {
        self.path = path
        fd = try Syscall.open(path, flags)
    }

    deinit { try? Syscall.close(fd) }
}
