import TellerConfiguration
import SystemCalls
import FoundationEssentials
import TellerCore
import TellerData
import SQLite
import HostTransport

/// `teller rescue --from DIR --out FILE`: the payments a dead terminal's
/// card holds that the bank never acknowledged, in one signed file, read
/// on any machine without writing to the card; and `teller rescue import
/// FILE`, which hands that file to the bank through this terminal's own
/// host connection (docs/deploy.md, "A dead terminal's card").
public enum RescueCommand {
    /// The bank refused the file itself (its signature, its terminal, its branch): nothing was posted.
    public static let refusedExitCode: Int32 = 11

    public static func run(_ arguments: [String]) async -> Int32 {
        if arguments.first == "import" { return await importFile(Array(arguments.dropFirst())) }
        return await rescue(arguments)
    }

    /// Reads the card at `--from` and writes the signed file to `--out`.
    public static func rescue(_ arguments: [String]) async -> Int32 {
        var rest = arguments[...]
        var from: String?, out: String?, terminalID: String?, secretFile: String?
        var secretFromStandardInput = false, force = false
        while let argument = rest.popFirst() {
            switch argument {
            case "--from": from = rest.popFirst()
            case "--out": out = rest.popFirst()
            case "--terminal-id": terminalID = rest.popFirst()
            case "--secret-file": secretFile = rest.popFirst()
            case "--secret-stdin": secretFromStandardInput = true
            case "--force": force = true
            default:
                Log.error("teller rescue: unexpected argument '\(argument)'\n\(commandUsage["rescue"] ?? "")")
                return 2
            }
        }
        guard let from, let out, let terminalID, !terminalID.isEmpty else {
            Log.error("teller rescue: give --from DIR, --out FILE and --terminal-id ID (the dead terminal's)\n\(commandUsage["rescue"] ?? "")")
            return 2
        }
        guard (secretFile != nil) != secretFromStandardInput else {
            Log.error("teller rescue: give the dead terminal's secret with --secret-file PATH or --secret-stdin, one of them")
            return 2
        }
        if !force, (try? Syscall.linkStatus(out)) != nil {
            Log.error("teller rescue: \(out) exists; nothing was written (--force replaces it)")
            return 1
        }
        let credentials: TerminalCredentials
        if let secretFile {
            do {
                // Only the file named: not this machine's own systemd credential.
                credentials = try TerminalCredentials.load(terminalID: terminalID, secretFile: secretFile, environment: [:])
            } catch {
                Log.error("teller rescue: \(error)")
                return 1
            }
        } else {
            let secret = String(decoding: IdentityCommand.keyFromStandardInput(), as: UTF8.self).trimmingASCIIWhitespace()
            guard !secret.isEmpty else {
                Log.error("teller rescue: --secret-stdin read no secret from standard input")
                return 2
            }
            credentials = TerminalCredentials(terminalID: terminalID, secret: secret)
        }
        do {
            let result = try await CardRescue.read(from: from, credentials: credentials)
            try DurableFile.write(Data(result.file), to: out, mode: 0o600)
            let document = result.document
            let counts = document.counts
            var lines = ["\(out): rescue of \(terminalID): \(counts.payments) payment(s) the bank has not acknowledged, \(counts.tillEvents) till event(s), \(counts.journalEntries) journal entr\(counts.journalEntries == 1 ? "y" : "ies") (\(document.journalScope.since))"]
            switch document.source.log {
            case .recovered: lines.append("teller.db-wal: \(document.source.logBytes) bytes of log read (up to its last whole commit)")
            case .empty: lines.append("teller.db-wal: empty; everything was in teller.db")
            case .missing: lines.append("warning: no teller.db-wal: what the terminal committed since its last checkpoint is not on this card")
            }
            lines.append(result.secretChecked ? "the secret opens the card's sealed refresh token: it is this terminal's"
                                              : "warning: the card holds no sealed refresh token, so the secret could not be checked against it; the bank checks it")
            lines.append("the card was only read; import the file on a terminal of the same branch: teller rescue import \(out)")
            try StandardStream.output.writeAll(Data((lines.joined(separator: "\n") + "\n").utf8))
            return 0
        } catch let refusal as DatabaseRefusal {
            Log.error("teller rescue: \(refusal)")
            if refusal.reason.kind == .missing {
                Log.error("teller rescue: --from names the data directory on the card: data_dir under its mount point, e.g. /mnt/card/var/lib/teller")
            }
            Log.error("teller rescue: nothing was written, and the card was only read.")
            return refusal.reason.kind.exitCode
        } catch {
            Log.error("teller rescue: \(error)")
            return 1
        }
    }

    /// Sends a rescue file to this terminal's host and prints the bank's counts.
    public static func importFile(_ arguments: [String]) async -> Int32 {
        guard let path = arguments.first, !path.hasPrefix("--") else {
            Log.error("teller rescue import: name the rescue file\n\(commandUsage["rescue"] ?? "")")
            return 2
        }
        let options = CommandLineOptions(Array(arguments.dropFirst()))
        guard options.reportProblems(command: "rescue import") else { return 2 }
        let configuration = options.configuration
        guard let url = configuration.hostURL, let terminalID = configuration.terminalID else {
            Log.error("teller rescue import: host_url and terminal_id must be set: the file goes to the bank as this terminal")
            return 2
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Log.error("teller rescue import: cannot read \(path)")
            return 1
        }
        let file = [UInt8](data)
        let document: RescueDocument
        do { document = try RescueFile.unverifiedDocument(file) } catch {
            Log.error("teller rescue import: \(path) is \(error)")
            return 1
        }
        // A token of its own, kept in memory: the running terminal's refresh token stays as it is.
        let scratch = Path.join(ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp",
                                "teller-rescue-import-" + String(UInt64.random(in: 0...UInt64.max), radix: 36))
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let credentials = try TerminalCredentials.load(terminalID: terminalID, secretFile: configuration.secretFile)
            let connection = HostConnection(configuration: try configuration.hostConfiguration(url))
            let host = HostClient(connection: connection, vault: TokenVault(connection: connection, credentials: credentials, dataDirectory: scratch))
            let report = try await host.importRescue(file)
            try StandardStream.output.writeAll(Data(describe(report, file: path, document: document).utf8))
            return 0
        } catch HostError.forbidden(let code, let detail) {
            Log.error("teller rescue import: the bank refused \(path) (\(code)): \(detail)")
            return refusedExitCode
        } catch {
            Log.error("teller rescue import: \(error)")
            return 1
        }
    }

    /// What the bank did, a line for the counts and one per refusal.
    public static func describe(_ report: RescueImportReport, file: String, document: RescueDocument) -> String {
        let payments = report.payments, events = report.tillEvents
        var lines = [
            "\(file): rescue of \(report.terminalID)\(report.firstImport ? "" : " (imported before)")",
            "payments: \(payments.posted) posted now, \(payments.alreadyPosted) already posted, \(payments.refused) refused, \(payments.alreadyRefused) refused before (of \(document.counts.payments))",
            "till events: \(events.recorded) recorded now, \(events.alreadyRecorded) already recorded, \(events.refused) refused (of \(document.counts.tillEvents))",
            "journal entries: \(report.journalEntries) kept by the bank",
        ]
        for refusal in report.refusals {
            lines.append("refused \(refusal.item) \(refusal.idempotencyKey): \(refusal.reason)\(refusal.decidedBefore ? " (decided before)" : ""): \(refusal.detail)")
        }
        if report.refusalsOmitted > 0 { lines.append("… and \(report.refusalsOmitted) more refusals") }
        if report.nothingNew { lines.append("nothing new: the bank already had every payment and till event of this file") }
        return lines.joined(separator: "\n") + "\n"
    }
}
