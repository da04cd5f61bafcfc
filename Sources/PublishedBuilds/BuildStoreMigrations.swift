import GRDB

/// The SQLite build store's schema, one named migration per version. GRDB records applied ones in
/// `grdb_migrations`, so a store created by an older Tessera is brought forward on open and a
/// migration is never edited once released: add the next one instead.
enum BuildStoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: builds, blobs, channels, history") { db in
            try db.execute(sql: """
                CREATE TABLE builds (
                    id TEXT PRIMARY KEY NOT NULL,
                    pipeline TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('uploading', 'complete'))
                );
                CREATE TABLE build_blobs (
                    build TEXT NOT NULL REFERENCES builds(id),
                    blob TEXT NOT NULL,
                    PRIMARY KEY (build, blob)
                );
                CREATE TABLE channels (
                    name TEXT PRIMARY KEY NOT NULL,
                    build TEXT NOT NULL REFERENCES builds(id)
                );
                CREATE TABLE channel_history (
                    channel TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    build TEXT NOT NULL REFERENCES builds(id),
                    previous TEXT,
                    PRIMARY KEY (channel, sequence)
                );
                """)
        }
        migrator.registerMigration("v2: history move kinds and times") { db in
            try db.execute(sql: """
                ALTER TABLE channel_history ADD COLUMN kind TEXT NOT NULL DEFAULT 'promote' CHECK (kind IN ('promote', 'rollback'));
                ALTER TABLE channel_history ADD COLUMN moved_at INTEGER;
                """)
        }
        migrator.registerMigration("v3: manifest signatures per build and channel") { db in
            try db.execute(sql: """
                CREATE TABLE build_signatures (
                    build TEXT NOT NULL REFERENCES builds(id),
                    channel TEXT NOT NULL,
                    sidecar TEXT NOT NULL,
                    PRIMARY KEY (build, channel)
                );
                """)
        }
        migrator.registerMigration("v4: signed versions, each channel's highest") { db in
            try db.execute(sql: SignedVersionsSchema.sqlite)
            // Signatures kept before this version get theirs from their statement, so a channel
            // signed then is a signed channel now (its pinned clients are there already).
            let kept = try Row.fetchAll(db, sql: "SELECT build, channel, sidecar FROM build_signatures")
            for row in kept {
                guard let version = ChannelSignature.version(ofKept: row["sidecar"]) else { continue }
                try db.execute(sql: "UPDATE build_signatures SET version = ? WHERE build = ? AND channel = ?",
                               arguments: [version, row["build"], row["channel"]])
            }
            try db.execute(sql: """
                INSERT INTO channel_signing (channel, highest_version)
                SELECT channel, MAX(version) FROM build_signatures WHERE version IS NOT NULL GROUP BY channel
                """)
        }
        return migrator
    }
}
