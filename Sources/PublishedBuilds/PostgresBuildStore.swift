import Foundation
import Logging
import PostgresNIO
import TesseraCore

/// The build store several server instances share: PostgreSQL through postgres-nio.
///
/// Channel moves are single conditional statements (`UPDATE … WHERE build = expected`, or
/// `INSERT … ON CONFLICT DO NOTHING` for a new channel) inside a transaction with the history row:
/// the row lock makes a concurrent move from the same build wait, re-check and find it changed,
/// so exactly one wins across every instance.
public final class PostgresBuildStore: BuildStore {
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`) and applies pending migrations.
    public init(url: String, logger: Logger = Logger(label: "tessera.builds")) async throws(TesseraError) {
        guard let components = URLComponents(string: url), let host = components.host, let user = components.user,
              components.path.count > 1 else {
            throw TesseraError(.configuration, file: url, origin: .store,
                               reason: "expected postgres://user[:password]@host[:port]/database")
        }
        let configuration = PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                         password: components.password,
                                                         database: String(components.path.dropFirst()), tls: .disable)
        // The client warns when the first query races its own start-up (`run()` begins in a task
        // just below); that warning says nothing useful, so its background log starts at errors.
        var background = logger
        background.logLevel = .error
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
        do {
            try await PostgresMigrations.migrate(client, logger: logger)
        } catch {
            runner.cancel()
            throw TesseraError(.io, file: url, origin: .store, reason: "cannot open the PostgreSQL build database: \(String(reflecting: error))")
        }
    }

    deinit { runner.cancel() }

    private func unboundedRegisterBuild(id: BuildID, pipeline: String, blobs: [ContentHash]) async throws -> BuildRecord {
        let wanted = Array(Set(blobs)).sorted()
        let logger = logger
        try await transaction { connection in
            let inserted = try await connection.query("""
                INSERT INTO builds (id, pipeline, state) VALUES (\(id), \(pipeline), 'uploading')
                ON CONFLICT (id) DO NOTHING RETURNING id
                """, logger: logger).collect()
            guard !inserted.isEmpty else { return }
            for blob in wanted {
                try await connection.query("INSERT INTO build_blobs (build, blob) VALUES (\(id), \(blob.hex))", logger: logger)
            }
        }
        guard let record = try await unboundedBuild(id) else { throw BuildStoreError.unknownBuild(id) }
        return record
    }

    private func unboundedBuild(_ id: BuildID) async throws -> BuildRecord? {
        let rows = try await client.query("SELECT pipeline, state FROM builds WHERE id = \(id)", logger: logger)
        var found: (String, String)?
        for try await row in rows.decode((String, String).self) { found = row }
        guard let (pipeline, state) = found else { return nil }
        var blobs: [ContentHash] = []
        for try await hex in try await client.query("SELECT blob FROM build_blobs WHERE build = \(id) ORDER BY blob",
                                                    logger: logger).decode(String.self) {
            if let hash = ContentHash(hex: hex) { blobs.append(hash) }
        }
        return BuildRecord(id: id, pipeline: pipeline, state: BuildState(rawValue: state) ?? .uploading, blobs: blobs)
    }

    private func unboundedMarkComplete(_ id: BuildID) async throws {
        let rows = try await client.query("UPDATE builds SET state = 'complete' WHERE id = \(id) RETURNING id", logger: logger)
            .collect()
        guard !rows.isEmpty else { throw BuildStoreError.unknownBuild(id) }
    }

    private func unboundedMoveChannel(_ channel: String, to build: BuildID, expected: BuildID?, kind: ChannelMoveKind,
                                      signature: ChannelSignature?) async throws -> ChannelState {
        guard let record = try await self.unboundedBuild(build) else { throw BuildStoreError.unknownBuild(build) }
        guard record.state == .complete else { throw BuildStoreError.buildIncomplete(build) }
        let logger = logger
        try await transaction { connection in
            try await Self.lockSigning(of: channel, on: connection, logger: logger)
            // Checked in the order SQLite checks them, so both stores give the same refusal.
            var current: String?
            for try await value in try await connection.query("SELECT build FROM channels WHERE name = \(channel)",
                                                              logger: logger).decode(String.self) { current = value }
            guard current == expected else { throw BuildStoreError.conflict(channel: channel, expected: expected, current: current) }
            let highest = try await Self.highestSignedVersion(channel, on: connection, logger: logger)
            var buildVersion: Int?
            for try await value in try await connection.query("""
                SELECT version FROM build_signatures WHERE build = \(build) AND channel = \(channel)
                """, logger: logger).decode(Int?.self) { buildVersion = value }
            var newestCount = 0
            for try await value in try await connection.query("""
                SELECT COUNT(*) FROM build_signatures WHERE channel = \(channel) AND version >= \(highest ?? 0)
                """, logger: logger).decode(Int.self) { newestCount = value }
            try SignedChannelRule.check(channel: channel, build: build, signature: signature, highest: highest,
                                        buildVersion: buildVersion, newestCount: newestCount)
            if let signature { try await Self.keep(signature, build: build, channel: channel, on: connection, logger: logger) }
            let moved: [PostgresRow]
            if let expected {
                moved = try await connection.query("""
                    UPDATE channels SET build = \(build) WHERE name = \(channel) AND build = \(expected) RETURNING name
                    """, logger: logger).collect()
            } else {
                moved = try await connection.query("""
                    INSERT INTO channels (name, build) VALUES (\(channel), \(build)) ON CONFLICT (name) DO NOTHING RETURNING name
                    """, logger: logger).collect()
            }
            guard !moved.isEmpty else {
                var current: String?
                for try await value in try await connection.query("SELECT build FROM channels WHERE name = \(channel)",
                                                                  logger: logger).decode(String.self) { current = value }
                throw BuildStoreError.conflict(channel: channel, expected: expected, current: current)
            }
            try await connection.query("""
                INSERT INTO channel_history (channel, sequence, build, previous, kind, moved_at)
                SELECT \(channel), COALESCE(MAX(sequence), 0) + 1, \(build), \(expected), \(kind.rawValue), \(Int(Date().timeIntervalSince1970))
                FROM channel_history WHERE channel = \(channel)
                """, logger: logger)
        }
        guard let state = try await self.unboundedChannel(channel) else { throw BuildStoreError.unknownBuild(build) }
        return state
    }

    /// Other instances move channels too.
    public let isWrittenOnlyByThisProcess = false

    private func unboundedChannelBuild(_ name: String) async throws -> BuildID? {
        var current: String?
        for try await value in try await client.query("SELECT build FROM channels WHERE name = \(name)", logger: logger)
            .decode(String.self) { current = value }
        return current
    }

    private func unboundedChannel(_ name: String) async throws -> ChannelState? {
        guard let current = try await unboundedChannelBuild(name) else { return nil }
        var history: [ChannelEvent] = []
        for try await (sequence, build, previous, kind, movedAt) in try await client.query("""
            SELECT sequence, build, previous, kind, moved_at FROM channel_history WHERE channel = \(name) ORDER BY sequence DESC
            """, logger: logger).decode((Int, String, String?, String, Int?).self) {
            history.append(ChannelEvent(sequence: sequence, build: build, previous: previous,
                                        kind: ChannelMoveKind(rawValue: kind) ?? .promote, movedAt: movedAt))
        }
        return ChannelState(name: name, build: current, history: history,
                            signedVersion: try await unboundedHighestSignedVersion(name))
    }

    /// Serializes, across every instance, the moves and signatures of one channel: a move reads the
    /// channel's highest signed version and must not miss a signature another instance is keeping.
    private static func lockSigning(of channel: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(hashtext('tessera channel ' || \(channel)))", logger: logger)
    }

    /// Keeps `signature` (replacing the build's one for the channel) and raises the channel's highest signed version.
    private static func keep(_ signature: ChannelSignature, build: BuildID, channel: String,
                             on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            INSERT INTO build_signatures (build, channel, sidecar, version) VALUES (\(build), \(channel), \(signature.sidecar), \(signature.version))
            ON CONFLICT (build, channel) DO UPDATE SET sidecar = EXCLUDED.sidecar, version = EXCLUDED.version
            """, logger: logger)
        try await connection.query("""
            INSERT INTO channel_signing (channel, highest_version) VALUES (\(channel), \(signature.version))
            ON CONFLICT (channel) DO UPDATE SET highest_version = GREATEST(channel_signing.highest_version, EXCLUDED.highest_version)
            """, logger: logger)
    }

    private static func highestSignedVersion(_ channel: String, on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        var highest: Int?
        for try await value in try await connection.query(highestSignedVersionQuery(channel), logger: logger)
            .decode(Int.self) { highest = value }
        return highest
    }

    private func unboundedHighestSignedVersion(_ channel: String) async throws -> Int? {
        var highest: Int?
        for try await value in try await client.query(Self.highestSignedVersionQuery(channel), logger: logger)
            .decode(Int.self) { highest = value }
        return highest
    }

    private static func highestSignedVersionQuery(_ channel: String) -> PostgresQuery {
        "SELECT highest_version FROM channel_signing WHERE channel = \(channel)"
    }

    private func unboundedChannels() async throws -> [ChannelState] {
        var states: [ChannelState] = []
        for try await (name, build) in try await client.query("SELECT name, build FROM channels ORDER BY name", logger: logger)
            .decode((String, String).self) {
            states.append(ChannelState(name: name, build: build, history: []))
        }
        return states
    }

    private func unboundedBuilds(withPrefix prefix: String, limit: Int) async throws -> [BuildID] {
        guard prefix.allSatisfy(\.isHexDigit) else { return [] }
        var ids: [BuildID] = []
        for try await id in try await client.query("""
            SELECT id FROM builds WHERE id LIKE \(prefix.lowercased() + "%") ORDER BY id LIMIT \(limit)
            """, logger: logger).decode(String.self) { ids.append(id) }
        return ids
    }

    /// How long one store call may take before it is `BuildStoreError.unavailable` (generous: a
    /// channel move can wait on another instance's transaction, and a loaded machine is slow; what
    /// it bounds is a database that is gone). postgres-nio
    /// waits for a connection as long as its pool keeps trying: with the database down a query
    /// hung about 67 s and then answered 500 with an empty body (issue 39).
    static let requestTimeout: Duration = .seconds(15)

    public func registerBuild(id: BuildID, pipeline: String, blobs: [ContentHash]) async throws -> BuildRecord {
        try await bounded { try await self.unboundedRegisterBuild(id: id, pipeline: pipeline, blobs: blobs) }
    }
    public func build(_ id: BuildID) async throws -> BuildRecord? {
        try await bounded { try await self.unboundedBuild(id) }
    }
    public func markComplete(_ id: BuildID) async throws {
        try await bounded { try await self.unboundedMarkComplete(id) }
    }
    public func moveChannel(_ channel: String, to build: BuildID, expected: BuildID?, kind: ChannelMoveKind,
                            signature: ChannelSignature?) async throws -> ChannelState {
        try await bounded {
            try await self.unboundedMoveChannel(channel, to: build, expected: expected, kind: kind, signature: signature)
        }
    }
    public func channelBuild(_ name: String) async throws -> BuildID? {
        try await bounded { try await self.unboundedChannelBuild(name) }
    }
    public func channel(_ name: String) async throws -> ChannelState? {
        try await bounded { try await self.unboundedChannel(name) }
    }
    public func channels() async throws -> [ChannelState] {
        try await bounded { try await self.unboundedChannels() }
    }
    public func builds(withPrefix prefix: String, limit: Int) async throws -> [BuildID] {
        try await bounded { try await self.unboundedBuilds(withPrefix: prefix, limit: limit) }
    }

    public func putSignature(_ signature: ChannelSignature, build: BuildID, channel: String) async throws {
        try await bounded {
            guard try await self.unboundedBuild(build) != nil else { throw BuildStoreError.unknownBuild(build) }
            let logger = self.logger
            try await self.transaction { connection in
                try await Self.lockSigning(of: channel, on: connection, logger: logger)
                try await Self.keep(signature, build: build, channel: channel, on: connection, logger: logger)
            }
        }
    }
    public func highestSignedVersion(channel: String) async throws -> Int? {
        try await bounded { try await self.unboundedHighestSignedVersion(channel) }
    }
    public func signature(build: BuildID, channel: String) async throws -> String? {
        try await bounded {
            var found: String?
            for try await value in try await self.client.query(
                "SELECT sidecar FROM build_signatures WHERE build = \(build) AND channel = \(channel)", logger: self.logger
            ).decode(String.self) { found = value }
            return found
        }
    }

    public func checkHealth() async throws {
        try await bounded {
            for try await _ in try await self.client.query("SELECT 1", logger: self.logger).decode(Int.self) {}
        }
    }

    /// The threads the queries and their deadline run on (`NetworkThreads`): on the cooperative
    /// pool, a busy pool held answers that had arrived until the deadline passed, and a live
    /// server was reported down.
    private static let threads = NetworkThreads(count: 2, name: "tessera.postgres")

    /// `body`, or `BuildStoreError.unavailable` once `requestTimeout` has passed (the call is cancelled).
    private func bounded<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(Self.threads) { try await race(body) }
    }

    private func race<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: Self.requestTimeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw BuildStoreError.unavailable("PostgreSQL did not answer within \(Self.requestTimeout)")
            }
            return value
        }
    }

    /// Runs `body` in a transaction, letting a `BuildStoreError` it throws through unwrapped.
    private func transaction(_ body: (PostgresConnection) async throws -> Void) async throws {
        do {
            try await client.withTransaction(logger: logger) { connection in try await body(connection) }
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError as? BuildStoreError { throw inner }
            throw error
        }
    }
}

/// The PostgreSQL schema, versioned like the SQLite one: `tessera_migrations` records what ran;
/// an advisory lock keeps instances starting together from migrating twice.
enum PostgresMigrations {
    static let steps: [(version: Int, name: String, sql: [String])] = [
        (1, "builds, blobs, channels, history", [
            """
            CREATE TABLE builds (
                id TEXT PRIMARY KEY,
                pipeline TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('uploading', 'complete'))
            )
            """,
            "CREATE TABLE build_blobs (build TEXT NOT NULL REFERENCES builds(id), blob TEXT NOT NULL, PRIMARY KEY (build, blob))",
            "CREATE TABLE channels (name TEXT PRIMARY KEY, build TEXT NOT NULL REFERENCES builds(id))",
            """
            CREATE TABLE channel_history (
                channel TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                build TEXT NOT NULL REFERENCES builds(id),
                previous TEXT,
                PRIMARY KEY (channel, sequence)
            )
            """,
        ]),
        (2, "history move kinds and times", [
            "ALTER TABLE channel_history ADD COLUMN kind TEXT NOT NULL DEFAULT 'promote' CHECK (kind IN ('promote', 'rollback'))",
            "ALTER TABLE channel_history ADD COLUMN moved_at BIGINT",
        ]),
        (3, "manifest signatures per build and channel", [
            """
            CREATE TABLE build_signatures (
                build TEXT NOT NULL REFERENCES builds(id),
                channel TEXT NOT NULL,
                sidecar TEXT NOT NULL,
                PRIMARY KEY (build, channel)
            )
            """,
        ]),
        (4, "signed versions, each channel's highest", SignedVersionsSchema.postgres),
    ]

    /// Signatures kept before version 4 get their version from their statement (in Swift: it is
    /// inside a base64 payload), and each channel its highest, as the SQLite migration does.
    static func fillSignedVersions(_ connection: PostgresConnection, logger: Logger) async throws {
        var kept: [(String, String, String)] = []
        for try await row in try await connection.query("SELECT build, channel, sidecar FROM build_signatures", logger: logger)
            .decode((String, String, String).self) { kept.append(row) }
        for (build, channel, sidecar) in kept {
            guard let version = ChannelSignature.version(ofKept: sidecar) else { continue }
            try await connection.query("""
                UPDATE build_signatures SET version = \(version) WHERE build = \(build) AND channel = \(channel)
                """, logger: logger)
        }
        try await connection.query("""
            INSERT INTO channel_signing (channel, highest_version)
            SELECT channel, MAX(version) FROM build_signatures WHERE version IS NOT NULL GROUP BY channel
            """, logger: logger)
    }

    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7465737265)", logger: logger)
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS tessera_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)
                """, logger: logger)
            var applied = Set<Int>()
            for try await version in try await connection.query("SELECT version FROM tessera_migrations", logger: logger)
                .decode(Int.self) { applied.insert(version) }
            for step in steps where !applied.contains(step.version) {
                for statement in step.sql { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                if step.version == 4 { try await fillSignedVersions(connection, logger: logger) }
                try await connection.query("INSERT INTO tessera_migrations (version, name) VALUES (\(step.version), \(step.name))",
                                           logger: logger)
            }
        }
    }
}
