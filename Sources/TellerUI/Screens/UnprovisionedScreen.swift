import TellerFeatures
import Widgets

/// The technician's notice on a terminal that is not provisioned: what it
/// is and what to do on the left, the terminal's facts on the right. There
/// is nothing to sign in to; the facts' rows take a tap and do nothing.
@MainActor
public struct UnprovisionedScreen: TerminalScreen {
    public enum Control: RawRepresentable {
        /// A row of the facts (`unprovisioned.fact.0`).
        case fact(Int)

        public static let facts = "unprovisioned.facts"

        public var rawValue: String {
            switch self {
            case .fact(let index): "\(Self.facts).\(index)"
            }
        }

        public init?(rawValue: String) {
            guard let index = rawValue.member(of: Self.facts).flatMap({ Int($0) }) else { return nil }
            self = .fact(index)
        }
    }

    public let model: UnprovisionedViewModel

    public init(model: UnprovisionedViewModel) { self.model = model }

    public var title: String { model.title }

    public func body() -> any Widget {
        // The what-to-do is never cut: at large text it scrolls, and its
        // lines keep clear of the scroll indicator on the trailing edge.
        let notice = VStack(spacing: Theme.Spacing.medium, padding: Insets(trailing: Theme.Spacing.medium), [
            Label(model.title, style: .title, maxLines: 3, canTruncate: false, identifier: "unprovisioned.title"),
            Label(model.explanation, style: .body, maxLines: 8, canTruncate: false, identifier: "unprovisioned.explanation"),
        ] + model.ways.enumerated().map { index, way in
            Label(way, style: .body, color: .secondaryText, maxLines: 8, canTruncate: false, identifier: "unprovisioned.way.\(index)")
        })
        let facts = VStack(spacing: Theme.Spacing.small, [
            Label(model.factsTitle, style: .bodyBold),
            List(identifier: Control.facts, label: model.factsTitle, rows: model.facts.enumerated().map { index, line in
                ListRow(identifier: Control.fact(index).rawValue, title: line.value, subtitle: line.label)
            }),
        ])
        return HStack(spacing: Theme.Spacing.xxLarge, padding: .symmetric(horizontal: Theme.Spacing.xLarge, vertical: Theme.Spacing.medium), [
            Flexible(1, ScrollArea(identifier: "unprovisioned.notice", label: model.title, notice)),
            Flexible(1, facts),
        ])
    }

    public func tap(_ control: Control, _ actions: ScreenActions) {}
}
