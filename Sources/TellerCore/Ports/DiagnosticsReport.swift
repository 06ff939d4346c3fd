import FoundationEssentials

/// Facts about the running terminal for the technician, as values: the
/// diagnostics view model decides how each one reads. Text fields hold
/// what a part reports about itself (a path, a device's name, SQLite's
/// quick_check answer), never wording. The terminal's id and branch are
/// not here: every view model already has them (``TerminalIdentity``).
public struct DiagnosticsReport: Hashable, Sendable {
    /// The build's version (`teller --version`).
    public var version: String
    /// Nil on a terminal that works offline only.
    public var host: URL?
    public var databasePath: String
    /// The database file's size, nil when it cannot be read.
    public var databaseBytes: Int?
    /// SQLite's `PRAGMA quick_check` answer ("ok" or the damage found),
    /// nil when the check could not run.
    public var quickCheck: String?
    /// The sync engine's view, nil on a terminal without a host (no engine).
    public var sync: SyncStatus?
    /// The system clock when the report was made: shown when the clock is
    /// not trusted, so the technician sees how wrong it is.
    public var systemClock: Date
    /// Rows a person must look at, oldest first.
    public var needsReview: [OutboxEntry]
    /// The last storage failure since the terminal started.
    public var lastStorageFailure: StorageFailure?
    /// Nil when the main loop could not be asked.
    public var hardware: Hardware?
    /// The receipt printer; nil when none is configured.
    public var printer: PrinterReport?
    /// The terminal's certificate for mutual TLS; nil when none is configured.
    public var clientCertificate: ClientCertificateStatus?

    public init(version: String, host: URL?, databasePath: String, databaseBytes: Int?,
                quickCheck: String?, sync: SyncStatus?, systemClock: Date, needsReview: [OutboxEntry] = [],
                lastStorageFailure: StorageFailure? = nil, hardware: Hardware?, printer: PrinterReport? = nil,
                clientCertificate: ClientCertificateStatus? = nil) {
        self.clientCertificate = clientCertificate
        self.version = version
        self.host = host
        self.databasePath = databasePath
        self.databaseBytes = databaseBytes
        self.quickCheck = quickCheck
        self.sync = sync
        self.systemClock = systemClock
        self.needsReview = needsReview
        self.lastStorageFailure = lastStorageFailure
        self.hardware = hardware
        self.printer = printer
    }

    /// What the main loop drives: the display and the open input devices.
    public struct Hardware: Hashable, Sendable {
        /// The display as it describes itself ("drm /dev/dri/card0 HDMI-A-1 800x480@60 rotation 0").
        public var display: String
        /// The configured rotation in degrees: 0, 90, 180 or 270.
        public var rotationDegrees: Int
        public var inputs: [InputDevice]

        public init(display: String, rotationDegrees: Int, inputs: [InputDevice]) {
            self.display = display
            self.rotationDegrees = rotationDegrees
            self.inputs = inputs
        }
    }

    /// One open evdev device.
    public struct InputDevice: Hashable, Sendable {
        /// What the terminal does with the device. It mirrors Device's
        /// `InputDeviceKind`, which TellerCore cannot import; the executable
        /// maps one onto the other with an exhaustive switch, so a new kind
        /// there does not build until it is named here.
        public enum Kind: String, Hashable, Sendable {
            case multitouchScreen, singleTouchScreen, absolutePointer, relativeMouse, keyboard, scanner, ignored
        }

        /// The name the device reports (EVIOCGNAME).
        public var name: String
        public var kind: Kind
        /// Its node, such as /dev/input/event3.
        public var path: String

        public init(name: String, kind: Kind, path: String) {
            self.name = name
            self.kind = kind
            self.path = path
        }
    }
}
