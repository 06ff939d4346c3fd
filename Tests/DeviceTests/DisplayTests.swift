import Graphics
import Testing
@testable import Device

@Suite("Displays, rotation and buffer age")
struct DisplayTests {
    /// The end-to-end rotation check: a marker drawn at a logical point lands on
    /// the panel pixel the transform names, and a touch on that panel pixel,
    /// through the kernel's raw range, decodes back to the logical point.
    @Test(arguments: Rotation.allCases)
    func tapOnRenderedMarkerDecodesToTheLogicalPoint(rotation: Rotation) throws {
        let display = OffscreenDisplay(physicalSize: Size(width: 1280, height: 800), rotation: rotation)
        let logical = Point(x: 100, y: 60)
        display.backBuffer[logical.x, logical.y] = 0xFFFF_8000
        try display.presentAll()

        var found: [Point] = []
        for y in 0..<display.scanout.height {
            for x in 0..<display.scanout.width where display.scanout[x, y] == 0xFFFF_8000 { found.append(Point(x: x, y: y)) }
        }
        let expectedPhysical: Point = switch rotation {
        case .degrees0: Point(x: 100, y: 60)
        case .degrees90: Point(x: 1279 - 60, y: 100)
        case .degrees180: Point(x: 1279 - 100, y: 799 - 60)
        case .degrees270: Point(x: 60, y: 799 - 100)
        }
        #expect(found == [expectedPhysical])

        let caps = TouchInjector.capabilities()
        var decoder = try #require(TouchDecoder(capabilities: caps, transform: display.transform))
        let raw = TouchMapping.raw(forPhysical: expectedPhysical, physicalSize: display.transform.physicalSize, xAxis: TouchInjector.axis, yAxis: TouchInjector.axis)
        let events = decoder.decode(all: [
            InputEvent(type: .absolute, code: .absMTSlot, value: 0),
            InputEvent(type: .absolute, code: .absMTTrackingID, value: 5),
            InputEvent(type: .absolute, code: .absMTPositionX, value: raw.x),
            InputEvent(type: .absolute, code: .absMTPositionY, value: raw.y),
            .report(),
        ])
        #expect(events.map(\.summary) == ["began#5@100,60"])
    }

    @Test(arguments: Rotation.allCases)
    func transformDirectionsAreInverse(rotation: Rotation) {
        let t = DisplayTransform(rotation: rotation, physicalSize: Size(width: 7, height: 4))
        var seen = Set<Point>()
        for y in 0..<t.logicalSize.height {
            for x in 0..<t.logicalSize.width {
                let p = t.physical(fromLogical: Point(x: x, y: y))
                #expect(p.x >= 0 && p.x < 7 && p.y >= 0 && p.y < 4)
                #expect(t.logical(fromPhysical: p) == Point(x: x, y: y))
                seen.insert(p)
            }
        }
        #expect(seen.count == 28)
        let r = Rect(x: 1, y: 0, width: 2, height: 3)
        let mapped = t.physical(fromLogical: r)
        #expect(mapped.area == 6)
    }

    @Test func bufferAgeCarriesDamageToTheOtherBuffer() {
        var ages = BufferAge(buffers: 2, bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(ages.stale(1) == Rect(x: 0, y: 0, width: 100, height: 100))  // never drawn
        ages.presented(1, damage: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(ages.stale(0) == Rect(x: 0, y: 0, width: 100, height: 100))
        ages.presented(0, damage: Rect(x: 10, y: 10, width: 5, height: 5))
        #expect(ages.stale(1) == Rect(x: 10, y: 10, width: 5, height: 5))
        ages.presented(1, damage: Rect(x: 50, y: 50, width: 5, height: 5))
        #expect(ages.stale(0) == Rect(x: 50, y: 50, width: 5, height: 5))
        #expect(ages.stale(1) == .zero)
    }

    /// Two XRGB buffers, drawn directly: partial redraws stay correct because
    /// the stale region is repaired along with the damage.
    @Test func directSwapChainStaysCorrectWithPartialRedraws() {
        let size = Size(width: 64, height: 48)
        let memory = (0..<2).map { _ in Surface(size: size) }
        let buffers = memory.map { ScanoutBuffer(base: UnsafeMutableRawPointer($0.baseAddress), strideBytes: $0.strideBytes, size: size, format: .xrgb8888) }
        let chain = SwapChain(transform: DisplayTransform(rotation: .degrees0, physicalSize: size), buffers: buffers, owner: nil, firstBack: 1)
        #expect(chain.drawsDirectly)
        let scene = Surface(size: size)
        var shown = 0
        for frame in 0..<6 {
            let damage = Rect(x: frame * 8, y: frame * 6, width: 8, height: 6)
            for y in damage.minY..<damage.maxY { for x in damage.minX..<damage.maxX { scene[x, y] = UInt32(0xFF00_0000 | (frame + 1)) } }
            chain.backBuffer.copy(damage.union(chain.staleRegion), from: scene)
            shown = chain.prepare(damage: damage)
            chain.advance()
            var differ = 0
            for y in 0..<size.height { for x in 0..<size.width where memory[shown][x, y] != scene[x, y] { differ += 1 } }
            #expect(differ == 0, "frame \(frame): \(differ) stale pixels on screen")
        }
    }

    /// Rotated output draws into a shadow; each scanout buffer still gets what it missed.
    @Test(arguments: [Rotation.degrees90, .degrees180, .degrees270])
    func rotatedShadowChainStaysCorrect(rotation: Rotation) {
        let physical = Size(width: 40, height: 30)
        let transform = DisplayTransform(rotation: rotation, physicalSize: physical)
        let memory = (0..<2).map { _ in Surface(size: physical) }
        let buffers = memory.map { ScanoutBuffer(base: UnsafeMutableRawPointer($0.baseAddress), strideBytes: $0.strideBytes, size: physical, format: .xrgb8888) }
        let chain = SwapChain(transform: transform, buffers: buffers, owner: nil, firstBack: 1)
        #expect(!chain.drawsDirectly)
        #expect(chain.staleRegion == .zero)  // the shadow is always complete
        for frame in 0..<5 {
            let damage = Rect(x: frame * 5, y: frame * 4, width: 6, height: 5)
            let logical = chain.backBuffer
            for y in damage.minY..<min(damage.maxY, logical.height) {
                for x in damage.minX..<min(damage.maxX, logical.width) { logical[x, y] = UInt32(0xFF00_0000 | (frame + 1) << 8 | x) }
            }
            let shown = chain.prepare(damage: frame == 0 ? logical.bounds : damage)
            chain.advance()
            var differ = 0
            for y in 0..<logical.height {
                for x in 0..<logical.width {
                    let p = transform.physical(fromLogical: Point(x: x, y: y))
                    if memory[shown][p.x, p.y] != logical[x, y] { differ += 1 }
                }
            }
            #expect(differ == 0, "frame \(frame): \(differ) pixels differ on the panel")
        }
    }

    @Test func rgb565Conversion() {
        let size = Size(width: 2, height: 1)
        let raw = UnsafeMutablePointer<UInt16>.allocate(capacity: 2)
        defer { raw.deallocate() }
        let buffer = ScanoutBuffer(base: UnsafeMutableRawPointer(raw), strideBytes: 4, size: size, format: .rgb565)
        let source = Surface(size: size)
        source[0, 0] = 0xFFFF_0000
        source[1, 0] = 0xFF08_0C10  // r 8>>3=1, g 12>>2=3, b 16>>3=2
        buffer.copy(source.bounds, from: source, transform: DisplayTransform(rotation: .degrees0, physicalSize: size))
        #expect(raw[0] == 0xF800)
        #expect(raw[1] == (1 << 11 | 3 << 5 | 2))
    }

    @Test func modeRequests() {
        #expect(ModeRequest("1280x800@60") == ModeRequest(width: 1280, height: 800, refresh: 60))
        #expect(ModeRequest("800x480") == ModeRequest(width: 800, height: 480))
        #expect(ModeRequest("800x") == nil)
        #expect(ModeRequest("800x480@") == nil)
        #expect(ModeRequest("1280x800@60@1") == nil)
    }

    @Test func errorsTellTheTechnicianWhatToDo() {
        let denied = DisplayError.opening("/dev/dri/card0", .permissionDenied)
        #expect(denied.kind == .permissionDenied)
        #expect(denied.description.contains("'video' group"))
        #expect(denied.description.contains("/dev/dri/card0"))
        #expect(DisplayError.opening("/dev/dri/card0", .noSuchFile).kind == .noDevice)
        let master = DisplayError(kind: .cannotBecomeMaster, path: "/dev/dri/card0", errno: .notPermitted)
        #expect(master.description.contains("another compositor"))
        #expect(InputError.opening("/dev/input/event3", .permissionDenied).description.contains("'input' group"))
    }

    @Test func missingCardSaysNoDevice() {
        #expect {
            try DRMDisplay(configuration: .init(cardPath: "/nonexistent/dri/card9"))
        } throws: { error in
            guard let error = error as? DisplayError else { return false }
            return error.kind == .noDevice && error.path == "/nonexistent/dri/card9" && error.errno == .noSuchFile
        }
        #expect {
            try FramebufferDisplay(path: "/nonexistent/fb9")
        } throws: { error in
            (error as? DisplayError)?.kind == .noDevice
        }
    }
}
