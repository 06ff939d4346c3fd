import FoundationEssentials
import TellerCore

/// libFuzzer's entry: the bytes as a compiled catalog (`teller.mo`) from a
/// damaged disk or a bad build, and as a Plural-Forms header. Either is
/// refused with a CatalogError or read; nothing may crash, hang or read
/// past the end, and a catalog that is read must answer every count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let catalog = try Catalog(bytes: bytes, path: "fuzz.mo")
        for count in [0, 1, 2, 3, 11, 100, 101, -1, Int.max, Int.min] {
            _ = catalog.plural.index(for: count)
        }
        for key in catalog.messageIDs.prefix(8) {
            _ = catalog.translation(key, plural: key, count: 7)
            _ = catalog.translation(key, plural: nil, count: nil)
        }
    } catch {
        _ = error.description
    }
    let header = String(decoding: bytes, as: UTF8.self)
    if let rule = try? PluralRule(header: header) {
        precondition((1...6).contains(rule.count), "a rule with \(rule.count) forms was accepted")
        for count in [0, 1, 2, 5, 11, 111, Int.max] {
            precondition(rule.index(for: count) < rule.count, "form \(rule.index(for: count)) of \(rule.count) for \(count)")
        }
    }
    return 0
}
