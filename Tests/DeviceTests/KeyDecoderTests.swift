import Testing
@testable import Device

@Suite("Keyboard and scanner decoding")
struct KeyDecoderTests {
    func decode(_ name: String) throws -> [KeyboardInput] {
        let recording = try Fixture.recording(name)
        var decoder = KeyboardDecoder(isScanner: recording.capabilities.kind == .scanner)
        return recording.events.flatMap { decoder.decode($0) }
    }

    @Test func personTypingWithShiftBackspaceTabEnter() throws {
        let inputs = try decode("keyboard.evemu")
        let text = inputs.compactMap { if case .key(.text(let t)) = $0 { t } else { nil } }.joined()
        #expect(text == "Hello, World!")
        #expect(Array(inputs.suffix(3)) == [.key(.backspace), .key(.tab), .key(.enter)])
        #expect(!inputs.contains { if case .scan = $0 { true } else { false } })
    }

    @Test func scannerDeliversWholeCodes() throws {
        #expect(try decode("scanner.evemu") == [.scan("4006381333931"), .scan("0123456789012")])
    }

    @Test func scannerCallingItselfAKeyboardIsCaughtBySpeed() throws {
        let recording = try Fixture.recording("unbranded-scanner.evemu")
        var decoder = KeyboardDecoder(isScanner: false)
        let inputs = recording.events.flatMap { decoder.decode($0) }
        #expect(inputs.last == .scan("9780201633610"))
        #expect(inputs.dropLast().last == .key(.enter))
        #expect(decoder.isScanner)
    }

    @Test func capsLockAndShiftAndModifiers() {
        var keys = KeyDecoder()
        func press(_ code: EventCode) -> KeyInput? {
            let down = keys.decode(InputEvent(type: .key, code: code, value: 1))
            _ = keys.decode(InputEvent(type: .key, code: code, value: 0))
            return down
        }
        #expect(press(.keyA) == .text("a"))
        _ = press(.keyCapsLock)
        #expect(press(.keyA) == .text("A"))
        #expect(press(.key1) == .text("1"))  // caps lock leaves digits alone
        _ = keys.decode(InputEvent(type: .key, code: .keyRightShift, value: 1))
        #expect(press(.keyA) == .text("a"))  // shift undoes caps lock for letters
        #expect(press(.keySlash) == .text("?"))
        _ = keys.decode(InputEvent(type: .key, code: .keyRightShift, value: 0))
        _ = keys.decode(InputEvent(type: .key, code: .keyLeftCtrl, value: 1))
        #expect(press(.keyA) == nil)  // Ctrl-A types nothing
        #expect(press(.keyEnter) == .enter)
        _ = keys.decode(InputEvent(type: .key, code: .keyLeftCtrl, value: 0))
        #expect(keys.decode(InputEvent(type: .key, code: .keyBackspace, value: 2)) == .backspace)  // auto-repeat
        #expect(keys.decode(InputEvent(type: .key, code: .keyBackspace, value: 0)) == nil)
    }

    @Test func injectorKeyMapRoundTrips() {
        for character in "Hello, World! 0123456789 -=[];'`\\,./ ~!@#$%^&*()_+{}:\"|<>?" {
            let key = KeyboardInjector.key(for: character)
            #expect(key != nil, "no key types \(character)")
            guard let (code, shifted) = key else { continue }
            var keys = KeyDecoder()
            if shifted { _ = keys.decode(InputEvent(type: .key, code: .keyLeftShift, value: 1)) }
            #expect(keys.decode(InputEvent(type: .key, code: code, value: 1)) == .text(String(character)))
        }
    }
}
