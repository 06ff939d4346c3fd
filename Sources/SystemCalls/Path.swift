/// Path arithmetic on strings, for the file names teller is given
/// (scenarios, screenshots, the control socket). Nothing here touches the
/// file system; a relative path stays relative.
public enum Path {
    /// `name` inside `directory`: ("out", "a.png") and ("out/", "a.png")
    /// are "out/a.png"; an empty directory leaves `name` as it is.
    public static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Everything before the last component: "qa/a.scenario" is "qa",
    /// "/a.scenario" is "/", and "a.scenario" is "" (the current directory).
    public static func directory(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = withoutTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last component without its extension: "qa/sign-in.scenario" is
    /// "sign-in"; a leading dot (".profile") is not an extension.
    public static func baseName(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        let last = trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
