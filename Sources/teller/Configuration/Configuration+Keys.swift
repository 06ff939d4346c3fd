import Foundation
import TellerCore

/// How one configuration key is read. `apply` returns an error message, or nil.
struct ConfigurationKey: Sendable {
    let apply: @Sendable (String, inout Configuration) -> String?
}

extension Configuration {
    /// Every key teller.conf accepts. Keep docs/configuration.md in step.
    static let keys: [String: ConfigurationKey] = [
        "terminal_id": text { value, c in
            guard (1...32).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
                return "must be 1-32 letters, digits, '.', '_' or '-'"
            }
            c.terminalID = value
            return nil
        },
        "branch": text { value, c in c.branch = value; return nil },
        "host_url": text { value, c in
            guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil else {
                return "'\(value)' is not an http(s) URL"
            }
            c.hostURL = url
            return nil
        },
        "allow_insecure_http": bool { c, v in c.allowInsecureHTTP = v },
        "secret_file": text { value, c in
            guard value.hasPrefix("/") else { return "must be an absolute path" }
            c.secretFile = value
            return nil
        },
        "request_timeout_s": seconds(1...120) { c, v in c.requestTimeout = v },
        "retry_base_s": seconds(0.01...600) { c, v in c.retryBase = v },
        "retry_cap_s": seconds(0.01...3600) { c, v in c.retryCap = v },
        "data_dir": text { value, c in
            guard value.hasPrefix("/") else { return "must be an absolute path" }
            c.dataDirectory = value
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
    ]

    private static func text(_ apply: @escaping @Sendable (String, inout Configuration) -> String?) -> ConfigurationKey {
        ConfigurationKey { value, c in
            guard !value.isEmpty else { return "needs a value" }
            return apply(value, &c)
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
            guard range.contains(number) else { return "\(value) is outside \(range.lowerBound.formatted())...\(range.upperBound.formatted())" }
            set(&c, number)
            return nil
        }
    }

    private static func seconds(_ range: ClosedRange<Double>, _ set: @escaping @Sendable (inout Configuration, Double) -> Void) -> ConfigurationKey {
        number(range, set)
    }

    /// A positive amount in major units: "2000" or "2000.50". Its decimals
    /// are checked against the currency once the whole file is read.
    private static func amount(_ set: @escaping @Sendable (inout Configuration, Decimal) -> Void) -> ConfigurationKey {
        ConfigurationKey { value, c in
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) && $0.allSatisfy(\.isASCII) }),
                  parts[0].count <= 12, let decimal = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")) else {
                return "'\(value)' is not an amount like 2000 or 2000.50"
            }
            guard decimal > 0 else { return "must be greater than zero" }
            set(&c, decimal)
            return nil
        }
    }
}
