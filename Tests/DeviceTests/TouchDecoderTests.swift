import Graphics
import Testing
@testable import Device

@Suite("TouchDecoder from evemu recordings")
struct TouchDecoderTests {
    let panel = Size(width: 1280, height: 800)

    func decode(_ name: String, rotation: Rotation = .degrees0, calibration: AffineMatrix = .identity) throws -> [String] {
        let recording = try Fixture.recording(name)
        var decoder = try #require(TouchDecoder(
            capabilities: recording.capabilities, transform: DisplayTransform(rotation: rotation, physicalSize: panel), calibration: calibration))
        return decoder.decode(all: recording.events).map(\.summary)
    }

    @Test func twoFingerMultitouch() throws {
        #expect(try decode("two-finger.evemu") == [
            "began#100@320,200",
            "began#101@960,400",
            "moved#100@343,200",  // 1100 * 1280 / 4096 = 343.75
            "moved#101@960,410",  // 2100 * 800 / 4096 = 410.2
            "ended#100@343,200",
            "moved#101@937,410",  // 3000 * 1280 / 4096 = 937.5
            "ended#101@937,410",
        ])
    }

    @Test func synDroppedDiscardsThePartialFrameAndAppliesTheResync() throws {
        // The partial frame's move of #7 to x=1500 is lost; the resync ends #7
        // where it was last reported, moves #8 and starts #9.
        #expect(try decode("syn-dropped.evemu") == [
            "began#7@320,200",
            "began#8@640,400",
            "ended#7@320,200",
            "moved#8@781,400",  // 2500 * 1280 / 4096 = 781.25
            "began#9@1120,600",
            "ended#8@781,400",
            "ended#9@1120,600",
        ])
    }

    /// Raw (512, 1024) and (3584, 3072) are 1/8,1/4 and 7/8,3/4 of the panel;
    /// expected logical points worked out by hand for a quarter turn clockwise each.
    @Test(arguments: [
        (Rotation.degrees0, ["began#1@160,200", "ended#1@160,200", "began#2@1120,600", "ended#2@1120,600"]),
        (Rotation.degrees90, ["began#1@200,1120", "ended#1@200,1120", "began#2@600,160", "ended#2@600,160"]),
        (Rotation.degrees180, ["began#1@1120,600", "ended#1@1120,600", "began#2@160,200", "ended#2@160,200"]),
        (Rotation.degrees270, ["began#1@600,160", "ended#1@600,160", "began#2@200,1120", "ended#2@200,1120"]),
    ])
    func rotations(rotation: Rotation, expected: [String]) throws {
        #expect(try decode("two-taps.evemu", rotation: rotation) == expected)
    }

    @Test func calibrationMatrixUsesLibinputConvention() throws {
        // Shrinks the touch area to the middle half: x' = 0.5x + 0.25, y' = 0.5y + 0.25.
        let half = try #require(AffineMatrix("0.5 0 0.25 0 0.5 0.25"))
        #expect(try decode("two-taps.evemu", calibration: half) == [
            "began#1@400,300", "ended#1@400,300",  // (1/8·½+¼)·1280, (¼·½+¼)·800
            "began#2@880,500", "ended#2@880,500",
        ])
        // libinput's documented "rotate 90° clockwise" matrix on an unrotated panel.
        let turn = try #require(AffineMatrix("0 -1 1 1 0 0"))
        #expect(try decode("two-taps.evemu", calibration: turn) == [
            "began#1@960,100", "ended#1@960,100",  // x' = 1 - y = ¾, y' = x = ⅛
            "began#2@320,700", "ended#2@320,700",
        ])
    }

    @Test func calibrationComesAfterRotation() throws {
        // With a quarter turn the shift is along the rotated (logical) x axis.
        let shift = try #require(AffineMatrix("1 0 0.125 0 1 0"))
        #expect(try decode("two-taps.evemu", rotation: .degrees90, calibration: shift) == [
            "began#1@300,1120", "ended#1@300,1120",  // (¼ + ⅛)·800
            "began#2@700,160", "ended#2@700,160",
        ])
    }

    @Test func calibrationParsing() {
        #expect(AffineMatrix("1 0 0 0 1 0") == .identity)
        #expect(AffineMatrix("1.02,0,-0.01,0,0.98,0.015") == AffineMatrix(1.02, 0, -0.01, 0, 0.98, 0.015))
        #expect(AffineMatrix("1 0 0 0 1") == nil)
        #expect(AffineMatrix("1 0 0 0 1 x") == nil)
    }

    @Test func singleTouch() throws {
        #expect(try decode("single-touch.evemu") == ["began#0@640,200", "moved#0@656,200", "ended#0@656,200"])
    }

    @Test func absolutePointerHoversThenPresses() throws {
        #expect(try decode("qemu-usb-tablet.evemu") == ["hovered#0@640,400", "began#0@640,400", "moved#0@960,400", "ended#0@960,400"])
    }

    @Test func relativeMouseCursorIsClamped() throws {
        let caps = InputCapabilities(name: "mouse", codes: [.key: [.buttonLeft], .relative: [.relX, .relY]])
        var decoder = try #require(TouchDecoder(capabilities: caps, transform: DisplayTransform(rotation: .degrees0, physicalSize: panel)))
        let events = decoder.decode(all: [
            InputEvent(type: .relative, code: .relX, value: 5000), InputEvent(type: .relative, code: .relY, value: -30), .report(),
            InputEvent(type: .key, code: .buttonLeft, value: 1), .report(),
        ])
        #expect(events.map(\.summary) == ["hovered#0@1279,370", "began#0@1279,370"])
    }

    @Test func unplugCancelsActiveContacts() throws {
        let recording = try Fixture.recording("two-finger.evemu")
        var decoder = try #require(TouchDecoder(capabilities: recording.capabilities, transform: DisplayTransform(rotation: .degrees0, physicalSize: panel)))
        _ = decoder.decode(all: recording.events.prefix(13))  // both fingers down
        #expect(decoder.activeContacts.count == 2)
        #expect(decoder.cancelAll().map(\.summary) == ["cancelled#100@320,200", "cancelled#101@960,400"])
        #expect(decoder.activeContacts.isEmpty)
    }

    @Test func notAPointingDevice() throws {
        let keyboard = try Fixture.recording("keyboard.evemu")
        #expect(TouchDecoder(capabilities: keyboard.capabilities, transform: DisplayTransform(rotation: .degrees0, physicalSize: panel)) == nil)
    }
}
