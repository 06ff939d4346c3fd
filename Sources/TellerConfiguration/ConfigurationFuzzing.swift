import FoundationEssentials

/// The configuration readers over arbitrary bytes, for the libFuzzer target
/// in fuzz/config (docs/qa.md, "Fuzzing").
///
/// teller.conf is written by provisioning and edited by technicians, so a
/// broken file must end in a list of problems with line numbers, never in a
/// trap, a hang or memory growing without bound.
public enum ConfigurationFuzzing: Sendable {
    /// Reads `bytes` the ways the terminal reads its settings, and throws
    /// the results away:
    /// 1. As teller.conf, through ``Configuration/load(path:required:)``
    ///    (so the not-UTF-8 check runs too), then the limits and the host
    ///    connection the values make.
    /// 2. Split at whitespace, as command-line arguments after
    ///    `--config FILE`: flags, values and the overrides they apply.
    ///
    /// - Parameters:
    ///   - bytes: anything at all.
    ///   - scratchFile: a file this process may overwrite on every call;
    ///     `load` reads a path, not a string.
    public static func exercise(_ bytes: [UInt8], scratchFile: String) {
        guard FileManager.default.createFile(atPath: scratchFile, contents: Data(bytes)) else {
            preconditionFailure("cannot write the fuzzer's scratch file \(scratchFile)")
        }
        let (configuration, problems) = Configuration.load(path: scratchFile, required: true)
        settle(configuration, problems)

        let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        let options = CommandLineOptions(["--config", scratchFile] + words, switches: ["until-empty"])
        settle(options.configuration, options.problems)
    }

    /// Everything the terminal derives from a loaded configuration.
    private static func settle(_ configuration: Configuration, _ problems: [ConfigurationProblem]) {
        for problem in problems { _ = problem.description }
        _ = try? configuration.limits()
        if let url = configuration.hostURL { _ = try? configuration.hostConfiguration(url) }
        if let mode = configuration.mode { _ = ScreenSize.parse(mode, allowRefresh: true) }
    }
}
