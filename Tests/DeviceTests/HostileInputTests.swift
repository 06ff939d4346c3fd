import Glibc
import Graphics
import Testing
@testable import Device

/// Recordings under Fixtures/hostile (written by make-hostile.py there): each
/// once crashed the terminal with a Swift trap, grew it to gigabytes, or could
/// have. Bad input must be refused naming its line, or decoded safely.
@Suite("hostile input never traps")
struct HostileInputTests {
    static let panel = Size(width: 1280, height: 800)

    /// Fixture, line the error must name, and words the problem must contain.
    static let refused: [(String, Int, String)] = [
        ("many-property-lines.evemu", 4, "beyond INPUT_PROP_MAX"),
        ("many-key-lines.evemu", 16, "beyond KEY_MAX"),
        ("slot-maximum-int32.evemu", 8, "ABS_MT_SLOT maximum 2147483647"),
        ("slot-maximum-50-million.evemu", 8, "ABS_MT_SLOT maximum 50000000"),
        ("slot-range-negative.evemu", 8, "ABS_MT_SLOT minimum -10"),
        ("time-overflow.evemu", 5, "event time '9223372036854775807.999999'"),
        ("time-negative.evemu", 4, "event time '-5.000000'"),
        ("value-too-large.evemu", 4, "event value '99999999999' is not a decimal integer"),
        ("not-hex.evemu", 2, "vendor 'zzzz' is not a hexadecimal number"),
        ("truncated.evemu", 5, "E: needs time, type, code and value, found 3 fields"),
        ("nul-bytes.evemu", 4, "event type '00\\u{0}03' is not a hexadecimal number"),
        ("megabyte-line.evemu", 4, "is not a decimal integer"),
        ("event-type-beyond-ev-max.evemu", 4, "event type 0xffff is beyond EV_MAX"),
        ("event-code-beyond-abs-max.evemu", 4, "code 0xffff is beyond ABS_MAX"),
        ("axis-code-beyond-abs-max.evemu", 4, "axis code 0xffff is beyond ABS_MAX"),
        ("led-code-beyond-led-max.evemu", 4, "code 0xffff is beyond LED_MAX"),
        ("switch-bit-beyond-sw-max.evemu", 4, "code 0x11 is beyond SW_MAX"),
        ("empty.evemu", 0, "no N: line"),
    ]

    /// Hostile but well-formed: these read, and decode without trapping.
    static let accepted = ["widest-ranges.evemu", "absurd-events.evemu"]

    static let everyFixture = refused.map(\.0) + accepted + ["garbage.evemu"]
    /// Every hostile fixture and the ordinary recordings beside them, for the fuzz entry point.
    static let fixturesHostileAndOrdinary = everyFixture.map { "hostile/" + $0 } + [
        "two-finger.evemu", "syn-dropped.evemu", "qemu-usb-tablet.evemu", "keyboard.evemu", "scanner.evemu", "single-touch.evemu",
    ]

    /// The bytes of a fixture, `name` relative to Fixtures/ ("hostile/…" for these).
    static func bytes(of name: String) throws -> [UInt8] {
        let file = try #require(fopen(Fixture.directory + "/" + name, "r"))
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[0..<n] }
        return bytes
    }

    @Test(arguments: refused)
    func refusedNamingTheLine(name: String, line: Int, problem: String) throws {
        let path = Fixture.directory + "/hostile/" + name
        let read = Result<EvemuRecording, EvemuError> { () throws(EvemuError) in try EvemuRecording(contentsOf: path) }
        let error = try #require(read.failure)
        #expect(error.line == line, "\(error)")
        #expect(error.problem.contains(problem), "\(error)")
        #expect(error.path == path)
        // A technician reads this in a log: a megabyte of nines must not come with it.
        #expect(error.description.utf8.count < 300, "\(error.description.prefix(300))")
    }

    /// Whatever reads is decoded by every decoder, at every rotation.
    @Test(arguments: everyFixture)
    func everyFixtureDecodesWithoutTrapping(name: String) throws {
        let recording = try? Fixture.recording("hostile/" + name)
        #expect((recording != nil) == Self.accepted.contains(name), "only the accepted fixtures read")
        let events = recording?.events ?? []
        let capabilities = recording?.capabilities ?? InputCapabilities(name: name)
        for rotation in Rotation.allCases {
            var touch = TouchDecoder(capabilities: capabilities, transform: DisplayTransform(rotation: rotation, physicalSize: Self.panel))
            _ = touch?.decode(all: events)
            _ = touch?.cancelAll()
        }
        var keyboard = KeyboardDecoder(isScanner: false)
        for event in events { _ = keyboard.decode(event) }
    }

    /// The fuzz entry point over every fixture, hostile and ordinary: as text,
    /// as kernel events and as unchecked axis ranges.
    @Test(arguments: fixturesHostileAndOrdinary)
    func fuzzEntryPointSurvivesEveryFixture(name: String) throws {
        let bytes = try Self.bytes(of: name)
        #expect(!bytes.isEmpty || name.hasSuffix("empty.evemu"))
        InputFuzzing.exercise(bytes)
    }

    /// A few hundred deterministic mutations of real recordings: flipped,
    /// inserted and deleted bytes, lines duplicated many times.
    @Test func fuzzEntryPointSurvivesMutatedRecordings() throws {
        var random = SplitMix64(seed: 1100)
        for name in ["two-finger.evemu", "keyboard.evemu", "qemu-usb-tablet.evemu"] {
            let original = try Self.bytes(of: name)
            for _ in 0..<100 {
                var bytes = original
                for _ in 0..<(1 + random.next(below: 8)) {
                    let at = random.next(below: bytes.count)
                    switch random.next(below: 5) {
                    case 0: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.next(below: 8))
                    case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next(below: 256)), at: at)
                    case 2: bytes.remove(at: at)
                    case 3: bytes.insert(contentsOf: Array("-2147483648 ffff 99999999999 ".utf8), at: at)
                    default:
                        let start = bytes[..<at].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                        let end = bytes[at...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
                        bytes.insert(contentsOf: Array(repeating: bytes[start..<end], count: 1 + random.next(below: 200)).joined(), at: end)
                    }
                    if bytes.isEmpty { bytes = [0] }
                }
                InputFuzzing.exercise(bytes)
            }
        }
    }

    /// /dev/zero never ends; reading stops at the size limit instead of at out-of-memory.
    @Test func endlessFileIsRefusedAtTheSizeLimit() throws {
        let read = Result<EvemuRecording, EvemuError> { () throws(EvemuError) in try EvemuRecording(contentsOf: "/dev/zero") }
        let error = try #require(read.failure)
        #expect(error.description == "/dev/zero: larger than 64 MiB; split the recording")
    }

    @Test func randomBytesAreRefused() throws {
        #expect(throws: EvemuError.self) { try EvemuRecording(contentsOf: Fixture.directory + "/hostile/garbage.evemu") }
    }

    @Test(arguments: accepted)
    func wellFormedButHostileRecordingsDecode(name: String) throws {
        let recording = try Fixture.recording("hostile/" + name)
        #expect(recording.capabilities.kind == .multitouchScreen)
        for rotation in Rotation.allCases {
            let transform = DisplayTransform(rotation: rotation, physicalSize: Self.panel)
            var touch = try #require(TouchDecoder(capabilities: recording.capabilities, transform: transform))
            let touches = touch.decode(all: recording.events) + touch.cancelAll()
            let size = transform.logicalSize
            for event in touches {
                #expect((0..<size.width).contains(event.position.x) && (0..<size.height).contains(event.position.y), "\(event)")
            }
            #expect(touch.activeContacts.isEmpty)
        }
        for isScanner in [false, true] {
            var keyboard = KeyboardDecoder(isScanner: isScanner)
            for event in recording.events { _ = keyboard.decode(event) }
        }
    }

    @Test func widestRangesMapOntoTheScreen() throws {
        let recording = try Fixture.recording("hostile/widest-ranges.evemu")
        var touch = try #require(TouchDecoder(
            capabilities: recording.capabilities, transform: DisplayTransform(rotation: .degrees0, physicalSize: Self.panel)))
        let touches = touch.decode(all: recording.events)
        #expect(!touches.isEmpty)
        for event in touches {
            #expect((0..<Self.panel.width).contains(event.position.x) && (0..<Self.panel.height).contains(event.position.y), "\(event)")
        }
    }

    static func touchscreen(slots: AbsoluteAxis, x: AbsoluteAxis = AbsoluteAxis(minimum: 0, maximum: 4095), y: AbsoluteAxis = AbsoluteAxis(minimum: 0, maximum: 4095)) -> InputCapabilities {
        InputCapabilities(
            name: "Hostile Touch", properties: [.direct],
            absoluteAxes: [.absMTSlot: slots, .absMTPositionX: x, .absMTPositionY: y, .absMTTrackingID: AbsoluteAxis(minimum: 0, maximum: 65535)])
    }

    /// Hardware gets the recordings' rules: drivers pass absinfo from firmware unchecked.
    @Test(arguments: [
        (AbsoluteAxis(minimum: 0, maximum: 50_000_000), "ABS_MT_SLOT maximum 50000000 means 50000001 touch slots; at most 64 are supported"),
        (AbsoluteAxis(minimum: 0, maximum: .max), "ABS_MT_SLOT maximum 2147483647"),
        (AbsoluteAxis(minimum: -3, maximum: 9), "ABS_MT_SLOT minimum -3 is negative"),
        (AbsoluteAxis(minimum: 9, maximum: 0), "axis 0x2f has minimum 9 above maximum 0"),
    ])
    func deviceWithAnAbsurdAxisIsRefusedNamingIt(slots: AbsoluteAxis, problem: String) throws {
        let check = Result<InputCapabilities, InputError> { () throws(InputError) in
            try InputDevice.checked(Self.touchscreen(slots: slots), path: "/dev/input/event7")
        }
        let error = try #require(check.failure)
        #expect(String(describing: error).hasPrefix("/dev/input/event7 (Hostile Touch): " + problem), "\(error)")
    }

    @Test func deviceWithUsableAxesIsKept() throws {
        let widest = AbsoluteAxis(minimum: .min, maximum: .max)
        let capabilities = Self.touchscreen(slots: AbsoluteAxis(minimum: 0, maximum: 63), x: widest, y: widest)
        #expect(try InputDevice.checked(capabilities, path: "/dev/input/event7") == capabilities)
        let recorded = try Fixture.recording("two-finger.evemu").capabilities
        #expect(try InputDevice.checked(recorded, path: "/dev/input/event7") == recorded)
    }

    /// Capabilities built in code are not checked; the decoder still must not trap
    /// (Int32.max + 1) or allocate a slot per claimed contact (1.6 GB for 50,000,000).
    @Test(arguments: [Int32.max, 50_000_000, 64, -1, .min])
    func decoderTracksAtMost64Slots(slotMaximum: Int32) throws {
        let capabilities = Self.touchscreen(slots: AbsoluteAxis(minimum: min(0, slotMaximum), maximum: slotMaximum))
        var decoder = try #require(TouchDecoder(capabilities: capabilities, transform: DisplayTransform(rotation: .degrees0, physicalSize: Self.panel)))
        var events: [InputEvent] = []
        for slot: Int32 in [0, 63, 64, 50_000_000, .max, -1, .min] {
            events += [
                InputEvent(type: .absolute, code: .absMTSlot, value: slot),
                InputEvent(type: .absolute, code: .absMTTrackingID, value: slot == .min ? 0 : slot & 0xffff),
                InputEvent(type: .absolute, code: .absMTPositionX, value: 2048),
            ]
        }
        let began = decoder.decode(all: events + [.report()]).map(\.contact).sorted()
        #expect(began == (slotMaximum >= 63 ? [0, 63] : [0]))
    }

    /// Ranges at Int32's ends; a two-value axis puts its maximum mid-screen
    /// (value / (maximum - minimum + 1), as libinput normalises).
    @Test(arguments: [
        (Int32.min, Int32.max, Point(x: 1279, y: 799)), (0, .max, Point(x: 1279, y: 799)),
        (Int32.max - 1, Int32.max, Point(x: 640, y: 400)), (Int32.min, Int32.min + 1, Point(x: 640, y: 400)),
    ])
    func extremeAxisRangesMapWithoutOverflow(minimum: Int32, maximum: Int32, atMaximum: Point) throws {
        let axis = AbsoluteAxis(minimum: minimum, maximum: maximum)
        let mapping = TouchMapping(xAxis: axis, yAxis: axis, transform: DisplayTransform(rotation: .degrees0, physicalSize: Self.panel))
        #expect(mapping.logicalPoint(rawX: minimum, rawY: minimum) == Point(x: 0, y: 0))
        #expect(mapping.logicalPoint(rawX: maximum, rawY: maximum) == atMaximum)
        // Values outside the advertised range (the kernel does not clamp them) land on the edge.
        #expect(mapping.logicalPoint(rawX: .max, rawY: .min).y == 0)
        #expect(mapping.logicalPoint(rawX: .min, rawY: .max).x == 0)
        for pixel in [Point(x: 0, y: 0), Point(x: 1279, y: 799), Point(x: -5, y: 10_000), Point(x: .max / 2, y: .min / 2)] {
            let raw = TouchMapping.raw(forPhysical: pixel, physicalSize: Self.panel, xAxis: axis, yAxis: axis)
            #expect((minimum...maximum).contains(raw.x) && (minimum...maximum).contains(raw.y))
        }
    }

    @Test func absurdCalibrationStaysOnScreen() throws {
        let axis = AbsoluteAxis(minimum: 0, maximum: 4095)
        for calibration in [AffineMatrix(.infinity, 0, 0, 0, -.infinity, 0), AffineMatrix(.nan, 0, 0, 0, 1, .nan), AffineMatrix(1e308, 1e308, 1e308, 0, 1, 0)] {
            let mapping = TouchMapping(xAxis: axis, yAxis: axis, transform: DisplayTransform(rotation: .degrees0, physicalSize: Self.panel), calibration: calibration)
            let point = mapping.logicalPoint(rawX: 4095, rawY: 4095)
            #expect((0..<Self.panel.width).contains(point.x) && (0..<Self.panel.height).contains(point.y), "\(point)")
        }
    }

    /// A scanner that types forever without Enter (a stuck trigger, a hostile
    /// recording) holds at most ``KeyboardDecoder/maximumScanLength`` characters,
    /// and the over-long line is dropped rather than delivered cut short.
    @Test(arguments: [true, false])
    func endlessTypingIsBoundedAndDropped(isScanner: Bool) {
        var decoder = KeyboardDecoder(isScanner: isScanner)
        decoder.maximumScanLength = 10
        func press(_ code: EventCode) -> [KeyboardInput] {
            decoder.decode(InputEvent(type: .key, code: code, value: 1)) + decoder.decode(InputEvent(type: .key, code: code, value: 0))
        }
        for _ in 0..<11 { _ = press(.keyA) }
        #expect(press(.keyEnter) == (isScanner ? [] : [.key(.enter)]))
        for _ in 0..<10 { _ = press(.keyA) }
        #expect(press(.keyEnter) == (isScanner ? [.scan("aaaaaaaaaa")] : [.key(.enter), .scan("aaaaaaaaaa")]))
    }

    @Test func eventTimesSaturateInsteadOfTrapping() {
        let latest = EventTime(seconds: .max, microseconds: 999_999)
        let earliest = EventTime(seconds: .min, microseconds: -999_999)
        #expect(latest.totalMicroseconds == .max)
        #expect(earliest.totalMicroseconds == .min)
        #expect(earliest < latest)
        #expect(latest.microseconds(since: earliest) == .max)
        #expect(earliest.microseconds(since: latest) == .min)
        var keyboard = KeyboardDecoder(isScanner: false)
        for time in [earliest, latest, earliest, .zero, latest] {
            _ = keyboard.decode(InputEvent(time: time, type: .key, code: .keyA, value: 1))
        }
        #expect(!keyboard.isScanner)
    }
}

/// A small seeded generator, so a mutation that ever fails fails every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
