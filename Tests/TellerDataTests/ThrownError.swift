import Testing

/// The error `body` threw, for a test that goes on to read it: `#expect(throws:)`
/// returns nothing in Swift 6.0, the compiler of the arm64 build. Nothing
/// thrown is nil; an error of another type is recorded as an issue, and nil.
func thrownError<E: Error>(_ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation,
                           _ body: () async throws -> Void) async -> E? {
    do {
        try await body()
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected \(E.self), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
