import NIOCore
import Synchronization

/// The open connections of one `tessera serve`, capped at `limit`.
///
/// When a connection arrives at the cap, the one that has waited longest for a request (idle
/// between requests, or still sending a request head) is closed to make room, as nginx closes
/// idle keep-alive connections when it runs short: a crowd of slow clients can fill the server,
/// but not keep a health check or a real client out. Only when every connection is busy with a
/// request is the new one refused. The cap also keeps the server under its descriptor limit, where
/// `accept` would otherwise fail and be retried without end (issue 39).
final class ConnectionRegistry: Sendable {
    private struct Open {
        let channel: any Channel
        /// Since when it has waited for a request; nil while a request is being answered.
        var waitingSince: NIODeadline?
    }

    private struct State {
        var next = 0
        var open: [Int: Open] = [:]
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Registers `channel`, waiting for its first request; nil when it must be refused. The
    /// connection evicted to make room, if any, is closed here.
    func admit(_ channel: any Channel) -> Int? {
        let (id, evicted): (Int?, (any Channel)?) = state.withLock { state in
            var evicted: (any Channel)?
            if state.open.count >= limit {
                // A connection whose answer is still going out (its buffer over the high-water
                // mark) is downloading, not waiting.
                let oldest = state.open.filter { $0.value.waitingSince != nil && $0.value.channel.isWritable }
                    .min { ($0.value.waitingSince!, $0.key) < ($1.value.waitingSince!, $1.key) }
                guard let oldest else { return (nil, nil) }
                state.open.removeValue(forKey: oldest.key)
                evicted = oldest.value.channel
            }
            state.next += 1
            state.open[state.next] = Open(channel: channel, waitingSince: .now())
            return (state.next, evicted)
        }
        evicted?.close(promise: nil)
        return id
    }

    /// Marks the connection as waiting for a request (`true`) or answering one.
    func setWaiting(_ id: Int, _ waiting: Bool) {
        state.withLock { state in
            guard state.open[id] != nil else { return }
            if waiting {
                if state.open[id]!.waitingSince == nil { state.open[id]!.waitingSince = .now() }
            } else {
                state.open[id]!.waitingSince = nil
            }
        }
    }

    func leave(_ id: Int) {
        state.withLock { _ = $0.open.removeValue(forKey: id) }
    }

    var count: Int { state.withLock { $0.open.count } }
}
