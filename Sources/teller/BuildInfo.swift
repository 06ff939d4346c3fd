/// The version string compiled into the binary. deploy/package-deb and
/// deploy/install rewrite this line for release builds.
enum BuildInfo {
    static let version = "0.1.0-dev"
}
