import Foundation
import GRDB
import TesseraCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded build store: one SQLite file through GRDB, created and migrated on open.
///
/// A `DatabasePool` (WAL) lets reads run beside the single writer; every write is one
/// transaction, so a channel's compare-and-swap and its history row commit together or not at all.
public final class SQLiteBuildStore: BuildStore {
    private let pool: DatabasePool
    /// Held for the store's life: a second instance on the same file would make the first one's
    /// in-memory channel answers stale, so it is refused instead.
    private let lock: Int32
    /// One server instance per SQLite store (`docs/serving.md`); writes come through its routes.
    public let isWrittenOnlyByThisProcess = true

    /// Opens (creating when missing) the store at `path` and applies pending migrations.
    public init(path: String) throws(TesseraError) {
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw TesseraError(.io, file: path, origin: .store, reason: "cannot open the SQLite build database: \(error)")
        }
        lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else {
            throw TesseraError(.io, file: path, origin: .store, reason: "cannot create \(path).lock: \(String(cString: strerror(errno)))")
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw TesseraError(.io, file: path, origin: .store,
                               reason: "another instance has this SQLite build database open; several instances need a shared PostgreSQL database (--database postgres://…)")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            pool = try DatabasePool(path: path, configuration: configuration)
            try BuildStoreMigrations.migrator.migrate(pool)
        } catch {
            close(lock)
            throw TesseraError(.io, file: path, origin: .store, reason: "cannot open the SQLite build database: \(error)")
        }
    }

    deinit {
        close(lock)
    }

    public func registerBuild(id: BuildID, pipeline: String, blobs: [ContentHash]) async throws -> BuildRecord {
        let wanted = Array(Set(blobs)).sorted()
        return try await pool.write { db in
            if let existing = try Self.build(id, in: db) { return existing }
            try db.execute(sql: "INSERT INTO builds (id, pipeline, state) VALUES (?, ?, 'uploading')",
                           arguments: [id, pipeline])
            for blob in wanted {
                try db.execute(sql: "INSERT INTO build_blobs (build, blob) VALUES (?, ?)", arguments: [id, blob.hex])
            }
            return BuildRecord(id: id, pipeline: pipeline, state: .uploading, blobs: wanted)
        }
    }

    public func build(_ id: BuildID) async throws -> BuildRecord? {
        try await pool.read { db in try Self.build(id, in: db) }
    }

    public func putSignature(_ signature: ChannelSignature, build: BuildID, channel: String) async throws {
        try await pool.write { db in
            guard try Self.build(build, in: db) != nil else { throw BuildStoreError.unknownBuild(build) }
            try Self.keep(signature, build: build, channel: channel, in: db)
        }
    }

    public func highestSignedVersion(channel: String) async throws -> Int? {
        try await pool.read { db in try Self.highestSignedVersion(channel, in: db) }
    }

    public func signature(build: BuildID, channel: String) async throws -> String? {
        try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT sidecar FROM build_signatures WHERE build = ? AND channel = ?",
                                arguments: [build, channel])
        }
    }

    public func markComplete(_ id: BuildID) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE builds SET state = 'complete' WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw BuildStoreError.unknownBuild(id) }
        }
    }

    public func moveChannel(_ channel: String, to build: BuildID, expected: BuildID?, kind: ChannelMoveKind,
                            signature: ChannelSignature?) async throws -> ChannelState {
        // One write transaction: a refusal thrown below rolls the signature back with the move.
        try await pool.write { db in
            guard let record = try Self.build(build, in: db) else { throw BuildStoreError.unknownBuild(build) }
            guard record.state == .complete else { throw BuildStoreError.buildIncomplete(build) }
            let current = try String.fetchOne(db, sql: "SELECT build FROM channels WHERE name = ?", arguments: [channel])
            guard current == expected else {
                throw BuildStoreError.conflict(channel: channel, expected: expected, current: current)
            }
            let highest = try Self.highestSignedVersion(channel, in: db)
            let buildVersion = try Int.fetchOne(db, sql: "SELECT version FROM build_signatures WHERE build = ? AND channel = ?",
                                                arguments: [build, channel])
            let newestCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM build_signatures WHERE channel = ? AND version >= ?",
                                               arguments: [channel, highest ?? 0]) ?? 0
            try SignedChannelRule.check(channel: channel, build: build, signature: signature, highest: highest,
                                        buildVersion: buildVersion, newestCount: newestCount)
            if let signature { try Self.keep(signature, build: build, channel: channel, in: db) }
            let sequence = (try Int.fetchOne(db, sql: "SELECT MAX(sequence) FROM channel_history WHERE channel = ?",
                                             arguments: [channel]) ?? 0) + 1
            try db.execute(sql: "INSERT INTO channels (name, build) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET build = excluded.build",
                           arguments: [channel, build])
            try db.execute(sql: """
                INSERT INTO channel_history (channel, sequence, build, previous, kind, moved_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [channel, sequence, build, current, kind.rawValue, Int(Date().timeIntervalSince1970)])
            return try Self.channel(channel, in: db)!
        }
    }

    public func channelBuild(_ name: String) async throws -> BuildID? {
        try await pool.read { db in try String.fetchOne(db, sql: "SELECT build FROM channels WHERE name = ?", arguments: [name]) }
    }

    public func channel(_ name: String) async throws -> ChannelState? {
        try await pool.read { db in try Self.channel(name, in: db) }
    }

    public func channels() async throws -> [ChannelState] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT name, build FROM channels ORDER BY name").map {
                ChannelState(name: $0["name"], build: $0["build"], history: [])
            }
        }
    }

    /// An embedded file: it answers while the process runs.
    public func checkHealth() async throws {}

    public func builds(withPrefix prefix: String, limit: Int) async throws -> [BuildID] {
        // Hex only, so the prefix needs no escaping for LIKE.
        guard prefix.allSatisfy(\.isHexDigit) else { return [] }
        return try await pool.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM builds WHERE id LIKE ? ORDER BY id LIMIT ?",
                                arguments: [prefix.lowercased() + "%", limit])
        }
    }

    private static func build(_ id: BuildID, in db: Database) throws -> BuildRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT pipeline, state FROM builds WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let blobs = try String.fetchAll(db, sql: "SELECT blob FROM build_blobs WHERE build = ? ORDER BY blob", arguments: [id])
            .compactMap { ContentHash(hex: $0) }
        let state = BuildState(rawValue: row["state"]) ?? .uploading
        return BuildRecord(id: id, pipeline: row["pipeline"], state: state, blobs: blobs)
    }

    /// Keeps `signature` (replacing the build's one for the channel) and raises the channel's highest signed version.
    private static func keep(_ signature: ChannelSignature, build: BuildID, channel: String, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO build_signatures (build, channel, sidecar, version) VALUES (?, ?, ?, ?)
            ON CONFLICT (build, channel) DO UPDATE SET sidecar = excluded.sidecar, version = excluded.version
            """, arguments: [build, channel, signature.sidecar, signature.version])
        try db.execute(sql: """
            INSERT INTO channel_signing (channel, highest_version) VALUES (?, ?)
            ON CONFLICT (channel) DO UPDATE SET highest_version = MAX(highest_version, excluded.highest_version)
            """, arguments: [channel, signature.version])
    }

    private static func highestSignedVersion(_ channel: String, in db: Database) throws -> Int? {
        try Int.fetchOne(db, sql: "SELECT highest_version FROM channel_signing WHERE channel = ?", arguments: [channel])
    }

    private static func channel(_ name: String, in db: Database) throws -> ChannelState? {
        guard let build = try String.fetchOne(db, sql: "SELECT build FROM channels WHERE name = ?", arguments: [name]) else {
            return nil
        }
        let history = try Row.fetchAll(db, sql: """
            SELECT sequence, build, previous, kind, moved_at FROM channel_history WHERE channel = ? ORDER BY sequence DESC
            """, arguments: [name]).map {
                ChannelEvent(sequence: $0["sequence"], build: $0["build"], previous: $0["previous"],
                             kind: ChannelMoveKind(rawValue: $0["kind"]) ?? .promote, movedAt: $0["moved_at"])
            }
        return ChannelState(name: name, build: build, history: history, signedVersion: try highestSignedVersion(name, in: db))
    }
}
