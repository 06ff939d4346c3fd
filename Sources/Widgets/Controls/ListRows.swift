/// The rows of a ``List``, asked for by index: a list of 1,000 rows builds
/// the ``ListRow``s it shows (and, once, those it measures), not all of
/// them for every layout.
///
/// Rows are made from a source value (a view model's rows) by a function
/// of the source and the index. The source also says whether two
/// `ListRows` are the same: a list keeps its rows' heights while the
/// source compares equal, which for an array that was not rebuilt costs
/// nothing (its storage is the same). So the function must make its rows
/// from the source alone and what it captured once; it runs later, during
/// layout and when accessibility asks for rows out of view, maybe in
/// another ``Localization`` scope, so it must not translate anything.
public struct ListRows: Sendable {
    public let count: Int
    private let make: @Sendable (Int) -> ListRow
    private let source: any Equatable & Sendable

    /// Rows already built.
    public init(_ rows: [ListRow]) {
        count = rows.count
        make = { rows[$0] }
        source = rows
    }

    /// `count` rows, row `index` being `row(source, index)`.
    public init<Source: Equatable & Sendable>(count: Int, from source: Source,
                                              row: @escaping @Sendable (_ source: Source, _ index: Int) -> ListRow) {
        self.count = count
        make = { row(source, $0) }
        self.source = source
    }

    public subscript(index: Int) -> ListRow { make(index) }

    public var isEmpty: Bool { count == 0 }

    /// Whether `other` is made from an equal source: the same rows.
    public func isSame(as other: ListRows) -> Bool {
        count == other.count && Self.equal(source, other.source)
    }

    private static func equal<Source: Equatable>(_ source: Source, _ other: any Equatable & Sendable) -> Bool {
        (other as? Source) == source
    }
}
