import TesseraCore

/// The store of published builds and channels, behind one protocol so the embedded SQLite
/// store and a shared database can serve the same routes and pass the same tests.
///
/// Builds are identified by the SHA-256 of their manifest's bytes, so publishing the same build
/// twice names the same record. A build is `uploading` until every blob it lists is in the blob
/// store and verified, then `complete`; only complete builds can be put on a channel.
public protocol BuildStore: Sendable {
    /// Records a build in state `uploading` with the blobs it needs; returns the existing record
    /// unchanged when the build is already known.
    func registerBuild(id: BuildID, pipeline: String, blobs: [ContentHash]) async throws -> BuildRecord
    /// The build, or nil when it was never registered.
    func build(_ id: BuildID) async throws -> BuildRecord?
    /// Marks a registered build complete; the caller has checked that every blob is present.
    func markComplete(_ id: BuildID) async throws
    /// Points `channel` at `build` if the channel currently points at `expected` (nil: the channel
    /// does not exist yet). Throws `BuildStoreError.conflict` otherwise, so of two concurrent moves
    /// from the same state exactly one wins.
    /// `kind` is recorded in the history, which rollbacks walk (`ChannelState.rollbackTarget`).
    ///
    /// A channel with a highest signed version (`ChannelState.signedVersion`) is signed: pinned
    /// clients refuse any manifest signed at or below a version they accepted, so a move that
    /// would report success while every such client stays put is refused
    /// (`SignedChannelRule`). With `signature`, the signature is kept for `build` on `channel`
    /// and the channel moves in one transaction: if either is refused, neither happens.
    func moveChannel(_ channel: String, to build: BuildID, expected: BuildID?, kind: ChannelMoveKind,
                     signature: ChannelSignature?) async throws -> ChannelState
    /// The build the channel points at now, or nil: the one read every query makes.
    func channelBuild(_ name: String) async throws -> BuildID?
    /// The channel with its history (newest first) and highest signed version, or nil.
    func channel(_ name: String) async throws -> ChannelState?
    /// The highest version any signature for `channel` was signed at, or nil when none was ever
    /// kept for it (also for a channel that does not exist yet).
    func highestSignedVersion(channel: String) async throws -> Int?
    /// Every channel, by name, each with its current build and no history.
    func channels() async throws -> [ChannelState]
    /// Up to `limit` build IDs that start with `prefix` (lower-case hex), sorted.
    func builds(withPrefix prefix: String, limit: Int) async throws -> [BuildID]
    /// Keeps a manifest signature (a `manifest.json.sig` sidecar's JSON, docs/security.md) for
    /// `build` on `channel`, replacing the one kept before: a re-signed build (a later version or
    /// expiry) replaces its signature. The channel's highest signed version rises to the
    /// signature's when it is higher, and never falls. Throws `BuildStoreError.unknownBuild` for a
    /// build never registered.
    func putSignature(_ signature: ChannelSignature, build: BuildID, channel: String) async throws
    /// The signature kept for `build` on `channel`, or nil.
    func signature(build: BuildID, channel: String) async throws -> String?
    /// True when only this process writes the store (the embedded SQLite one), so a channel's
    /// build changes only through this process's `moveChannel` and the server may keep it in
    /// memory; false for a store several instances share, which must be asked every time.
    var isWrittenOnlyByThisProcess: Bool { get }
    /// Throws `BuildStoreError.unavailable` when the store does not answer a trivial request in
    /// time: what `/healthz` reports.
    func checkHealth() async throws
}

extension BuildStore {
    /// A promotion.
    public func moveChannel(_ channel: String, to build: BuildID, expected: BuildID?) async throws -> ChannelState {
        try await moveChannel(channel, to: build, expected: expected, kind: .promote, signature: nil)
    }

    /// A move that brings no signature of its own (refused on a signed channel unless the build's
    /// kept signature is the newest, `SignedChannelRule`).
    public func moveChannel(_ channel: String, to build: BuildID, expected: BuildID?, kind: ChannelMoveKind) async throws -> ChannelState {
        try await moveChannel(channel, to: build, expected: expected, kind: kind, signature: nil)
    }
}

/// A build's identity: the lower-case hex SHA-256 of its manifest bytes.
public typealias BuildID = String

/// Where a build is in its publication.
public enum BuildState: String, Sendable, Codable {
    case uploading
    case complete
}

/// A published (or publishing) build.
public struct BuildRecord: Sendable, Codable, Equatable {
    public var id: BuildID
    /// The manifest's `pipeline` name, for listings.
    public var pipeline: String
    public var state: BuildState
    /// The bundle blobs the manifest lists (its own blob is `id`), sorted, without repeats.
    public var blobs: [ContentHash]

    public init(id: BuildID, pipeline: String, state: BuildState, blobs: [ContentHash]) {
        self.id = id
        self.pipeline = pipeline
        self.state = state
        self.blobs = blobs
    }
}

/// A channel's current build and, newest first, every build it pointed at.
public struct ChannelState: Sendable, Codable, Equatable {
    public var name: String
    public var build: BuildID
    public var history: [ChannelEvent]
    /// The highest version any signature for the channel was signed at (the newest a pinned
    /// client may have accepted), nil when the channel was never signed. Absent from the answers
    /// of servers older than signed moves, and from channel listings.
    public var signedVersion: Int?

    public init(name: String, build: BuildID, history: [ChannelEvent], signedVersion: Int? = nil) {
        self.name = name
        self.build = build
        self.history = history
        self.signedVersion = signedVersion
    }
}

extension ChannelState {
    /// The builds the channel pointed at before its current one, newest first, each once: the
    /// manifests its devices may hold, which update patches start from (`docs/updates.md`).
    public var earlierBuilds: [BuildID] {
        var builds: [BuildID] = []
        for event in history.sorted(by: { $0.sequence > $1.sequence }) {
            for build in [event.build, event.previous].compactMap({ $0 }) where build != self.build && !builds.contains(build) {
                builds.append(build)
            }
        }
        return builds
    }
}

/// Whether a move put a build on the channel or took the channel back to an earlier one.
public enum ChannelMoveKind: String, Sendable, Codable {
    case promote
    case rollback
}

/// One move of a channel: the sequence number (1 for its creation), the build it moved to, the
/// one it left, what kind of move it was and when (seconds since 1970; nil for moves recorded
/// before Tessera kept the time).
public struct ChannelEvent: Sendable, Codable, Equatable {
    public var sequence: Int
    public var build: BuildID
    public var previous: BuildID?
    public var kind: ChannelMoveKind
    public var movedAt: Int?

    public init(sequence: Int, build: BuildID, previous: BuildID?, kind: ChannelMoveKind = .promote, movedAt: Int? = nil) {
        self.sequence = sequence
        self.build = build
        self.previous = previous
        self.kind = kind
        self.movedAt = movedAt
    }

    /// Answers of servers older than the move kinds read as promotions.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decode(Int.self, forKey: .sequence)
        build = try container.decode(BuildID.self, forKey: .build)
        previous = try container.decodeIfPresent(BuildID.self, forKey: .previous)
        kind = try container.decodeIfPresent(ChannelMoveKind.self, forKey: .kind) ?? .promote
        movedAt = try container.decodeIfPresent(Int.self, forKey: .movedAt)
    }
}

/// Why a build-store operation was refused.
public enum BuildStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Compare-and-swap lost: the channel points at `current` (nil: it does not exist).
    case conflict(channel: String, expected: BuildID?, current: BuildID?)
    case unknownBuild(BuildID)
    case buildIncomplete(BuildID)
    /// The store did not answer in time (a database that is down or unreachable).
    case unavailable(String)
    /// A move without a signature of its own to a build whose signature for the signed channel is
    /// not the newest (`version`: the build's, nil when it has none; `highest`: the channel's).
    case unsignedMove(channel: String, build: BuildID, version: Int?, highest: Int)
    /// A signature brought with a move at a version not above the channel's highest signed one.
    case staleSignature(channel: String, version: Int, highest: Int)

    public var description: String {
        switch self {
        case let .conflict(channel, expected, current):
            "channel '\(channel)' points at \(current ?? "nothing"), not \(expected ?? "nothing") as expected"
        case let .unknownBuild(id): "no build \(id)"
        case let .buildIncomplete(id): "build \(id) is still uploading"
        case let .unavailable(reason): "the build store is unavailable: \(reason)"
        case let .unsignedMove(channel, build, version, highest):
            "channel '\(channel)' is signed up to version \(highest), and clients pinning the root refuse a manifest signed at or below a version they accepted; "
                + "build \(build) \(version.map { "is signed for it at version \($0)" } ?? "has no signature for it"), "
                + "so the move would report success and move no client: sign it for the channel above version \(highest) "
                + "(tessera channel promote|rollback --sign KEY, or tessera publish --sign KEY --signed-version \(highest + 1))"
        case let .staleSignature(channel, version, highest):
            "the signature is version \(version), not above version \(highest), the highest signed for channel '\(channel)': "
                + "clients pinning the root that accepted version \(highest) would refuse it; sign at version \(highest + 1) or above"
        }
    }
}
