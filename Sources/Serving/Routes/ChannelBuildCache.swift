import PublishedBuilds
import Synchronization

/// Channel → build, kept in memory when the build store is written only by this process (SQLite):
/// then every move passes through `moved`, and a query costs no store read. A store shared
/// by several instances is asked every time (a move through another instance must show at once).
///
/// A read that started before a move must not put the old build back after it: every move bumps
/// `generation`, and a read's answer is kept only if no move happened while it was out.
final class ChannelBuildCache: Sendable {
    private struct State {
        var builds: [String: BuildID] = [:]
        var generation = 0
    }

    private let store: any BuildStore
    private let state = Mutex(State())

    init(store: any BuildStore) { self.store = store }

    /// The build `channel` points at now, or nil when there is no such channel.
    func build(of channel: String) async throws -> BuildID? {
        guard store.isWrittenOnlyByThisProcess else { return try await store.channelBuild(channel) }
        let (known, generation) = state.withLock { ($0.builds[channel], $0.generation) }
        if let known { return known }
        guard let build = try await store.channelBuild(channel) else { return nil }
        state.withLock { if $0.generation == generation { $0.builds[channel] = build } }
        return build
    }

    /// Records a move made through this process (after the store committed it), or forgets the
    /// channel (`build` nil) after a move whose outcome is unknown.
    func moved(_ channel: String, to build: BuildID?) {
        state.withLock {
            $0.generation += 1
            $0.builds[channel] = build
        }
    }
}
