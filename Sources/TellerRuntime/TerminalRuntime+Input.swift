import Device
import Graphics
import TellerFeatures
import TellerUI
import Widgets

extension TerminalRuntime {
    /// Opens the evdev devices (following hotplug) and the in-process
    /// devices that `teller ctl` injects through.
    func startInput() {
        do {
            try loop.attach(input: monitor) { [unowned self] notice in self.handle(notice) }
        } catch {
            onInputUnavailable?(error)
        }
        if let sink = loop.attachInProcessDevice(capabilities: TouchInjector.capabilities(name: "teller ctl touchscreen"), to: monitor) {
            syntheticTouch = TouchInjector(transform: display.transform, sink: sink)
        }
        if let sink = loop.attachInProcessDevice(capabilities: KeyboardInjector.capabilities(name: "teller ctl keyboard"), to: monitor) {
            let keyboard = KeyboardInjector(sink: sink)
            // Typed at a person's pace, so the keyboard is not taken for a scanner.
            keyboard.keyDelayMicroseconds = 35_000
            syntheticKeyboard = keyboard
        }
    }

    func handle(_ notice: InputNotice) {
        switch notice {
        case .added:
            onDeviceNotice?(notice)
        case .removed(let path, _):
            keyLines[path] = nil
            onDeviceNotice?(notice)
        case .failed:
            onDeviceNotice?(notice)
        case .touch(let event, _):
            handleTouch(event)
        case .keyboard(let input, let path, let time):
            handleKeyboard(input, from: path, at: time)
        }
    }

    private func handleTouch(_ event: TouchEvent) {
        coordinator.noteActivity()
        // The kernel's timestamp, not when the loop got round to the event: a fling's speed comes from these.
        let time = Double(event.time.totalMicroseconds) / 1_000_000
        switch event.phase {
        case .began:
            latency?.handled(.press, at: event.time)
            // Hit-test what the screen shows now, even if that frame is not
            // drawn yet (a tap right after a navigation).
            let tree = layoutCurrentScreen()
            if view.wantsRawTouches, tree.identifier(at: event.position) == nil {
                screenInputs += 1
                let size = display.size
                view.handleTouch(x: event.position.x, y: event.position.y,
                                 rawX: Double(event.position.x) / Double(max(1, size.width)), rawY: Double(event.position.y) / Double(max(1, size.height)))
            }
            touch.down(at: event.position, time: time, in: tree, state: &layout.state)
        case .moved:
            touch.move(to: event.position, time: time, state: &layout.state)
        case .ended:
            latency?.handled(.release, at: event.time)
            if let identifier = touch.up(at: event.position, time: time, state: &layout.state) {
                screenInputs += 1
                view.handleTap(identifier: identifier)
            }
        case .cancelled:
            touch.cancel(state: &layout.state)
        case .hovered:
            break
        }
        loop.setNeedsDisplay()
    }

    /// Keys type into the focused field. A scanner's line comes as one
    /// `.scan`; a scanner that poses as a keyboard sends its keys and then
    /// the same line as `.scan`, which is dropped so nothing is typed twice.
    private func handleKeyboard(_ input: KeyboardInput, from path: String, at time: EventTime) {
        coordinator.noteActivity()
        screenInputs += 1
        switch input {
        case .key(let key):
            latency?.handled(.key, at: time)
            switch key {
            case .text(let text):
                keyLines[path, default: KeyLine()].current += text
                view.handleText(text)
            case .enter:
                keyLines[path, default: KeyLine()].finish()
                view.handleKey(.enter)
            case .backspace:
                keyLines[path, default: KeyLine()].current = String(keyLines[path, default: KeyLine()].current.dropLast())
                view.handleKey(.backspace)
            case .tab:
                view.handleKey(.tab)
            default:
                break
            }
        case .scan(let text):
            if keyLines[path]?.lastFinished == text {
                keyLines[path]?.lastFinished = nil
            } else {
                latency?.handled(.scan, at: time)
                view.handleText(text + "\n")
            }
        }
        loop.setNeedsDisplay()
    }
}

/// What one keyboard typed since its last Enter, and the line before.
struct KeyLine {
    var current = ""
    var lastFinished: String?

    mutating func finish() {
        lastFinished = current
        current = ""
    }
}
