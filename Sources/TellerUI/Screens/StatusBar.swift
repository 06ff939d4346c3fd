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

    /// One row when it fits; at large text two: who and the clock, then
    /// the sync line and the badges; on a narrow panel the sync line joins
    /// the first row and the badges get rows of their own, two to a row or
    /// one under the other if need be. The operator's name,
    /// the queue total and the clock are never cut; only the sync line gives way.
    public func body() -> any Widget {
        let whoAndClock = HStack(spacing: 10, alignment: .center, [who, Spacer(minLength: 8), clock])
        return FirstThatFits([
            HStack(spacing: 10, alignment: .center, padding: padding, background: .statusBar, identifier: Self.identifier,
                   [who, Spacer(minLength: 8), sync] + badges + [clock]),
            VStack(spacing: 4, padding: padding, background: .statusBar, identifier: Self.identifier, [
                whoAndClock,
                HStack(spacing: 10, alignment: .center, [sync, Spacer(minLength: 8)] + badges),
            ]),
            // The sync line shares the first row, giving way to the name and the clock.
            VStack(spacing: 4, padding: padding, background: .statusBar, identifier: Self.identifier, [
                HStack(spacing: 10, alignment: .center, [who, Spacer(minLength: 8), sync, clock]),
                FirstThatFits(stackedBadges),
            ]),
            VStack(spacing: 4, padding: padding, background: .statusBar, identifier: Self.identifier, [
                whoAndClock,
                sync,
                FirstThatFits(stackedBadges),
            ]),
        ])
    }

    /// The badges in one row, two to a row, or one under the other.
    private var stackedBadges: [any Widget] {
        let badges = badges
        return [
            HStack(spacing: 10, alignment: .center, badges + [Spacer()]),
            // Two to a row: a longer language at large text keeps the bar short.
            VStack(spacing: 4, alignment: .start, stride(from: 0, to: badges.count, by: 2).map { start in
                HStack(spacing: 10, alignment: .center, Array(badges[start..<min(start + 2, badges.count)]) + [Spacer()])
            }),
            VStack(spacing: 4, alignment: .start, badges),
        ]
    }

    private var padding: Insets { .symmetric(horizontal: 16, vertical: 6) }

    private var who: any Widget {
        Label(model.whoText, style: .caption, color: .onStatusBar, canTruncate: false, identifier: "status.who")
    }

    private var sync: any Widget { Label(model.syncText, style: .caption, color: .onStatusBar, identifier: "status.sync") }

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
