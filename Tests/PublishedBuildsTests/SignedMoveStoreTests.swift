import Foundation
import PublishedBuilds
import Testing
import TesseraCore

/// Moves of a signed channel, as both build stores judge them inside the move's transaction.
@Suite("Build store: moves of signed channels")
struct SignedMoveStoreTests {
    func signature(_ build: String, _ version: Int) -> ChannelSignature {
        ChannelSignature(sidecar: #"{"build":"\#(build)","version":\#(version)}"#, version: version)
    }

    func completeBuilds(_ ids: [String], in store: any BuildStore) async throws {
        for id in ids {
            _ = try await store.registerBuild(id: id, pipeline: "p", blobs: [])
            try await store.markComplete(id)
        }
    }

    @Test("a signed rollback keeps its signature and moves the channel in one step; its highest signed version rises to it", arguments: StoreBackend.allCases)
    func signedRollbackMoves(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        try await completeBuilds(["old", "new"], in: store)
        // As `tessera publish --sign` does: the signature first, then the move to the build holding it.
        try await store.putSignature(signature("old", 42), build: "old", channel: "production")
        _ = try await store.moveChannel("production", to: "old", expected: nil)
        try await store.putSignature(signature("new", 43), build: "new", channel: "production")
        let promoted = try await store.moveChannel("production", to: "new", expected: "old")
        #expect(promoted.signedVersion == 43)

        let rolled = try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback, signature: signature("old", 44))
        #expect(rolled.build == "old" && rolled.signedVersion == 44 && rolled.history.first?.kind == .rollback)
        #expect(try await store.signature(build: "old", channel: "production") == signature("old", 44).sidecar)
        #expect(try await store.highestSignedVersion(channel: "production") == 44)
    }

    @Test("on a signed channel an unsigned move to a build without the newest signature is refused, naming both versions; nothing moves", arguments: StoreBackend.allCases)
    func unsignedMoveRefused(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        try await completeBuilds(["old", "new", "bare"], in: store)
        try await store.putSignature(signature("old", 42), build: "old", channel: "production")
        _ = try await store.moveChannel("production", to: "old", expected: nil)
        try await store.putSignature(signature("new", 43), build: "new", channel: "production")
        let before = try await store.moveChannel("production", to: "new", expected: "old")

        await #expect(throws: BuildStoreError.unsignedMove(channel: "production", build: "old", version: 42, highest: 43)) {
            try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback)
        }
        await #expect(throws: BuildStoreError.unsignedMove(channel: "production", build: "bare", version: nil, highest: 43)) {
            try await store.moveChannel("production", to: "bare", expected: "new")
        }
        #expect(try await store.channel("production") == before)
        // Two builds signed at the same version: a client holding one refuses the other.
        try await store.putSignature(signature("bare", 43), build: "bare", channel: "production")
        await #expect(throws: BuildStoreError.unsignedMove(channel: "production", build: "bare", version: 43, highest: 43)) {
            try await store.moveChannel("production", to: "bare", expected: "new")
        }
        #expect(try await store.channel("production") == before)
        // A channel never signed moves as before.
        _ = try await store.moveChannel("nightly", to: "bare", expected: nil)
        let nightly = try await store.moveChannel("nightly", to: "old", expected: "bare", kind: .rollback)
        #expect(nightly.build == "old" && nightly.signedVersion == nil)
    }

    @Test("a signature not above the channel's highest, or a move that loses its compare-and-swap, keeps neither the signature nor the move", arguments: StoreBackend.allCases)
    func refusedSignedMoveKeepsNothing(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        try await completeBuilds(["old", "new"], in: store)
        try await store.putSignature(signature("old", 42), build: "old", channel: "production")
        _ = try await store.moveChannel("production", to: "old", expected: nil)
        try await store.putSignature(signature("new", 43), build: "new", channel: "production")
        let before = try await store.moveChannel("production", to: "new", expected: "old")

        await #expect(throws: BuildStoreError.staleSignature(channel: "production", version: 43, highest: 43)) {
            try await store.moveChannel("production", to: "old", expected: "new", kind: .rollback, signature: signature("old", 43))
        }
        await #expect(throws: BuildStoreError.conflict(channel: "production", expected: "old", current: "new")) {
            try await store.moveChannel("production", to: "old", expected: "old", kind: .rollback, signature: signature("old", 50))
        }
        #expect(try await store.channel("production") == before)
        #expect(try await store.signature(build: "old", channel: "production") == signature("old", 42).sidecar)
        #expect(try await store.highestSignedVersion(channel: "production") == 43)
    }

    @Test("a channel's highest signed version never falls: a build re-signed lower leaves it, and the build cannot be moved to unsigned", arguments: StoreBackend.allCases)
    func highestNeverFalls(backend: StoreBackend) async throws {
        let (store, cleanup) = try await backend.make()
        defer { cleanup() }
        try await completeBuilds(["one", "two"], in: store)
        try await store.putSignature(signature("one", 9), build: "one", channel: "production")
        _ = try await store.moveChannel("production", to: "one", expected: nil)
        try await store.putSignature(signature("one", 3), build: "one", channel: "production")
        #expect(try await store.highestSignedVersion(channel: "production") == 9)
        #expect(try await store.highestSignedVersion(channel: "staging") == nil)
        await #expect(throws: BuildStoreError.unsignedMove(channel: "production", build: "one", version: 3, highest: 9)) {
            try await store.moveChannel("production", to: "one", expected: "one")
        }
        let moved = try await store.moveChannel("production", to: "two", expected: "one", kind: .promote, signature: signature("two", 10))
        #expect(moved.build == "two" && moved.signedVersion == 10)
    }
}
