import Testing

/// The project's test tags, in one place (docs/qa.md, "Test tiers and
/// tags"). Each is put on whole suites (`@Suite(.tags(...))`) that use the
/// real component it names, so a run can be told what it costs and what it
/// needs. Swift Testing 6.3's command line cannot select or skip by tag
/// (`--filter` and `--skip` match test names only), so tools/test finds the
/// suites with a tag in the sources and skips them by name: keep a suite's
/// `@Suite(...)` on the line that declares it.
extension Tag {
    /// Starts a child process: the teller binary (`TerminalProcess`,
    /// `teller drain`, `teller status`, …) or another program (python3, a
    /// shell script, msgfmt, sha256sum). Every `.referenceHost` suite
    /// carries it too.
    @Tag public static var realProcess: Self

    /// Runs deploy/reference-host as a real Python process: the reference
    /// bank host (`ReferenceHost`) or the hostile host beside it (`HostileHost`).
    @Tag public static var referenceHost: Self

    /// Makes network namespaces joined by a veth pair (root, iproute2):
    /// the whole `tools/test` runs these suites, its fast tier leaves them out.
    @Tag public static var networkNamespace: Self

    /// Prints to a fake ESC/POS printer (`FakePrinter`) on a TCP socket or
    /// a pseudo-terminal.
    @Tag public static var virtualPrinter: Self

    /// Takes more than 10 s run alone (`swift test --no-parallel`) on an
    /// idle-ish 2-core machine; measured, not guessed (docs/qa.md). Put on
    /// the suite that is slow, not on a parent whose children are quick.
    @Tag public static var slow: Self

    /// Waits by the wall clock for work it does not drive itself: a
    /// background actor's timer, a long run of main-actor hops. Such a wait
    /// starves when CPU-bound suites fill the cooperative pool and the main
    /// actor for minutes, as under qemu-user's emulation, so tools/build-arm64
    /// runs these suites after the rest, one test at a time.
    @Tag public static var wallClock: Self
}
