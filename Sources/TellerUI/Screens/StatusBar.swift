import TellerFeatures
import Widgets

/// The bar on top of every screen: who and where, last sync, connection,
/// queue, rejections waiting, the receipt printer when it needs someone or
/// slips wait for it, and the clock.
@MainActor
public struct StatusBar {
    public static let identifier = "status"
    public let model: StatusBarViewModel

    public init(model: StatusBarViewModel) { self.model = model }

    /// One row when it fits; otherwise two: who and the clock, then the
    /// sync line and the badges, or the sync line in the first row and the
    /// badges under it; on a narrow panel the badges get rows of their own,
    /// two to a row or one under the other if need be. The operator's name,
    /// the queue total and the clock are never cut. The sync line is whole
    /// in every arrangement but one: a second row that shortens it, tried
    /// before the bar takes a third row from the screen below (a long
    /// language at text scale 2.0). So a printer's badge moves the sync line
    /// rather than cut it ("Synced just…" said nothing).
    public func body() -> any Widget {
        let whoAndClock = HStack(spacing: Theme.Spacing.compact, alignment: .center, [who, Spacer(minLength: Theme.Spacing.small), clock])
        return FirstThatFits([
            HStack(spacing: Theme.Spacing.compact, alignment: .center, padding: padding, background: .statusBar, identifier: Self.identifier,
                   [who, Spacer(minLength: Theme.Spacing.small), sync(whole: true)] + badges + [clock]),
            VStack(spacing: Theme.Spacing.xxSmall, padding: padding, background: .statusBar, identifier: Self.identifier, [
                whoAndClock,
                HStack(spacing: Theme.Spacing.compact, alignment: .center, [sync(whole: true), Spacer(minLength: Theme.Spacing.small)] + badges),
            ]),
            VStack(spacing: Theme.Spacing.xxSmall, padding: padding, background: .statusBar, identifier: Self.identifier, [
                HStack(spacing: Theme.Spacing.compact, alignment: .center, [who, Spacer(minLength: Theme.Spacing.small), sync(whole: true), clock]),
                HStack(spacing: Theme.Spacing.compact, alignment: .center, badges + [Spacer()]),
            ]),
            VStack(spacing: Theme.Spacing.xxSmall, padding: padding, background: .statusBar, identifier: Self.identifier, [
                whoAndClock,
                HStack(spacing: Theme.Spacing.compact, alignment: .center, [sync(whole: false), Spacer(minLength: Theme.Spacing.small)] + badges),
            ]),
            // The sync line shares the first row, giving way to the name and the clock.
            VStack(spacing: Theme.Spacing.xxSmall, padding: padding, background: .statusBar, identifier: Self.identifier, [
                HStack(spacing: Theme.Spacing.compact, alignment: .center, [who, Spacer(minLength: Theme.Spacing.small), sync(whole: false), clock]),
                FirstThatFits(stackedBadges),
            ]),
            VStack(spacing: Theme.Spacing.xxSmall, padding: padding, background: .statusBar, identifier: Self.identifier, [
                whoAndClock,
                sync(whole: false),
                FirstThatFits(stackedBadges),
            ]),
        ])
    }

    /// The badges in one row, two to a row, or one under the other.
    private var stackedBadges: [any Widget] {
        let badges = badges
        return [
            HStack(spacing: Theme.Spacing.compact, alignment: .center, badges + [Spacer()]),
            // Two to a row: a longer language at large text keeps the bar short.
            VStack(spacing: Theme.Spacing.xxSmall, alignment: .start, stride(from: 0, to: badges.count, by: 2).map { start in
                HStack(spacing: Theme.Spacing.compact, alignment: .center, Array(badges[start..<min(start + 2, badges.count)]) + [Spacer()])
            }),
            VStack(spacing: Theme.Spacing.xxSmall, alignment: .start, badges),
        ]
    }

    private var padding: Insets { .symmetric(horizontal: Theme.Spacing.large, vertical: Theme.Spacing.xSmall) }

    private var who: any Widget {
        Label(model.whoText, style: .caption, color: .onStatusBar, canTruncate: false, identifier: "status.who")
    }

    /// The sync line; `whole` keeps an arrangement that would cut it from being chosen.
    private func sync(whole: Bool) -> any Widget {
        Label(model.syncText, style: .caption, color: .onStatusBar, canTruncate: !whole, identifier: "status.sync")
    }

    private var clock: any Widget {
        Label(model.clockText, style: .bodyBold, color: .onStatusBar, canTruncate: false, identifier: "status.clock")
    }

    private var badges: [any Widget] {
        var badges: [any Widget] = [
            Badge(model.connectionText, tone: model.isOnline && !model.hasHostProblem ? .success : .warning, identifier: "status.connection",
                  accessibilityLabel: model.connectionAccessibilityLabel),
            Badge(model.queueText, tone: .neutral, identifier: "status.queue", accessibilityLabel: model.queueAccessibilityLabel),
        ]
        if let rejected = model.rejectedText {
            badges.append(Badge(rejected, tone: .danger, identifier: "status.rejected"))
        }
        if let printer = model.printerText {
            badges.append(Badge(printer, tone: model.printerNeedsAttention ? .warning : .neutral, identifier: "status.printer",
                                accessibilityLabel: model.printerAccessibilityLabel ?? printer))
        }
        if let review = model.reviewText {
            badges.append(Badge(review, tone: .danger, identifier: "status.review", accessibilityLabel: model.reviewAccessibilityLabel ?? review))
        }
        return badges
    }
}
