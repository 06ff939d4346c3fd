import Observation
import TellerCore

/// What a terminal without a `terminal_id` shows instead of the sign-in: it
/// is not provisioned, what the technician does about it, and the facts a
/// technician checks while installing (the version, the display, the
/// input devices). It takes no sign-in and no payment, and the executable
/// builds no host client for it, so it reaches for no bank.
@MainActor @Observable
public final class UnprovisionedViewModel {
    private let dependencies: FeatureDependencies
    @ObservationIgnored private weak var navigator: (any Navigator)?
    /// The diagnostics facts, worded as the technician screen words them;
    /// empty until read (or where nothing can be asked).
    public private(set) var facts: [ReviewViewModel.Line] = []

    init(dependencies: FeatureDependencies, navigator: any Navigator) {
        self.dependencies = dependencies
        self.navigator = navigator
    }

    public var title: String { tr("This terminal is not provisioned") }
    public var explanation: String {
        tr("It takes no payments and contacts no bank until a technician provisions it with its terminal id, the bank's host and the terminal secret.")
    }
    /// The ways to provision it, each a sentence naming the tool and where it is documented.
    public var ways: [String] {
        [
            tr("On this terminal: {command} ({where}).", [
                "command": Localization.leftToRight("sudo /usr/lib/teller/provision --terminal-id … --host-url … --secret-file …"),
                "where": Localization.leftToRight("docs/deploy.md, “3. Provision”"),
            ]),
            tr("From the fleet: the {collection} Ansible collection's {playbook}, with this terminal in the inventory ({where}).", [
                "collection": Localization.leftToRight("teller.fleet"), "playbook": Localization.leftToRight("site.yml"),
                "where": Localization.leftToRight("docs/deploy.md, “Fleet: Ansible”"),
            ]),
            tr("The terminal restarts by itself once it is provisioned."),
        ]
    }
    public var factsTitle: String { tr("This terminal") }

    /// Reads the facts; a terminal without a diagnostics port shows none.
    func load() async {
        guard let diagnostics = dependencies.diagnostics else { return }
        facts = DiagnosticsViewModel.lines(for: await diagnostics.report(), dependencies)
    }
}

extension UnprovisionedViewModel: ScreenViewModel {
    public var screenName: String { "unprovisioned" }
    public var screenKind: ScreenKind { .unprovisioned(self) }
    public func appeared() async { await load() }
}
