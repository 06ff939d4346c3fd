// swift-tools-version:6.0
// The package graph is the module map of docs/architecture.md: every
// dependency listed here is an import that is allowed; any other import is a
// build error (the test command builds with
// --explicit-target-dependency-import-check=error).
import PackageDescription

let package = Package(
    name: "Teller",
    products: [
        .executable(name: "teller", targets: ["teller"]),
        .executable(name: "teller-bench", targets: ["teller-bench"]),
        .executable(name: "device-smoke", targets: ["device-smoke"]),
    ],
    targets: [
        // MARK: C borders (one Swift module imports each)
        .systemLibrary(
            name: "CSQLite", path: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CDRM", path: "CDRM", pkgConfig: "libdrm",
            providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(
            name: "CEvdev", path: "CEvdev", pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(
            name: "CSodium", path: "CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        /// The certificates and keys libcurl's TLS uses: check-config, the
        /// terminal's own key and CSR, one CA store per process.
        .systemLibrary(
            name: "COpenSSL", path: "COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]),
        /// epoll, and libdispatch's main-queue functions for a main thread that serves the main queue itself (Device's MainThread).
        .systemLibrary(name: "CEventLoop", path: "CEventLoop"),
        /// The process's own memory (libc headers only): the dynamic loader's
        /// list of loaded objects and their segments, and malloc's arenas.
        .systemLibrary(name: "CMemory", path: "CMemory"),
        /// Kernel headers only (linux-libc-dev): the rtnetlink link watcher.
        .systemLibrary(name: "CNetlink", path: "CNetlink"),
        .systemLibrary(
            name: "CFreeType", path: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFriBidi", path: "CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]),

        // MARK: System calls
        /// The one layer of system calls (swift-system's spirit): a typed
        /// Errno and SystemCallError, the one EINTR loop, EAGAIN as
        /// would-block, FileDescriptor, FileStatus, sockets (UnixSocket),
        /// poll, ioctl, mmap, termios and the monotonic clock.
        .target(name: "SystemCalls"),

        // MARK: Libraries over C (each the one importer of its C modules)
        /// SQLite and nothing else (GRDB's spirit): Database, Statement,
        /// transactions, the Migrator, values, and SQLite's own errors.
        .target(name: "SQLite", dependencies: ["SystemCalls", "CSQLite"]),
        /// libsodium: sealing (secretbox), Argon2id PIN verifiers, HMAC-SHA256 and SHA-256.
        .target(name: "Cryptography", dependencies: ["CSodium"]),
        /// How the terminal reaches the bank's host: libcurl with TLS, the CA
        /// store, the terminal's own certificate and key, the host's key pin,
        /// the host's configuration and errors, and rtnetlink's word that a
        /// network link changed.
        .target(name: "HostTransport", dependencies: ["TellerCore", "SystemCalls", "Cryptography", "CCurl", "COpenSSL", "CNetlink"]),

        // MARK: Domain and data
        .target(name: "TellerCore"),
        /// The stores, the outbox, the ledger, the journal, retention, rescue,
        /// the sync engine and the bank's contract over HostTransport.
        .target(name: "TellerData", dependencies: ["TellerCore", "SystemCalls", "SQLite", "Cryptography", "HostTransport"]),

        // MARK: Features
        .target(name: "TellerFeatures", dependencies: ["TellerCore"]),

        /// Fakes of the TellerCore ports, for view-model and screen tests.
        .target(name: "TellerFakes", dependencies: ["TellerCore", "TellerFeatures"]),

        // MARK: Rendering
        .target(name: "Graphics", dependencies: ["CFreeType", "CPNG", "CHarfBuzz", "CFriBidi"]),
        .target(name: "Widgets", dependencies: ["Graphics"]),

        // MARK: Screens
        /// The dumb layer: one screen per view model, and the tap/key/touch routing.
        /// Also lays printed documents out on paper (a Graphics surface).
        .target(name: "TellerUI", dependencies: ["TellerFeatures", "TellerCore", "Widgets", "Graphics"]),

        // MARK: Device (displays, evdev input, uinput, evemu)
        .target(name: "Device", dependencies: ["SystemCalls", "CDRM", "CEvdev", "CEventLoop", "Graphics"]),

        // MARK: Runtime
        /// Kernel to screen: the display, the input devices and the main loop joined to the
        /// coordinator and the screens, and the print spooler. Knows no data layer (only its ports), so
        /// the view-model and runtime tests drive it on the fakes.
        .target(name: "TellerRuntime", dependencies: ["Device", "Graphics", "Widgets", "TellerCore", "TellerFeatures", "TellerUI", "CMemory", "SystemCalls"]),

        // MARK: The terminal's own libraries (what the executable wires)
        /// teller.conf: the keys, their parsers and rules, the file's reader and editor.
        .target(name: "TellerConfiguration", dependencies: ["TellerCore", "HostTransport", "Cryptography", "Device", "SystemCalls"]),
        /// The control socket: its line protocol, server, connections, `teller ctl`'s client and the virtual device's bridge.
        .target(name: "TellerControl", dependencies: ["TellerConfiguration", "TellerCore", "Device", "SystemCalls"]),
        /// The command line's commands over configuration and data (config, identity, hash-pin,
        /// check-config, status, metrics, journal, drain), console-lock over the panel's VT, and its
        /// usage text; `teller` dispatches to them.
        .target(name: "TellerCommands", dependencies: ["TellerConfiguration", "TellerControl", "TellerData", "SQLite", "Cryptography", "HostTransport",
                                                        "TellerCore", "Device", "SystemCalls"]),
        /// QA scenarios: the file format, the runner, goldens, and the uinput target.
        .target(name: "TellerQA", dependencies: ["TellerControl", "TellerConfiguration", "TellerCore", "Device", "Graphics", "Widgets", "SystemCalls"]),
        /// The composition root: the live data layer from the configuration (store, host, sync
        /// engine, link monitor), the coordinator over it, the display and input, the control
        /// socket, printing, metrics and READY. `teller run` starts it; teller-bench measures it.
        .target(name: "TellerTerminal", dependencies: ["TellerCore", "TellerData", "Cryptography", "HostTransport", "TellerFeatures", "TellerUI",
                                                        "TellerRuntime", "Widgets", "Graphics", "Device", "SystemCalls", "TellerConfiguration",
                                                        "TellerControl"]),

        // MARK: Executables
        .executableTarget(
            name: "teller",
            dependencies: ["TellerTerminal", "TellerCommands", "TellerQA", "TellerControl", "TellerConfiguration", "TellerRuntime", "TellerData", "SQLite",
                           "TellerCore", "Widgets", "Graphics", "Device", "SystemCalls"],
            exclude: ["hot-functions.order"],
            // The functions a start-up and a deposit run, laid out together, so that the
            // text they keep resident is theirs and not their neighbours' (docs/device.md,
            // "Resident memory after a deposit"; tools/order-functions writes the list).
            // Without DWARF: nothing reads it (the .deb strips it, and tools/order-functions,
            // callgrind and nm need only the symbol table), and it is 9.7 MiB of a 36.6 MiB file.
            linkerSettings: [.unsafeFlags(["-use-ld=lld",
                                           "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/teller/hot-functions.order",
                                           "-Xlinker", "--no-warn-symbol-ordering",
                                           "-Xlinker", "--strip-debug"],
                                          .when(configuration: .release))]),
        .executableTarget(
            name: "teller-bench",
            dependencies: ["TellerTerminal", "TellerRuntime", "TellerFeatures", "TellerConfiguration", "TellerData", "SQLite", "HostTransport", "Cryptography",
                           "TellerCore", "Widgets", "Graphics", "Device", "ProcessHarness", "SystemCalls"]),
        /// The child process the outbox crash test SIGKILLs mid-write.
        .executableTarget(
            name: "outbox-crash-writer",
            dependencies: ["TellerCore", "TellerData", "SystemCalls"]),
        // Runs inside the VM proof (deploy/vm/device-proof) on a real kernel.
        .executableTarget(name: "device-smoke", dependencies: ["Device", "Graphics", "SystemCalls"]),

        /// Child processes, the reference host and temporary folders, for
        /// teller-bench and for the tests that run real processes.
        .target(name: "ProcessHarness", dependencies: ["SystemCalls"]),

        // MARK: Tests
        /// The hostile host (the bank answering wrongly, one way per mode) and the
        /// test tags (TestTags.swift), for tests only.
        .target(name: "ProcessTestSupport", dependencies: ["ProcessHarness"], path: "Tests/Support"),
        /// The virtual receipt printer: an ESC/POS decoder that turns printed
        /// bytes back into pictures, and fake printers on TCP and a pseudo-terminal.
        .target(name: "PrinterTestSupport", dependencies: ["Graphics", "SystemCalls"], path: "Tests/PrinterSupport"),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        .testTarget(name: "TellerCoreTests", dependencies: ["TellerCore", "ProcessTestSupport"]),
        .testTarget(name: "TellerConfigurationTests", dependencies: ["TellerConfiguration"]),
        .testTarget(name: "TellerControlTests", dependencies: ["TellerControl", "TellerCore"]),
        .testTarget(name: "TellerCommandsTests", dependencies: ["TellerCommands", "TellerData", "SQLite", "Cryptography", "HostTransport", "Device", "ProcessHarness", "ProcessTestSupport"]),
        .testTarget(name: "TellerQATests", dependencies: ["TellerQA", "TellerControl", "Widgets"]),
        .testTarget(name: "TellerDataTests", dependencies: ["TellerCore", "TellerData", "SQLite", "Cryptography", "HostTransport", "SystemCalls", "ProcessHarness", "ProcessTestSupport", "CNetlink"]),
        .testTarget(name: "TellerFeaturesTests", dependencies: ["TellerCore", "TellerFeatures", "TellerFakes", "TellerData", "ProcessTestSupport"]),
        .testTarget(
            name: "TellerUITests",
            dependencies: ["TellerUI", "TellerFeatures", "TellerFakes", "TellerCore", "TellerRuntime", "Widgets", "Graphics", "Device",
                           "PrinterTestSupport", "ProcessTestSupport"]),
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics"]),
        .testTarget(
            name: "WidgetsTests", dependencies: ["Graphics", "Widgets"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "TellerRuntimeTests",
            dependencies: ["TellerRuntime", "TellerFakes", "TellerFeatures", "TellerCore", "TellerUI", "Device", "Graphics", "Widgets",
                           "TellerData", "PrinterTestSupport", "ProcessHarness", "ProcessTestSupport"]),
        .testTarget(name: "TerminalTests", dependencies: ["ProcessHarness", "ProcessTestSupport", "Device", "Graphics", "TellerCore", "TellerData", "PrinterTestSupport", "SystemCalls"]),
        .testTarget(
            name: "DeviceTests", dependencies: ["Device", "Graphics", "PrinterTestSupport", "ProcessTestSupport", "SystemCalls"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
