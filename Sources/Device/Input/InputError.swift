import SystemCalls

/// Why an input device could not be opened or read, naming the device.
public enum InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The node is not readable by this user, who is not in its group.
    case permissionDenied(path: String)
    /// The node is not readable although this user is in its group: its
    /// mode does not give the group read access (udev had not set it yet
    /// when a device first appeared, or no rule does).
    case groupCannotRead(path: String, group: String, mode: UInt32)
    /// The node exists but libevdev does not recognise it as an evdev device.
    case notAnEventDevice(path: String, errno: Errno)
    /// The device went away (unplugged, or its uinput creator destroyed it).
    case unplugged(path: String)
    /// Exclusive access was asked for, and another program already holds it.
    case grabbedElsewhere(path: String)
    /// Anything else the kernel reported.
    case system(path: String, operation: String, errno: Errno)
    /// The device describes an axis no decoder can use safely (see ``AbsoluteAxis/problem(as:)``).
    case unusableAxis(path: String, name: String, problem: String)

    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return "\(path): permission denied; add the Teller service user to the 'input' group (or run it with a udev rule granting access)"
        case .groupCannotRead(let path, let group, let mode):
            return "\(path): permission denied, although the Teller service user is in its group '\(group)': its mode \(String(mode, radix: 8)) "
                + "gives the group no read access; a udev rule must (MODE=\"0660\", GROUP=\"\(group)\")"
        case .notAnEventDevice(let path, let errno):
            return "\(path): not an evdev input device (\(errno))"
        case .unplugged(let path):
            return "\(path): device was unplugged"
        case .grabbedElsewhere(let path):
            return "\(path): another program holds this device exclusively (EVIOCGRAB); stop it or turn off exclusive grab"
        case .system(let path, let operation, let errno):
            return "\(path): \(operation) failed: \(errno) (errno \(errno.rawValue))"
        case .unusableAxis(let path, let name, let problem):
            return "\(path) (\(name)): \(problem); the device is not used (faulty firmware or descriptor; a quirk or a replacement is needed)"
        }
    }

    static func opening(_ path: String, _ errno: Errno) -> InputError {
        switch errno {
        case .permissionDenied, .notPermitted: .permissionDenied(path: path)
        case .noDevice, .noSuchFile: .unplugged(path: path)
        default: .system(path: path, operation: "open", errno: errno)
        }
    }
}
