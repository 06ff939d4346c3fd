import Graphics
import Testing
import Widgets

@Suite struct DamageTests {
    func screen(balance: String) -> any Widget {
        Screen(identifier: "s", VStack(padding: .all(16), [
            Label("Balance", style: .caption),
            Label(balance, style: .title, identifier: "balance"),
            Button("Deposit", identifier: "deposit"),
            Spacer(),
        ]))
    }

    @Test func changingOneLabelDirtiesOnlyItsRect() {
        let context = makeContext()
        let size = Size(width: 400, height: 300)
        let old = context.layout(screen(balance: "1,000.00"), in: size)
        let new = context.layout(screen(balance: "1,250.00"), in: size)
        #expect(DamageTracker.damage(from: old, to: new) == [new.node(withIdentifier: "balance")!.frame])
        #expect(DamageTracker.damage(from: new, to: new).isEmpty)
        #expect(DamageTracker.damage(from: nil, to: new) == [new.frame])
    }

    @Test func pressingAButtonDirtiesOnlyTheButton() {
        var context = makeContext()
        let size = Size(width: 800, height: 480)
        let idle = context.layout(TellerScreens.account(), in: size)
        context.state.pressed = "deposit.keypad.5"
        let pressed = context.layout(TellerScreens.account(), in: size)
        #expect(DamageTracker.damage(from: idle, to: pressed) == [pressed.node(withIdentifier: "deposit.keypad.5")!.frame])
    }

    @Test func scrollingDirtiesOnlyTheListViewport() {
        var context = makeContext()
        let size = Size(width: 800, height: 480)
        let before = context.layout(TellerScreens.account(), in: size)
        context.state.scrollOffsets["activity"] = 40
        let after = context.layout(TellerScreens.account(), in: size)
        let damage = DamageTracker.damage(from: before, to: after)
        let viewport = after.node(withIdentifier: "activity")!.frame
        #expect(!damage.isEmpty)
        #expect(damage.allSatisfy { viewport.contains($0) })
    }

    /// Redrawing only the damage onto the previous frame gives the same pixels
    /// as drawing the new tree from scratch.
    @Test(arguments: [Theme.standard, Theme.highContrast])
    func damagedRedrawEqualsFullRedraw(theme: Theme) {
        var context = makeContext(theme: theme)
        let size = Size(width: 800, height: 480)
        let renderer = Renderer(fonts: context.fonts)
        let old = context.layout(TellerScreens.rejectedAlert(), in: size)
        context.state.pressed = "alert.rejected.ok"
        context.state.scrollOffsets["activity"] = 70
        let new = context.layout(TellerScreens.rejectedAlert(), in: size)

        let incremental = Surface(size: size)
        renderer.render(old, into: incremental)
        let damage = DamageTracker.damage(from: old, to: new)
        renderer.render(new, into: incremental, damage: damage)
        let full = Surface(size: size)
        renderer.render(new, into: full)

        var differing = 0
        for y in 0..<size.height {
            for x in 0..<size.width where incremental[x, y] != full[x, y] { differing += 1 }
        }
        #expect(differing == 0)
        #expect(damage.reduce(0) { $0 + $1.area } < size.width * size.height)
    }
}

@Suite struct DamageMergeTests {
    @Test func overlappingRectsMergeAndSeparateOnesStay() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 5, y: 5, width: 10, height: 10)
        let c = Rect(x: 100, y: 100, width: 4, height: 4)
        let merged = DamageTracker.merged([a, c, b])
        #expect(merged.count == 2)
        #expect(merged.contains(Rect(x: 0, y: 0, width: 15, height: 15)))
        #expect(merged.contains(c))
    }
}
