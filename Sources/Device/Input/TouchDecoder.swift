import Graphics

/// One change of one contact, in logical screen pixels.
public struct TouchEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Phase: String, Hashable, Sendable {
        /// A finger (or the pointer's button) went down.
        case began
        case moved
        /// The contact lifted.
        case ended
        /// The contact vanished without lifting (the device was unplugged).
        case cancelled
        /// A pointer moved with no button held: move the drawn cursor only.
        case hovered
    }

    public var phase: Phase
    /// The kernel's tracking id for multitouch, 0 for single-contact devices.
    public var contact: Int
    public var position: Point
    /// Time of the SYN_REPORT that completed the frame.
    public var time: EventTime

    public init(_ phase: Phase, contact: Int, at position: Point, time: EventTime = .zero) {
        self.phase = phase
        self.contact = contact
        self.position = position
        self.time = time
    }

    public var description: String { "\(phase) #\(contact) (\(position.x), \(position.y))" }
}

/// Turns evdev events from a touchscreen, absolute pointer or mouse into
/// ``TouchEvent``s, one frame (SYN_REPORT) at a time.
///
/// - Multitouch protocol B: ABS_MT_SLOT selects a slot; ABS_MT_TRACKING_ID
///   starts (id ≥ 0) or ends (-1) the slot's contact; positions persist per
///   slot, because the kernel drops repeated values.
/// - Single touch: BTN_TOUCH with ABS_X/ABS_Y.
/// - Absolute pointer: BTN_LEFT with ABS_X/ABS_Y; motion without the button
///   is `.hovered`.
/// - Relative mouse: REL_X/REL_Y move a cursor clamped to the logical
///   screen; BTN_LEFT presses.
///
/// SYN_DROPPED: the changes of the unfinished frame are thrown away, and the
/// events up to the next SYN_REPORT are taken as libevdev's resync delta
/// (what ``InputDevice`` delivers after LIBEVDEV_READ_FLAG_SYNC, and what
/// evemu-record writes), after which the decoder's state is the device's.
///
/// Not thread-safe; one decoder per device.
public struct TouchDecoder: Sendable {
    public enum Mode: Hashable, Sendable {
        case multitouch
        case singleTouch
        case absolutePointer
        case relativePointer
    }

    struct Slot: Hashable, Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        /// The id that was down at the last SYN_REPORT, and where it was.
        var reportedID: Int32 = -1
        var reportedPosition: Point = .zero
    }

    public let mode: Mode
    public var mapping: TouchMapping
    private var slots: [Slot]
    private var committed: [Slot]
    private var currentSlot: Int
    private var committedSlot: Int
    /// Single-touch and pointer state lives in slot 0; this is its button.
    private var buttonDown = false
    private var committedButtonDown = false
    private var relativeCursor: Point
    private var committedCursor: Point

    /// - Parameters:
    ///   - capabilities: the device's description; decides the mode and axes.
    ///   - transform: the display's rotation and panel size.
    ///   - calibration: the libinput-convention matrix (identity when none is provisioned).
    /// - Returns: nil when the device is not a touchscreen, pointer or mouse.
    public init?(capabilities: InputCapabilities, transform: DisplayTransform, calibration: AffineMatrix = .identity) {
        let mode: Mode
        let xCode: EventCode, yCode: EventCode
        switch capabilities.kind {
        case .multitouchScreen: (mode, xCode, yCode) = (.multitouch, .absMTPositionX, .absMTPositionY)
        case .singleTouchScreen: (mode, xCode, yCode) = (.singleTouch, .absX, .absY)
        case .absolutePointer: (mode, xCode, yCode) = (.absolutePointer, .absX, .absY)
        case .relativeMouse: (mode, xCode, yCode) = (.relativePointer, .absX, .absY)
        default: return nil
        }
        let size = transform.logicalSize
        let fallbackX = AbsoluteAxis(minimum: 0, maximum: Int32(clamping: transform.physicalSize.width - 1))
        let fallbackY = AbsoluteAxis(minimum: 0, maximum: Int32(clamping: transform.physicalSize.height - 1))
        let xAxis = capabilities.absoluteAxes[xCode] ?? fallbackX
        let yAxis = capabilities.absoluteAxes[yCode] ?? fallbackY
        guard xAxis.maximum > xAxis.minimum, yAxis.maximum > yAxis.minimum else { return nil }
        // The reader and InputDevice refuse absurd slot ranges; capabilities built in
        // code are not checked, so clamp here too: Int32.max + 1 trapped, and
        // 50,000,000 slots cost 1.6 GB. Contacts in further slots are ignored.
        let slotMaximum = Int(capabilities.absoluteAxes[.absMTSlot]?.maximum ?? 0)
        let slotCount = mode == .multitouch ? min(max(1, slotMaximum + 1), AbsoluteAxis.maximumSlots) : 1
        self.mode = mode
        mapping = TouchMapping(xAxis: xAxis, yAxis: yAxis, transform: transform, calibration: calibration)
        slots = Array(repeating: Slot(), count: slotCount)
        committed = slots
        currentSlot = Int(capabilities.absoluteAxes[.absMTSlot]?.value ?? 0)
        if currentSlot < 0 || currentSlot >= slotCount { currentSlot = 0 }
        committedSlot = currentSlot
        relativeCursor = Point(x: size.width / 2, y: size.height / 2)
        committedCursor = relativeCursor
    }

    /// Contacts that are down after the last SYN_REPORT, by contact id.
    public var activeContacts: [Int: Point] {
        var result: [Int: Point] = [:]
        for slot in committed where slot.reportedID >= 0 { result[Int(slot.reportedID)] = slot.reportedPosition }
        return result
    }

    /// Where a relative mouse's cursor is.
    public var cursor: Point { relativeCursor }

    /// Feeds one event; returns the contact changes when it completes a frame.
    public mutating func decode(_ event: InputEvent) -> [TouchEvent] {
        switch event.type {
        case .synchronization:
            if event.code == .synReport { return commit(at: event.time) }
            if event.code == .synDropped { rollBack() }
        case .absolute:
            absolute(event.code, event.value)
        case .key:
            if event.code == .buttonTouch && (mode == .singleTouch) { buttonDown = event.value != 0 }
            if event.code == .buttonLeft && (mode == .absolutePointer || mode == .relativePointer) { buttonDown = event.value != 0 }
        case .relative where mode == .relativePointer:
            let size = mapping.transform.logicalSize
            if event.code == .relX { relativeCursor.x = min(max(relativeCursor.x + Int(event.value), 0), size.width - 1) }
            if event.code == .relY { relativeCursor.y = min(max(relativeCursor.y + Int(event.value), 0), size.height - 1) }
        default:
            break
        }
        return []
    }

    /// Decodes a whole sequence (a recording, a test).
    public mutating func decode<S: Sequence>(all events: S) -> [TouchEvent] where S.Element == InputEvent {
        events.flatMap { decode($0) }
    }

    /// Ends every contact, for a device that was unplugged mid-touch.
    public mutating func cancelAll(at time: EventTime = .zero) -> [TouchEvent] {
        var out: [TouchEvent] = []
        for i in committed.indices where committed[i].reportedID >= 0 {
            out.append(TouchEvent(.cancelled, contact: Int(committed[i].reportedID), at: committed[i].reportedPosition, time: time))
            committed[i].reportedID = -1
            committed[i].trackingID = -1
        }
        slots = committed
        buttonDown = false
        committedButtonDown = false
        return out
    }

    private mutating func absolute(_ code: EventCode, _ value: Int32) {
        switch mode {
        case .multitouch:
            switch code {
            case .absMTSlot:
                // Out-of-range slots come from devices with more contacts than advertised; ignore their data.
                currentSlot = Int(value)
            case .absMTTrackingID where slots.indices.contains(currentSlot): slots[currentSlot].trackingID = value
            case .absMTPositionX where slots.indices.contains(currentSlot): slots[currentSlot].x = value
            case .absMTPositionY where slots.indices.contains(currentSlot): slots[currentSlot].y = value
            default: break
            }
        case .singleTouch, .absolutePointer:
            if code == .absX { slots[0].x = value }
            if code == .absY { slots[0].y = value }
        case .relativePointer:
            break
        }
    }

    private mutating func rollBack() {
        slots = committed
        currentSlot = committedSlot
        buttonDown = committedButtonDown
        relativeCursor = committedCursor
    }

    private mutating func commit(at time: EventTime) -> [TouchEvent] {
        var out: [TouchEvent] = []
        switch mode {
        case .multitouch:
            for i in slots.indices {
                var slot = slots[i]
                let position = mapping.logicalPoint(rawX: slot.x, rawY: slot.y)
                if slot.reportedID >= 0 && slot.reportedID != slot.trackingID {
                    out.append(TouchEvent(.ended, contact: Int(slot.reportedID), at: slot.reportedPosition, time: time))
                    slot.reportedID = -1
                }
                if slot.trackingID >= 0 {
                    if slot.reportedID < 0 {
                        out.append(TouchEvent(.began, contact: Int(slot.trackingID), at: position, time: time))
                    } else if position != slot.reportedPosition {
                        out.append(TouchEvent(.moved, contact: Int(slot.trackingID), at: position, time: time))
                    }
                    slot.reportedID = slot.trackingID
                    slot.reportedPosition = position
                }
                slots[i] = slot
            }
        case .singleTouch, .absolutePointer, .relativePointer:
            var slot = slots[0]
            let position = mode == .relativePointer ? relativeCursor : mapping.logicalPoint(rawX: slot.x, rawY: slot.y)
            let moved = position != slot.reportedPosition
            if buttonDown && !committedButtonDown {
                out.append(TouchEvent(.began, contact: 0, at: position, time: time))
                slot.reportedID = 0
            } else if !buttonDown && committedButtonDown {
                out.append(TouchEvent(.ended, contact: 0, at: position, time: time))
                slot.reportedID = -1
            } else if moved {
                let pointer = mode != .singleTouch
                if buttonDown { out.append(TouchEvent(.moved, contact: 0, at: position, time: time)) }
                else if pointer { out.append(TouchEvent(.hovered, contact: 0, at: position, time: time)) }
            }
            slot.trackingID = buttonDown ? 0 : -1
            slot.reportedPosition = position
            slots[0] = slot
            committedButtonDown = buttonDown
            committedCursor = relativeCursor
        }
        committed = slots
        committedSlot = currentSlot
        return out
    }
}
