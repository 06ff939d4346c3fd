import TellerCore

/// How a member of staff reads on the screen and on paper: by name and
/// staff number ("Anna Berger (1001)") where the terminal knows the name,
/// else by the number alone. The operator and the supervisor who approved
/// read the same way everywhere.
public enum StaffText {
    /// "Anna Berger (1001)".
    public static func text(_ op: Operator) -> String {
        tr("{name} ({id})", ["name": Localization.verbatim(op.displayName), "id": Localization.leftToRight("\(op.id)")])
    }

    /// `id` by name when `known` is that member of staff, else the number.
    public static func text(_ id: OperatorID, known: Operator?) -> String {
        if let known, known.id == id { text(known) } else { Localization.leftToRight(id.rawValue) }
    }
}
