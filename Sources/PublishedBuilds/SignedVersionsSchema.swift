/// Schema version 4 of both build stores: each kept signature's version, and each channel's
/// highest signed version, which only rises (a build re-signed at a lower version must not
/// lower it: clients that accepted the higher one still refuse anything at or below it).
/// Both stores fill the versions of signatures kept before from their statements.
enum SignedVersionsSchema {
    static let sqlite = """
        ALTER TABLE build_signatures ADD COLUMN version INTEGER;
        CREATE TABLE channel_signing (
            channel TEXT PRIMARY KEY NOT NULL,
            highest_version INTEGER NOT NULL
        );
        """

    static let postgres = [
        "ALTER TABLE build_signatures ADD COLUMN version BIGINT",
        "CREATE TABLE channel_signing (channel TEXT PRIMARY KEY, highest_version BIGINT NOT NULL)",
    ]
}
