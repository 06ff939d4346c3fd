import FoundationEssentials
import TellerCore
import SystemCalls

/// Keeps node_exporter's textfile-collector file (a `*.prom` file in
/// `--collector.textfile.directory`) current while the terminal runs.
///
/// Each write is atomic (a temporary file in the same directory, fsync,
/// rename, see ``DurableFile``), so the collector never reads half a file.
/// Changes arriving in a burst (a drain confirms hundreds of rows) are
/// coalesced: at most one write per `minimumInterval`, and the last change
/// is always written.
public actor MetricsTextfile {
    public let path: String
    private let minimumInterval: Duration
    private let render: @Sendable () async -> String?
    private let onFailure: @Sendable (DurableFileError) -> Void
    private var lastWrite: ContinuousClock.Instant?
    private var pending: Task<Void, Never>?
    /// The errno of the last failed write, nil after a good one.
    private var lastFailure: Int32?

    /// - Parameters:
    ///   - render: the file's content now, or nil when it cannot be read
    ///     (the file keeps its last content and its age shows it).
    ///   - onFailure: told once per cause (errno) of failure, not at every write.
    public init(path: String, minimumInterval: Duration = .seconds(2), render: @escaping @Sendable () async -> String?,
                onFailure: @escaping @Sendable (DurableFileError) -> Void) {
        self.path = path
        // A power cut during a write can leave its temporary in node_exporter's folder.
        DurableFile.removeLeftovers(of: path)
        self.minimumInterval = minimumInterval
        self.render = render
        self.onFailure = onFailure
    }

    /// Something the metrics show may have changed: writes now, or once
    /// `minimumInterval` has passed since the last write.
    public func changed() {
        guard pending == nil else { return }
        let wait = lastWrite.map { minimumInterval - (ContinuousClock.now - $0) } ?? .zero
        pending = Task {
            if wait > .zero { try? await Task.sleep(for: wait) }
            await self.write()
        }
    }

    /// Waits until every write ``changed()`` scheduled is done, including
    /// one scheduled by a change that arrived during a write.
    public func settle() async {
        while let task = pending { await task.value }
    }

    private func write() async {
        // Cleared first: a change while rendering schedules the next write.
        pending = nil
        lastWrite = .now
        guard let text = await render() else { return }
        do throws(DurableFileError) {
            // World-readable: node_exporter runs as its own user and holds no secret.
            try DurableFile.write(Data(text.utf8), to: path, mode: 0o644)
            lastFailure = nil
        } catch {
            // Its message names the temporary file, new at each write: compare the cause.
            guard case .system(_, let code) = error else { return }
            if code != lastFailure { onFailure(error) }
            lastFailure = code
        }
    }
}
