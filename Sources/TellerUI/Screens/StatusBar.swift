import TellerFeatures
import Widgets

/// The bar on top of every screen: who and where, last sync, connection,
/// queue, rejections waiting, and the clock.
@MainActor
public struct StatusBar {
    public static let identifier = "status"
    public let model: StatusBarViewModel

    public init(model: StatusBarViewModel) { self.model = model }

    public func body() -> any Widget {
        var children: [any Widget] = [
            Label(model.whoText, style: .caption, color: .onStatusBar, identifier: "status.who"),
            Spacer(minLength: 8),
            // Who and the last sync give way first at large text; the badges and the clock never do.
            Label(model.syncText, style: .caption, color: .onStatusBar, identifier: "status.sync"),
            Badge(model.connectionText, tone: model.isOnline && !model.hasHostProblem ? .success : .warning, identifier: "status.connection",
                  accessibilityLabel: model.connectionAccessibilityLabel),
            Badge(model.queueText, tone: .neutral, identifier: "status.queue", accessibilityLabel: model.queueAccessibilityLabel),
        ]
        if let rejected = model.rejectedText {
            children.append(Badge(rejected, tone: .danger, identifier: "status.rejected"))
        }
        if let review = model.reviewText {
            children.append(Badge(review, tone: .danger, identifier: "status.review", accessibilityLabel: model.reviewAccessibilityLabel ?? review))
        }
        children.append(Label(model.clockText, style: .bodyBold, color: .onStatusBar, canTruncate: false, identifier: "status.clock"))
        return HStack(spacing: 10, alignment: .center, padding: .symmetric(horizontal: 16, vertical: 6), background: .statusBar,
                      identifier: Self.identifier, children)
    }
}
