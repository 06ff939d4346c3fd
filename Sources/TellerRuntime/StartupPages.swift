import CMemory
import Glibc
import SystemCalls

/// Gives back the resident pages that start-up touched in the read-only
/// segments of the program and of every shared library (text, read-only
/// data, symbol tables, relocation tables).
///
/// Debian links its libraries with `-z now`, so before `main` the dynamic
/// loader resolves every symbol of every library libcurl pulls in (krb5,
/// ldap, gnutls, p11-kit, nettle, …) and touches their hash tables, symbol
/// tables and relocations; libraries' constructors and the terminal's own
/// start-up run code that never runs again. Those pages stay resident for
/// the life of the process (issue 30 measured them: docs/device.md,
/// "Start-up and footprint").
///
/// `MADV_DONTNEED` on a private file mapping only unmaps its pages: the
/// file's pages stay in the page cache, and code that runs later faults
/// its pages back in from there (a minor fault, no read). It is safe only
/// where no page was written, so only segments without `PF_W` are advised,
/// only whole pages inside them, never a page that overlaps a writable
/// segment or a `PT_GNU_RELRO` range (relocated, then made read-only: its
/// pages exist only in memory), and never the vDSO. The advice is given
/// inside `dl_iterate_phdr`'s callback, which holds the loader's lock, so
/// no object is unloaded and no range reused meanwhile.
public enum StartupPages {
    /// What ``release()`` advised.
    public struct Released: Equatable, Sendable {
        /// The objects (program and libraries) looked at.
        public var objects = 0
        /// The bytes given `MADV_DONTNEED`: mapped size, not what was resident.
        public var bytes = 0
        /// Ranges the kernel refused (none expected).
        public var refused = 0
    }

    /// One program header of a loaded object, as far as the choice of pages needs it.
    struct Segment: Equatable {
        enum Kind: Equatable {
            /// `PT_LOAD`: mapped from the file.
            case loaded
            /// `PT_GNU_RELRO`: relocated by the loader, then made read-only.
            case relocatedReadOnly
            /// Any other program header (dynamic section, notes, TLS, …).
            case other
        }
        var kind: Kind
        var writable: Bool
        /// The segment's address in the process (the object's load bias added).
        var start: UInt
        var size: UInt
    }

    /// A page-aligned range of addresses, `start..<end`.
    struct PageRange: Equatable {
        var start: UInt
        var end: UInt
    }

    /// Gives back start-up's pages of every loaded object's read-only
    /// segments. Call it once, after the first frame is presented, on any
    /// thread.
    @discardableResult
    public static func release() -> Released {
        var context = Context(pageSize: UInt(sysconf(Int32(_SC_PAGESIZE))), vdso: UInt(getauxval(UInt(AT_SYSINFO_EHDR))))
        withUnsafeMutablePointer(to: &context) { pointer in
            _ = dl_iterate_phdr({ info, _, data in
                guard let info, let context = data?.assumingMemoryBound(to: Context.self) else { return 0 }
                context.pointee.advise(info.pointee)
                return 0
            }, pointer)
        }
        return context.released
    }

    /// The whole pages of the read-only loadable segments among `segments`
    /// (one object's program headers) that share no page with a writable
    /// segment or a RELRO range.
    static func releasable(_ segments: [Segment], pageSize: UInt) -> [PageRange] {
        let written = segments.filter { ($0.kind == .loaded && $0.writable) || $0.kind == .relocatedReadOnly }
            .map { PageRange(start: $0.start / pageSize * pageSize, end: ($0.start + $0.size + pageSize - 1) / pageSize * pageSize) }
        var ranges: [PageRange] = []
        for segment in segments where segment.kind == .loaded && !segment.writable {
            // Inward: a page only partly inside the segment may belong to the next one.
            var range = PageRange(start: (segment.start + pageSize - 1) / pageSize * pageSize,
                                  end: (segment.start + segment.size) / pageSize * pageSize)
            for other in written where other.start < range.end && other.end > range.start {
                // A written range shares pages with this segment at one end: keep the pages outside it.
                if other.start <= range.start {
                    range.start = min(range.end, other.end)
                } else {
                    range.end = other.start
                }
            }
            if range.end > range.start { ranges.append(range) }
        }
        return ranges
    }

    private struct Context {
        let pageSize: UInt
        let vdso: UInt
        var released = Released()

        mutating func advise(_ object: cmemory_phdr_info) {
            guard let headers = object.dlpi_phdr else { return }
            let segments = (0..<Int(object.dlpi_phnum)).map { index in
                let header = headers[index]
                let kind: Segment.Kind = switch header.p_type {
                case UInt32(PT_LOAD): .loaded
                case UInt32(PT_GNU_RELRO): .relocatedReadOnly
                default: .other
                }
                return Segment(kind: kind, writable: header.p_flags & UInt32(PF_W) != 0,
                               start: UInt(object.dlpi_addr) &+ UInt(header.p_vaddr), size: UInt(header.p_memsz))
            }
            // The vDSO is the kernel's, not a file's.
            guard !segments.contains(where: { $0.kind == .loaded && $0.start <= vdso && vdso < $0.start + $0.size }) else { return }
            released.objects += 1
            for range in StartupPages.releasable(segments, pageSize: pageSize) {
                let length = Int(range.end - range.start)
                if let start = UnsafeMutableRawPointer(bitPattern: range.start), Syscall.dropPages(start, length: length) {
                    released.bytes += length
                } else {
                    released.refused += 1
                }
            }
        }
    }
}
