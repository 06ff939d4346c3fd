import SystemCalls
import TellerData

extension DatabaseRefusal.Kind {
    /// One exit code per kind of refused database, the same for `teller
    /// status` and `teller run`; listed in `teller --help` (CommandLineUsage.swift) and
    /// docs/deploy.md, relied on by deploy/lib/common.sh, and by
    /// teller.service, which does not restart a terminal whose database
    /// no restart can mend (4 to 7).
    public var exitCode: Int32 {
        switch self {
        case .missing: 3
        case .empty: 4
        case .foreign: 5
        case .newerSchema: 6
        case .damaged: 7
        case .unreadable: 8
        case .olderSchema: 9
        }
    }
}
