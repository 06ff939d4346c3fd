import FoundationEssentials
import SystemCalls
import TellerCore

/// What a latency figure depends on besides Teller's code, printed beside
/// it so that a figure from another machine explains itself: the CPU and
/// its widest vector extension, the load when the run began, and for each
/// measured window the share of the machine's time that was busy or
/// stolen by the hypervisor, and how often the kernel took the core from
/// the thread that reads input and draws, or served it a page fault.
///
/// A window is read from `/proc/stat` (all cores) and `getrusage` of the
/// calling thread, so it is opened and closed on the loop's own thread.
struct MachineConditions {
    /// One line: `machine: MODEL, N cores online, EXTENSION; load average A B C`.
    static func describe() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let lines = cpuinfo.split(separator: "\n")
        let model = lines.first { $0.hasPrefix("model name") }.map(value) ?? lines.first { $0.hasPrefix("CPU part") }.map { "CPU part " + value($0) } ?? "unknown CPU"
        let flags = Set((lines.first { $0.hasPrefix("flags") || $0.hasPrefix("Features") }.map(value) ?? "").split(separator: " ").map(String.init))
        let widest = ["avx512f", "avx2", "avx", "sse4_2", "sve2", "sve", "asimd"].first(where: flags.contains) ?? "no vector extension named"
        let cores = lines.count { $0.hasPrefix("processor") }
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
        return "machine: \(model), \(cores) cores online, \(widest); load average \(load)"
    }

    private static func value(_ line: Substring) -> String {
        guard let colon = line.firstIndex(of: ":") else { return "" }
        return String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
    }

    /// The whole machine's CPU time from `/proc/stat`, in clock ticks.
    struct Times {
        var busy: UInt64
        var idle: UInt64
        var steal: UInt64

        /// The first line of `/proc/stat`: user nice system idle iowait irq softirq steal (guest time is inside user).
        static func now() throws -> Times {
            let text = try String(contentsOfFile: "/proc/stat", encoding: .utf8)
            guard let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else {
                throw BenchmarkError.failed("/proc/stat does not begin with the cpu line")
            }
            let fields = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
            guard fields.count >= 8 else { throw BenchmarkError.failed("/proc/stat's cpu line has \(fields.count) numbers, not 8 or more") }
            return Times(busy: fields[0] + fields[1] + fields[2] + fields[5] + fields[6], idle: fields[3] + fields[4], steal: fields[7])
        }
    }

    /// A measured window, opened on the loop's thread.
    struct Window {
        let times: Times
        let usage: KernelThread.Usage

        static func open() throws -> Window {
            Window(times: try Times.now(), usage: try KernelThread.currentUsage())
        }

        /// Prints, for `name`: `_machine_busy_percent`, `_machine_steal_percent`,
        /// `_loop_involuntary_switches` and `_loop_page_faults` (minor + major).
        /// Called on the thread that opened it.
        func close(reporting name: String) throws {
            let times = try Times.now()
            let usage = try KernelThread.currentUsage().since(self.usage)
            let busy = Double(times.busy - self.times.busy), idle = Double(times.idle - self.times.idle)
            let steal = Double(times.steal - self.times.steal)
            let total = max(busy + idle + steal, 1)
            report("\(name)_machine_busy_percent", 100 * busy / total)
            report("\(name)_machine_steal_percent", 100 * steal / total)
            print("\(name)_loop_involuntary_switches: \(usage.involuntarySwitches)")
            print("\(name)_loop_page_faults: \(usage.minorFaults + usage.majorFaults) (\(usage.majorFaults) from disk)")
        }
    }
}
