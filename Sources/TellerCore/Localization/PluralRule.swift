/// A catalog's `Plural-Forms` rule: how many forms the language has and
/// which one a count takes, a C expression in `n` such as Arabic's
/// `n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5`.
///
/// Parsed once when the catalog loads, into a tree evaluated per count;
/// an expression that does not parse is refused with the reason.
public struct PluralRule: Sendable {
    /// How many forms the language has (`nplurals`).
    public let count: Int
    private let expression: Expression

    /// English's rule, used when a catalog has no header.
    static let germanic = PluralRule(count: 2, expression: .binary("!=", .n, .number(1)))

    private init(count: Int, expression: Expression) {
        self.count = count
        self.expression = expression
    }

    /// Reads `nplurals=N; plural=EXPR;` from a `Plural-Forms` header value.
    public init(header: String) throws(CatalogError) {
        var nplurals: Int?
        var plural: String?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingASCIIWhitespace()
            if name == "nplurals" { nplurals = Int(pair[1].trimmingASCIIWhitespace()) }
            if name == "plural" { plural = pair[1].trimmingASCIIWhitespace() }
        }
        guard let nplurals, (1...6).contains(nplurals) else { throw .pluralForms("nplurals must be 1 to 6 in '\(header)'") }
        guard let plural, !plural.isEmpty else { throw .pluralForms("no plural= expression in '\(header)'") }
        var parser = Parser(Array(plural.utf8))
        let expression = try parser.parse()
        self.init(count: nplurals, expression: expression)
        // Every form the rule can choose must exist.
        for n in 0..<1000 where index(for: n) >= nplurals {
            throw .pluralForms("plural=\(plural) chooses form \(index(for: n)) for n=\(n), but nplurals=\(nplurals)")
        }
    }

    /// The form for `count` (negative counts use their magnitude).
    public func index(for count: Int) -> Int {
        let value = expression.evaluate(Int64(clamping: count.magnitude))
        return value < 0 ? 0 : Int(min(value, 5))
    }

    indirect enum Expression: Sendable {
        case n
        case number(Int64)
        case not(Expression)
        case binary(String, Expression, Expression)
        case conditional(Expression, Expression, Expression)

        func evaluate(_ n: Int64) -> Int64 {
            switch self {
            case .n: return n
            case .number(let value): return value
            case .not(let operand): return operand.evaluate(n) == 0 ? 1 : 0
            case .conditional(let test, let yes, let no): return test.evaluate(n) != 0 ? yes.evaluate(n) : no.evaluate(n)
            case .binary(let op, let lhs, let rhs):
                let a = lhs.evaluate(n)
                if op == "&&" { return a != 0 && rhs.evaluate(n) != 0 ? 1 : 0 }
                if op == "||" { return a != 0 || rhs.evaluate(n) != 0 ? 1 : 0 }
                let b = rhs.evaluate(n)
                switch op {
                case "==": return a == b ? 1 : 0
                case "!=": return a != b ? 1 : 0
                case "<": return a < b ? 1 : 0
                case ">": return a > b ? 1 : 0
                case "<=": return a <= b ? 1 : 0
                case ">=": return a >= b ? 1 : 0
                case "+": return a &+ b
                case "-": return a &- b
                case "*": return a &* b
                case "/": return b == 0 ? 0 : a / b
                case "%": return b == 0 ? 0 : a % b
                default: return 0
                }
            }
        }
    }

    /// Recursive descent over C's precedence: ?:, ||, &&, equality,
    /// relational, additive, multiplicative, unary !, primary.
    struct Parser {
        private let bytes: [UInt8]
        private var index = 0
        private var depth = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func parse() throws(CatalogError) -> Expression {
            let expression = try conditional()
            skipSpaces()
            guard index == bytes.count else { throw failure("unexpected '\(String(decoding: bytes[index...], as: UTF8.self))'") }
            return expression
        }

        private func failure(_ reason: String) -> CatalogError {
            .pluralForms("plural=\(String(decoding: bytes, as: UTF8.self)): \(reason)")
        }

        private mutating func conditional() throws(CatalogError) -> Expression {
            depth += 1
            defer { depth -= 1 }
            guard depth < 64 else { throw failure("nested too deeply") }
            let test = try binary(level: 0)
            guard take("?") else { return test }
            let yes = try conditional()
            guard take(":") else { throw failure("'?' without ':'") }
            let no = try conditional()
            return .conditional(test, yes, no)
        }

        private static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"]]

        private mutating func binary(level: Int) throws(CatalogError) -> Expression {
            guard level < Self.levels.count else { return try unary() }
            var lhs = try binary(level: level + 1)
            while let op = Self.levels[level].first(where: { peek($0) }) {
                _ = take(op)
                lhs = .binary(op, lhs, try binary(level: level + 1))
            }
            return lhs
        }

        private mutating func unary() throws(CatalogError) -> Expression {
            if peek("!") && !peek("!=") {
                _ = take("!")
                depth += 1
                defer { depth -= 1 }
                guard depth < 64 else { throw failure("nested too deeply") }
                return .not(try unary())
            }
            return try primary()
        }

        private mutating func primary() throws(CatalogError) -> Expression {
            skipSpaces()
            if take("(") {
                let inner = try conditional()
                guard take(")") else { throw failure("'(' without ')'") }
                return inner
            }
            if take("n") { return .n }
            var value: Int64 = 0
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, digits < 18 else { throw failure("number too large") }
                value = product + Int64(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            guard digits > 0 else { throw failure(index < bytes.count ? "unexpected '\(Character(Unicode.Scalar(bytes[index])))'" : "ends early") }
            return .number(value)
        }

        private mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A { index += 1 }
        }

        private mutating func peek(_ token: String) -> Bool {
            skipSpaces()
            let utf8 = Array(token.utf8)
            return bytes.count - index >= utf8.count && Array(bytes[index..<index + utf8.count]) == utf8
        }

        private mutating func take(_ token: String) -> Bool {
            guard peek(token) else { return false }
            index += token.utf8.count
            return true
        }
    }
}
