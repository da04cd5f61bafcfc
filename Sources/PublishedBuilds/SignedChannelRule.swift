/// When a move may put a build on a signed channel, judged by both build stores inside the
/// transaction that moves it, so that no request (an old `tessera`, curl) gets round it and two
/// instances sharing a database cannot interleave a check and a move.
///
/// A client pinning the root accepts a manifest only when its signed version is above the last
/// one it accepted (or is that very manifest again). The channel's highest signed version is the
/// newest any client may have accepted, so a move is one clients follow only when the build's
/// signature for the channel is above every other signature the channel has had. A move that
/// brings its own signature must sign above the highest; one that brings none may go only to the
/// build that already holds the channel's newest signature alone (`tessera publish --sign`
/// uploads it just before it moves the channel, as older versions of Tessera did).
/// A channel never signed moves freely: its clients pin no root for it.
enum SignedChannelRule {
    /// Throws the refusal, naming the channel, the build and the versions, or returns when the move may go ahead.
    /// - Parameters:
    ///   - highest: the channel's highest signed version before the move (nil: never signed).
    ///   - buildVersion: the version of the signature kept for `build` on the channel (nil: none).
    ///   - newestCount: how many builds hold a signature for the channel at `highest`.
    static func check(channel: String, build: BuildID, signature: ChannelSignature?, highest: Int?,
                      buildVersion: Int?, newestCount: Int) throws(BuildStoreError) {
        guard let highest else { return }
        if let signature {
            guard signature.version > highest else {
                throw .staleSignature(channel: channel, version: signature.version, highest: highest)
            }
            return
        }
        // Two builds signed at the same version: clients that accepted one refuse the other.
        guard buildVersion == highest, newestCount == 1 else {
            throw .unsignedMove(channel: channel, build: build, version: buildVersion, highest: highest)
        }
    }
}
