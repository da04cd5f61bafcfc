import Delivery
import Foundation
import GRDB
import Logging
import PostgresNIO
import PublishedBuilds
import Testing
import TesseraCore
import TestServers

/// A store made before signed moves: its channels signed then must stay signed once migrated,
/// or the first unsigned rollback after the upgrade would go through and move no pinned client.
@Suite("Build store migration to signed versions")
struct SignedVersionsMigrationTests {
    /// A sidecar whose statement signs `version` for `channel` (unsigned: the store only reads the version).
    func sidecar(version: Int, channel: String, build: String) throws -> String {
        let statement = ManifestStatement(channel: channel, version: version, expires: "2099-01-01T00:00:00Z",
                                          manifest: .init(sha256: ContentHash.of(Array(build.utf8)), size: build.utf8.count))
        let envelope = SignedEnvelope(payloadType: ManifestStatement.payloadType, payload: try statement.payload())
        return String(decoding: try StableJSON.encode(ManifestSidecar(roots: [], keys: envelope, manifest: envelope)), as: UTF8.self)
    }

    @Test("a SQLite store at schema v3 opens with its kept signatures' versions and each channel's highest, and refuses an unsigned rollback below it")
    func sqliteSignaturesKeptBeforeGetVersions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-catalog-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/c.sqlite"
        do {
            // Schema v1–v3 as Tessera released them, and GRDB's record of those migrations.
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE builds (id TEXT PRIMARY KEY NOT NULL, pipeline TEXT NOT NULL,
                                         state TEXT NOT NULL CHECK (state IN ('uploading', 'complete')));
                    CREATE TABLE build_blobs (build TEXT NOT NULL REFERENCES builds(id), blob TEXT NOT NULL, PRIMARY KEY (build, blob));
                    CREATE TABLE channels (name TEXT PRIMARY KEY NOT NULL, build TEXT NOT NULL REFERENCES builds(id));
                    CREATE TABLE channel_history (channel TEXT NOT NULL, sequence INTEGER NOT NULL, build TEXT NOT NULL REFERENCES builds(id),
                                                  previous TEXT, PRIMARY KEY (channel, sequence));
                    ALTER TABLE channel_history ADD COLUMN kind TEXT NOT NULL DEFAULT 'promote' CHECK (kind IN ('promote', 'rollback'));
                    ALTER TABLE channel_history ADD COLUMN moved_at INTEGER;
                    CREATE TABLE build_signatures (build TEXT NOT NULL REFERENCES builds(id), channel TEXT NOT NULL,
                                                   sidecar TEXT NOT NULL, PRIMARY KEY (build, channel));
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1: builds, blobs, channels, history'), ('v2: history move kinds and times'),
                                                       ('v3: manifest signatures per build and channel');
                    INSERT INTO builds VALUES ('old', 'p', 'complete'), ('new', 'p', 'complete');
                    INSERT INTO channels VALUES ('production', 'new');
                    INSERT INTO channel_history (channel, sequence, build, previous) VALUES ('production', 1, 'old', NULL), ('production', 2, 'new', 'old');
                    """)
                for (build, version) in [("old", 42), ("new", 43)] {
                    try db.execute(sql: "INSERT INTO build_signatures VALUES (?, 'production', ?)",
                                   arguments: [build, try sidecar(version: version, channel: "production", build: build)])
                }
                try db.execute(sql: "INSERT INTO build_signatures VALUES ('old', 'staging', ?)",
                               arguments: [try sidecar(version: 7, channel: "staging", build: "old")])
            }
        }
        let store = try SQLiteBuildStore(path: path)
        #expect(try await store.channel("production")?.signedVersion == 43)
        #expect(try await store.highestSignedVersion(channel: "staging") == 7)
        await #expect(throws: BuildStoreError.unsignedMove(channel: "production", build: "old", version: 42, highest: 43)) {
            try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback)
        }
        let moved = try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback,
                                                signature: ChannelSignature(sidecar: "{}", version: 44))
        #expect(moved.build == "old" && moved.signedVersion == 44)
    }

    @Test("a PostgreSQL store at schema v3 opens with its kept signatures' versions and each channel's highest, and refuses an unsigned rollback below it")
    func postgresSignaturesKeptBeforeGetVersions() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let client = PostgresClient(configuration: .init(host: "127.0.0.1", port: server.port, username: server.user, password: nil,
                                                         database: server.database, tls: .disable),
                                    backgroundLogger: Logger(label: "tessera.test"))
        let runner = Task { await client.run() }
        // Schema v1–v3 as Tessera released them, and its record of those migrations.
        for statement in [
            "CREATE TABLE builds (id TEXT PRIMARY KEY, pipeline TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('uploading', 'complete')))",
            "CREATE TABLE build_blobs (build TEXT NOT NULL REFERENCES builds(id), blob TEXT NOT NULL, PRIMARY KEY (build, blob))",
            "CREATE TABLE channels (name TEXT PRIMARY KEY, build TEXT NOT NULL REFERENCES builds(id))",
            "CREATE TABLE channel_history (channel TEXT NOT NULL, sequence INTEGER NOT NULL, build TEXT NOT NULL REFERENCES builds(id), previous TEXT, PRIMARY KEY (channel, sequence))",
            "ALTER TABLE channel_history ADD COLUMN kind TEXT NOT NULL DEFAULT 'promote' CHECK (kind IN ('promote', 'rollback'))",
            "ALTER TABLE channel_history ADD COLUMN moved_at BIGINT",
            "CREATE TABLE build_signatures (build TEXT NOT NULL REFERENCES builds(id), channel TEXT NOT NULL, sidecar TEXT NOT NULL, PRIMARY KEY (build, channel))",
            "CREATE TABLE tessera_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)",
            "INSERT INTO tessera_migrations VALUES (1, 'builds, blobs, channels, history'), (2, 'history move kinds and times'), (3, 'manifest signatures per build and channel')",
            "INSERT INTO builds VALUES ('old', 'p', 'complete'), ('new', 'p', 'complete')",
            "INSERT INTO channels VALUES ('production', 'new')",
            "INSERT INTO channel_history (channel, sequence, build, previous) VALUES ('production', 1, 'old', NULL), ('production', 2, 'new', 'old')",
        ] { try await client.query(PostgresQuery(unsafeSQL: statement)) }
        for (build, version) in [("old", 42), ("new", 43)] {
            let kept = try sidecar(version: version, channel: "production", build: build)
            try await client.query("INSERT INTO build_signatures VALUES (\(build), 'production', \(kept))")
        }
        runner.cancel()

        let store = try await PostgresBuildStore(url: server.url)
        #expect(try await store.channel("production")?.signedVersion == 43)
        await #expect(throws: BuildStoreError.unsignedMove(channel: "production", build: "old", version: 42, highest: 43)) {
            try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback)
        }
        let moved = try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback,
                                                signature: ChannelSignature(sidecar: "{}", version: 44))
        #expect(moved.build == "old" && moved.signedVersion == 44)
    }
}
