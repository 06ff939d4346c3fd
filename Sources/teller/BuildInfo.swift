/// The version string compiled into the binary (`teller --version`);
/// deploy/package-deb names the .deb after it unless given --version.
enum BuildInfo {
    static let version = "0.1.0-dev"
}
