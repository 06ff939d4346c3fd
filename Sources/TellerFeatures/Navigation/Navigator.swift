import FoundationEssentials
import TellerCore

/// What a view model may ask of navigation; the coordinator implements it.
@MainActor
public protocol Navigator: AnyObject {
    var isOnline: Bool { get }
    var signedInOperator: Operator? { get }
    func push(_ route: Route)
    func pop()
    /// Replaces the top screen (review becomes receipt).
    func replaceTop(with route: Route)
    func popToHome()
    func signedIn(_ op: Operator, mode: SignInMode)
    func unlocked()
    func lock()
    func signOut()
    /// The wall-clock time for what a screen shows ("Synced 2 min ago",
    /// a row's "today 08:02"). It moves with the status bar's clock, once a
    /// second, so a screen that reads it is redrawn as time passes, as one
    /// that reads the system clock directly would not be.
    var now: Date { get }
    /// The outbox changed here (a row written or acknowledged): the status
    /// bar must not wait for a sync event, which an offline terminal never gets.
    func outboxChanged()
    /// A slip was queued here: returns once the status bar counts it, so the
    /// screen never says "on its way" before the badge shows the slip waiting.
    func printQueueChanged() async
}
