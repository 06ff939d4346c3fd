import Device
import FoundationEssentials
import TellerCore

/// How one configuration key is read. `apply` returns an error message, or nil.
public struct ConfigurationKey: Sendable {
    public let apply: @Sendable (String, inout Configuration) -> String?
}

extension Configuration {
    /// Every key teller.conf accepts. Keep docs/configuration.md in step.
    public static let keys: [String: ConfigurationKey] = [
        "terminal_id": text { value, c in
            guard (1...32).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
                return "must be 1-32 letters, digits, '.', '_' or '-'"
            }
            c.terminalID = value
            return nil
        },
        "branch": text(maximumLength: 64) { value, c in c.branch = value; return nil },
        "host_url": text { value, c in
            guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                return "'\(value)' is not an http(s) URL"
            }
            c.hostURL = url
            return nil
        },
        "allow_insecure_http": bool { c, v in c.allowInsecureHTTP = v },
        "secret_file": path { c, v in c.secretFile = v },
        "ca_file": path { c, v in c.caFile = v },
        "client_cert": path { c, v in c.clientCertificate = v },
        "client_key": path { c, v in c.clientKey = v },
        "client_cert_warn_days": text { value, c in
            guard let days = Int(value), (1...365).contains(days) else { return "'\(value)' is not a whole number of days from 1 to 365" }
            c.clientCertificateWarnDays = days
            return nil
        },
        "host_pin_sha256": text { value, c in
            let bare = value.hasPrefix("sha256//") ? String(value.dropFirst("sha256//".count)) : value
            guard let bytes = Data(base64Encoded: bare), bytes.count == 32 else {
                return "'\(value)' is not the base64 SHA-256 of a public key (44 characters, e.g. from openssl dgst -sha256 -binary | base64)"
            }
            c.hostPinSHA256 = value
            return nil
        },
        "request_timeout_s": seconds(1...120) { c, v in c.requestTimeout = v },
        "retry_base_s": seconds(0.01...600) { c, v in c.retryBase = v },
        "retry_cap_s": seconds(0.01...3600) { c, v in c.retryCap = v },
        "data_dir": path { c, v in c.dataDirectory = v },
        "log_commits": bool { c, v in c.logCommits = v },
        "log_latency": bool { c, v in c.logLatency = v },
        "runtime_dir": path { c, v in c.runtimeDirectory = v },
        "metrics_file": ConfigurationKey { value, c in
            // Empty turns it off, so a fleet can switch it off with the same key it set.
            guard !value.isEmpty else { c.metricsFile = nil; return nil }
            return path { c, v in c.metricsFile = v }.apply(value, &c) ?? {
                // node_exporter's textfile collector reads only *.prom; any other name is silently never served.
                guard value.hasSuffix(".prom"), value.count > "/.prom".count, !value.hasSuffix("/.prom") else {
                    return "'\(value)' does not end in a file name with .prom, the only files node_exporter's textfile collector reads"
                }
                return nil
            }()
        },
        "retention_days": text { value, c in
            let range = retentionDaysRange
            guard let days = Int(value), range.contains(days) else {
                return "'\(value)' is not a whole number of days from \(range.lowerBound) (the bank keeps idempotency keys 30 days) to \(range.upperBound)"
            }
            c.retentionDays = days
            return nil
        },
        "display": text { value, c in
            guard let choice = DisplayChoice(rawValue: value) else { return "'\(value)' is not auto, drm, fbdev or offscreen" }
            c.display = choice
            return nil
        },
        "drm_card": path { c, v in c.drmCard = v },
        "fb_device": path { c, v in c.framebufferDevice = v },
        "mode": text { value, c in
            guard ScreenSize.parse(value, allowRefresh: true) != nil else { return "'\(value)' is not WIDTHxHEIGHT or WIDTHxHEIGHT@HZ" }
            c.mode = value
            return nil
        },
        "rotation": text { value, c in
            guard let degrees = Int(value), [0, 90, 180, 270].contains(degrees) else { return "'\(value)' is not 0, 90, 180 or 270" }
            c.rotation = degrees
            return nil
        },
        "touch_calibration": text { value, c in
            let numbers = value.split(whereSeparator: { $0 == " " || $0 == "," }).map { Double($0) }
            guard numbers.count == 6, numbers.allSatisfy({ $0?.isFinite == true }) else {
                return "needs six numbers a b c d e f (libinput's LIBINPUT_CALIBRATION_MATRIX)"
            }
            c.touchCalibration = numbers.map { $0! }
            return nil
        },
        "offscreen_size": text { value, c in
            guard let size = ScreenSize.parse(value, allowRefresh: false) else { return "'\(value)' is not WIDTHxHEIGHT" }
            c.offscreenWidth = size.width
            c.offscreenHeight = size.height
            return nil
        },
        "scale": number(0.5...4) { c, v in c.scale = v },
        "theme": text { value, c in
            switch value {
            case "standard": c.highContrast = false
            case "high-contrast": c.highContrast = true
            default: return "'\(value)' is not standard or high-contrast"
            }
            return nil
        },
        "text_scale": number(1...2) { c, v in c.textScale = v },
        "font_dir": path { c, v in c.fontDirectory = v },
        "language": text { value, c in
            guard let language = Language(code: value) else {
                return "'\(value)' is not \(Language.all.map(\.code).joined(separator: ", "))"
            }
            c.regionalFormat.language = language
            return nil
        },
        "currency_display": text { value, c in
            guard let display = RegionalFormat.CurrencyDisplay(rawValue: value) else { return "'\(value)' is not symbol or code" }
            c.regionalFormat.currencyDisplay = display
            return nil
        },
        "digits": text { value, c in
            guard let digits = RegionalFormat.Digits(rawValue: value) else { return "'\(value)' is not latin or native" }
            c.regionalFormat.digits = digits
            return nil
        },
        "locale_dir": path { c, v in c.localeDirectory = v },
        "input_grab": bool { c, v in c.grabInput = v },
        "idle_lock_s": number(15...3600) { c, v in c.idleLockSeconds = v },
        "technician_pin_hash": text { value, c in
            guard value.hasPrefix("$argon2id$v=19$"), value.count < 128 else {
                return "must be an Argon2id hash made with `teller hash-pin` (starts with $argon2id$v=19$)"
            }
            c.technicianPINHash = value
            return nil
        },
        "time_zone": text { value, c in
            guard SystemTimeZone.isInstalled(value) else {
                return "'\(value)' is not an IANA time zone like Europe/Berlin (no such zone in \(SystemTimeZone.zoneDirectory))"
            }
            c.timeZone = value
            return nil
        },
        "currency": text { value, c in
            guard let currency = Currency(code: value), value == value.uppercased() else { return "'\(value)' is not a supported ISO 4217 code" }
            c.currency = currency
            return nil
        },
        "limit_per_transaction": amount { c, v in c.limitPerTransaction = v },
        "limit_daily": amount { c, v in c.limitDaily = v },
        "limit_offline_per_transaction": amount { c, v in c.limitOfflinePerTransaction = v },
        "limit_offline_queued_total": amount { c, v in c.limitOfflineQueuedTotal = v },
        "max_offline_age_h": number(1...168) { c, v in c.maxOfflineAgeHours = v },
        "supervisors": text { value, c in
            var ids: [OperatorID] = []
            for word in value.split(whereSeparator: { $0 == " " || $0 == "," }) {
                guard let id = OperatorID(String(word)) else { return "'\(word)' is not a staff number (4 to 8 digits)" }
                guard !ids.contains(id) else { return "\(id) is listed twice" }
                ids.append(id)
            }
            c.supervisors = ids
            return nil
        },
        "till_denominations": text { value, c in
            var amounts: [ConfiguredAmount] = []
            for word in value.split(whereSeparator: { $0 == " " || $0 == "," }) {
                guard let amount = ConfiguredAmount(String(word)), !amount.isZero else {
                    return "'\(word)' is not a note or coin value like 50 or 0.20"
                }
                guard !amounts.contains(amount) else { return "\(word) is listed twice" }
                amounts.append(amount)
            }
            c.tillDenominations = amounts
            return nil
        },
        "till_tolerance": ConfigurationKey { value, c in
            guard let amount = ConfiguredAmount(value) else { return "'\(value)' is not an amount like 0 or 5.00" }
            c.tillTolerance = amount
            return nil
        },
        "printer": text { value, c in
            switch PrinterAddress.parse(value) {
            case .success(let address): c.printer = address
            case .failure(let error): return error.description
            }
            return nil
        },
        "printer_paper_mm": text { value, c in
            guard let paper = Int(value).flatMap(PaperWidth.standard(millimetres:)) else { return "'\(value)' is not 58 or 80 (the roll's width in mm)" }
            c.printerPaper = paper
            return nil
        },
        "receipt_copies": text { value, c in
            guard let copies = Int(value), (1...2).contains(copies) else { return "'\(value)' is not 1 or 2" }
            c.receiptCopies = copies
            return nil
        },
        "receipt_wait_s": seconds(0...30) { c, v in c.receiptWait = v },
        "bank_name": text(maximumLength: 64) { value, c in c.bankName = value; return nil },
        "frame_priority": text { value, c in
            let range = framePriorityRange
            guard let priority = Int32(value), range.contains(priority) else {
                return "'\(value)' is not a whole number from \(range.lowerBound) (ordinary scheduling) to \(range.upperBound)"
            }
            c.framePriority = priority
            return nil
        },
    ]

    /// A text value: not empty, no control characters, and bounded (a path
    /// or URL fits in 1024 characters; shorter keys ask for less).
    private static func text(maximumLength: Int = 1024, _ apply: @escaping @Sendable (String, inout Configuration) -> String?) -> ConfigurationKey {
        ConfigurationKey { value, c in
            guard !value.isEmpty else { return "needs a value" }
            guard value.count <= maximumLength else { return "is \(value.count) characters long; at most \(maximumLength)" }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
                return "contains a control character"
            }
            return apply(value, &c)
        }
    }

    private static func path(_ set: @escaping @Sendable (inout Configuration, String) -> Void) -> ConfigurationKey {
        text { value, c in
            guard value.hasPrefix("/") else { return "must be an absolute path" }
            set(&c, value)
            return nil
        }
    }

    private static func bool(_ set: @escaping @Sendable (inout Configuration, Bool) -> Void) -> ConfigurationKey {
        ConfigurationKey { value, c in
            switch value.lowercased() {
            case "true", "yes", "on", "1": set(&c, true)
            case "false", "no", "off", "0": set(&c, false)
            default: return "'\(value)' is not true or false"
            }
            return nil
        }
    }

    private static func number(_ range: ClosedRange<Double>, _ set: @escaping @Sendable (inout Configuration, Double) -> Void) -> ConfigurationKey {
        ConfigurationKey { value, c in
            guard let number = Double(value), number.isFinite else { return "'\(value)' is not a number" }
            guard range.contains(number) else { return "\(value) is outside \(range.lowerBound.shortText)...\(range.upperBound.shortText)" }
            set(&c, number)
            return nil
        }
    }

    private static func seconds(_ range: ClosedRange<Double>, _ set: @escaping @Sendable (inout Configuration, Double) -> Void) -> ConfigurationKey {
        number(range, set)
    }

    /// A positive amount in major units: "2000" or "2000.50". Its decimals
    /// are checked against the currency once the whole file is read.
    private static func amount(_ set: @escaping @Sendable (inout Configuration, ConfiguredAmount) -> Void) -> ConfigurationKey {
        ConfigurationKey { value, c in
            guard let amount = ConfiguredAmount(value) else { return "'\(value)' is not an amount like 2000 or 2000.50" }
            guard !amount.isZero else { return "must be greater than zero" }
            set(&c, amount)
            return nil
        }
    }
}

extension Double {
    /// The number as a setting is written, without a trailing ".0": "15",
    /// "3600", "0.01", "2.5".
    public var shortText: String {
        self == rounded() && magnitude < 1e15 ? String(Int64(self)) : String(self)
    }
}

/// "1280x800" or "1280x800@60".
public struct ScreenSize: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let refresh: Int?

    public static func parse(_ text: String, allowRefresh: Bool) -> ScreenSize? {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...(allowRefresh ? 2 : 1)).contains(parts.count) else { return nil }
        let dimensions = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]),
              (160...8192).contains(width), (160...8192).contains(height) else { return nil }
        var refresh: Int?
        if parts.count == 2 {
            guard let hz = Int(parts[1]), (1...240).contains(hz) else { return nil }
            refresh = hz
        }
        return ScreenSize(width: width, height: height, refresh: refresh)
    }
}
