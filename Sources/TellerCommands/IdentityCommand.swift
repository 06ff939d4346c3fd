import TellerConfiguration
import SystemCalls
import FoundationEssentials
import Glibc
import TellerData
import HostTransport

/// `teller identity`: the terminal's own certificate for mutual TLS.
///
/// `csr --csr-out FILE` makes a new P-256 key and a certificate signing
/// request whose commonName is `terminal_id`. The CSR goes to FILE; the key
/// goes to standard output, and only into a pipe, so that it is sealed at
/// once and never written in the clear (deploy/provision --client-csr):
///
///     teller identity csr --csr-out client.csr \
///       | systemd-creds encrypt --name=teller-client-key --with-key=auto - teller-client-key.cred
///
/// `show` prints the configured certificate (subject, issuer, validity,
/// days left, where the key comes from) and exits 1 when the pair does not
/// load or the certificate is not valid now.
public enum IdentityCommand {
    public static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "csr": return csr(Array(arguments.dropFirst()))
        case "show": return show(Array(arguments.dropFirst()))
        default:
            Log.error(commandUsage["identity"] ?? "usage: teller identity csr|show")
            return 2
        }
    }

    /// Removes `flag` from `arguments`; whether it was there.
    private static func take(_ flag: String, from arguments: inout [String]) -> Bool {
        guard let index = arguments.firstIndex(of: flag) else { return false }
        arguments.remove(at: index)
        return true
    }

    /// A PEM key piped in (from `systemd-creds decrypt`), never from a file.
    static func keyFromStandardInput() -> [UInt8] {
        var text = ""
        while let line = readLine(strippingNewline: false) { text += line }
        return Array(text.utf8)
    }

    private static func csr(_ arguments: [String]) -> Int32 {
        var rest = arguments
        let keyStdin = take("--key-stdin", from: &rest)
        guard let flag = rest.firstIndex(of: "--csr-out"), flag + 1 < rest.count else {
            Log.error("usage: teller identity csr --csr-out FILE [--config FILE] | systemd-creds encrypt --name=\(ClientIdentity.credentialName) - CRED")
            return 2
        }
        let csrPath = rest[flag + 1]
        rest.removeSubrange(flag...(flag + 1))
        let options = CommandLineOptions(rest)
        guard options.reportProblems(command: "identity csr") else { return 2 }
        guard let terminalID = options.configuration.terminalID else {
            Log.error("teller identity csr: terminal_id is not set in \(options.configurationPath); the certificate names it")
            return 2
        }
        if !keyStdin, let refusal = keyOutputRefusal(StandardStream.output.status?.kind) {
            Log.error("teller identity csr: the new private key goes to standard output, and that is \(refusal); pipe it into systemd-creds encrypt "
                      + "(teller identity csr --csr-out FILE | systemd-creds encrypt --name=\(ClientIdentity.credentialName) - CRED, see teller identity --help): "
                      + "nothing was made")
            return 2
        }
        do {
            let made = try ClientKeyMaker.make(terminalID: terminalID, organization: options.configuration.branch.isEmpty ? nil : options.configuration.branch,
                                               existingKey: keyStdin ? (keyFromStandardInput(), "the key on standard input") : nil)
            try DurableFile.write(Data(made.csrPEM.utf8), to: csrPath, mode: 0o644)
            // Renewing: the key stays sealed where it is; nothing to print.
            if keyStdin {
                Log.info("teller identity csr: wrote the renewal request for \(terminalID) to \(csrPath) (the same key)")
                return 0
            }
            do {
                try StandardStream.output.writeAll(made.keyPEM)
            } catch {
                Log.error("teller identity csr: could not write the key to standard output (\(error)); \(csrPath) belongs to no key and is useless")
                return 1
            }
            Log.info("teller identity csr: wrote the request for \(terminalID) to \(csrPath); have the bank's CA sign it and install it as client_cert")
            return 0
        } catch {
            Log.error("teller identity csr: \(error)")
            return 1
        }
    }

    /// Why the private key may not go to an output of `kind`, or nil for a
    /// pipe or a socket (systemd-creds encrypt reading it, a provisioning
    /// tool's socket): a regular file or a directory would keep the key on
    /// disk, a terminal would show it, and an output stat cannot name is refused too.
    static func keyOutputRefusal(_ kind: FileStatus.Kind?) -> String? {
        switch kind {
        case .pipe, .socket: nil
        case .regular: "a regular file, which would keep the key on disk unsealed"
        case .directory: "a directory"
        case .characterDevice: "a terminal or another device, which would show or lose the key"
        case .blockDevice: "a block device"
        case .symbolicLink, nil: "not a pipe"
        }
    }

    private static func show(_ arguments: [String]) -> Int32 {
        var rest = arguments
        let keyStdin = take("--key-stdin", from: &rest)
        let options = CommandLineOptions(rest)
        guard options.reportProblems(command: "identity show") else { return 2 }
        var configuration = options.configuration
        if keyStdin { configuration.givenClientKey = keyFromStandardInput() }
        guard configuration.clientCertificate != nil else {
            print("client_cert: not set (the terminal sends no client certificate)")
            return 1
        }
        do {
            guard let identity = try configuration.clientIdentity() else { return 1 }
            let certificate = identity.certificate.status(warnDays: configuration.clientCertificateWarnDays)
            let now = Date()
            let days = certificate.daysLeft(at: now)
            print("subject: \(certificate.subject)")
            print("issuer: \(certificate.issuer)")
            print("valid: \(CertificateFiles.format(certificate.notBefore)) to \(CertificateFiles.format(certificate.notAfter))")
            print("days left: \(days)")
            print("key: \(identity.keySource)")
            if let terminalID = configuration.terminalID, terminalID != certificate.subject {
                print("problem: the certificate is for \(certificate.subject), but terminal_id is \(terminalID)")
                return 1
            }
            if certificate.isInvalid(at: now) {
                print("problem: the certificate is not valid now")
                return 1
            }
            if certificate.needsRenewal(at: now) {
                print("warning: expires in \(days) days (client_cert_warn_days = \(configuration.clientCertificateWarnDays))")
            }
            return 0
        } catch {
            print("problem: \(error)")
            return 1
        }
    }
}
