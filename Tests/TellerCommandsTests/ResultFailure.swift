/// The error a call threw, for a test that goes on to read it: `#require(throws:)`
/// returns nothing in Swift 6.0, the compiler of the arm64 build.
extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
