import CFriBidi

/// A stretch of one line that reads in one direction: the logical scalars
/// `range`, drawn as one HarfBuzz run. A line's runs, in screen order left
/// to right, come from ``visualRuns(of:direction:)``.
struct VisualRun: Hashable {
    /// Indices into the line's scalars, in logical order.
    let range: Range<Int>
    let rightToLeft: Bool
}

extension VisualRun {
    /// The runs of the single line `scalars` in screen order, left to right,
    /// in a paragraph of base `direction`.
    ///
    /// FriBidi resolves the embedding levels (rules P2 to I1, brackets and
    /// isolates included) and reorders the line (L1 to L2); a run is then a
    /// stretch of one level that stays contiguous in logical order. Bidi
    /// controls are left out of every run, so they draw as nothing.
    static func visualRuns(of scalars: [UInt32], direction: TextDirection) -> [VisualRun] {
        let count = scalars.count
        guard count > 0 else { return [] }
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var visualToLogical = (0..<count).map { FriBidiStrIndex($0) }
        var base = direction == .rightToLeft ? cfribidi_par_rtl() : cfribidi_par_ltr()
        let length = FriBidiStrIndex(count)
        let resolved = scalars.withUnsafeBufferPointer { text -> Bool in
            fribidi_get_bidi_types(text.baseAddress, length, &types)
            fribidi_get_bracket_types(text.baseAddress, length, types, &brackets)
            guard fribidi_get_par_embedding_levels_ex(types, brackets, length, &base, &levels) > 0 else { return false }
            // No flags: marks stay where the levels put them; HarfBuzz orders a run's marks itself.
            return fribidi_reorder_line(0, types, length, 0, base, &levels, nil, &visualToLogical) > 0
        }
        // FriBidi fails only when it cannot allocate; logical order then still draws every glyph.
        guard resolved else {
            return contiguousStretches(of: scalars).map { VisualRun(range: $0, rightToLeft: direction == .rightToLeft) }
        }

        var runs: [VisualRun] = []
        var visual = 0
        while visual < count {
            let first = Int(visualToLogical[visual])
            visual += 1
            if TextRoute.isBidiControl(scalars[first]) { continue }
            let level = levels[first]
            let rightToLeft = level & 1 == 1
            var lower = first, upper = first
            while visual < count {
                let next = Int(visualToLogical[visual])
                guard levels[next] == level, !TextRoute.isBidiControl(scalars[next]),
                      next == (rightToLeft ? lower - 1 : upper + 1) else { break }
                if rightToLeft { lower = next } else { upper = next }
                visual += 1
            }
            runs.append(VisualRun(range: lower..<(upper + 1), rightToLeft: rightToLeft))
        }
        return runs
    }

    /// The stretches of `scalars` between bidi controls.
    private static func contiguousStretches(of scalars: [UInt32]) -> [Range<Int>] {
        var stretches: [Range<Int>] = []
        var start = 0
        for (index, value) in scalars.enumerated() where TextRoute.isBidiControl(value) {
            if index > start { stretches.append(start..<index) }
            start = index + 1
        }
        if scalars.count > start { stretches.append(start..<scalars.count) }
        return stretches
    }
}
