import FoundationEssentials

/// The version string compiled into the binary (`teller --version`);
/// deploy/package-deb names the .deb after it unless given --version.
public enum BuildInfo {
    public static let version = "0.1.0-dev"
    /// No earlier than this source was written (2026-11-30T00:00:00Z): the
    /// lowest floor of the trusted clock, so a board booted at 1970 is
    /// recognised even before it has committed a row or heard the bank.
    public static let buildDate = Date(timeIntervalSince1970: 1_795_996_800)
}
