/// Where the renderer finds its font files.
///
/// Teller ships no fonts of its own; it uses Debian's fonts-dejavu-core.
/// Devices with a different layout (or tests with a fixture folder) pass
/// another ``directory``.
public struct FontConfiguration: Hashable, Sendable {
    /// Folder holding the font files.
    public var directory: String
    /// File name of the regular weight, relative to ``directory``.
    public var regularFile: String
    /// File name of the bold weight, relative to ``directory``.
    public var boldFile: String
    /// File name of the monospaced face used for amounts and account numbers.
    public var monospacedFile: String

    public init(
        directory: String = FontConfiguration.debianDirectory,
        regularFile: String = "DejaVuSans.ttf",
        boldFile: String = "DejaVuSans-Bold.ttf",
        monospacedFile: String = "DejaVuSansMono.ttf"
    ) {
        self.directory = directory
        self.regularFile = regularFile
        self.boldFile = boldFile
        self.monospacedFile = monospacedFile
    }

    /// Where Debian's fonts-dejavu-core installs DejaVu.
    public static let debianDirectory = "/usr/share/fonts/truetype/dejavu"

    /// DejaVu from Debian's default location.
    public static let debian = FontConfiguration()

    /// The full path of the file for `weight`.
    public func path(for weight: FontWeight) -> String {
        let file: String
        switch weight {
        case .regular: file = regularFile
        case .bold: file = boldFile
        case .monospaced: file = monospacedFile
        }
        return directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }
}
