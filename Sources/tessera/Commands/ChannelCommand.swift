import ArgumentParser
import Foundation
import PublishedBuilds
import Serving
import TesseraCore

/// `tessera channel promote|rollback|ls`: moving channels on a catalog server.
struct ChannelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract: "List, promote and roll back channels on a catalog server.",
        subcommands: [Promote.self, Rollback.self, List.self])

    struct Promote: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Point a channel at a build (compare-and-swap).",
            discussion: "BUILD is a build ID or a unique prefix of one (at least 4 hex digits); --from CHANNEL takes the build another channel points at. On a signed channel the move needs --sign KEY: the build is signed for the channel above its highest signed version, and the signature is kept with the move (docs/security.md).")
        @Argument(help: "The channel.") var name: String
        @Argument(help: "The build ID (its manifest's SHA-256) or a unique prefix of it.") var build: String?
        @Option(help: "Promote the build this other channel points at now (staging to production, say).")
        var from: String?
        @Option(help: "The build the channel must point at now (ID or prefix); default: whatever it points at when read.")
        var expected: String?
        @OptionGroup var options: ServerOptions
        @OptionGroup var signing: MoveSigningOptions

        func validate() throws {
            guard (build == nil) != (from == nil) else { throw ValidationError("give a BUILD or --from CHANNEL, not both") }
        }

        func run() async throws {
            do throws(TesseraError) {
                let client = try options.client()
                let target: BuildID
                if let from {
                    guard let source = try await client.channel(from) else {
                        throw TesseraError(.configuration, origin: .channel, reason: "no channel '\(from)'")
                    }
                    target = source.build
                } else {
                    target = try await client.resolveBuild(build!)
                }
                let state = try await client.channel(name)
                var current: BuildID?
                if let expected { current = try await client.resolveBuild(expected) } else { current = state?.build }
                let signature = try await signing.signature(for: target, channel: name, state: state, client: client)
                let moved = try await client.move(name, to: target, expected: current, signature: signature?.sidecar)
                if let signature { print("signed \(target) for \(name): version \(signature.version)") }
                print("\(moved.name) -> \(moved.build)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct Rollback: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Point a channel back along its history: to the build before its current one, or --to an earlier one.",
            discussion: "Each rollback goes one build further back (twice: two builds back); a promotion starts a new way back. On a signed channel the rollback needs --sign KEY: clients pinning the root refuse the earlier build's old signature, so it is signed again above the channel's highest signed version, and the signature is kept with the move (docs/security.md).")
        @Argument(help: "The channel.") var name: String
        @Option(help: "An earlier build on the channel's way back (ID or unique prefix).") var to: String?
        @OptionGroup var options: ServerOptions
        @OptionGroup var signing: MoveSigningOptions

        func run() async throws {
            do {
                let client = try options.client()
                var target: BuildID?
                if let to { target = try await client.resolveBuild(to) }
                let (state, destination) = try await client.rollbackDestination(name, to: target)
                let signature = try await signing.signature(for: destination, channel: name, state: state, client: client)
                let moved = try await client.move(name, to: destination, expected: state.build, kind: .rollback,
                                                  signature: signature?.sidecar)
                if let signature { print("signed \(destination) for \(name): version \(signature.version)") }
                print("\(moved.name) -> \(moved.build)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List channels: name, build, and when and how it last moved (UTC).")
        @OptionGroup var options: ServerOptions
        @OptionGroup var result: ResultOutput

        func run() async throws {
            var states: [ChannelState] = []
            do {
                let client = try options.client()
                for listed in try await client.channels() {
                    states.append(try await client.channel(listed.name) ?? listed)
                }
            } catch {
                throw fail(error)
            }
            try result.emit(states, under: "channels") {
                states.map { state in
                    let last = state.history.first
                    let when = last?.movedAt.map { ChannelListing.utc(Date(timeIntervalSince1970: TimeInterval($0))) } ?? "-"
                    return "\(state.name) \(state.build) \(when) \(last?.kind.rawValue ?? "-")\n"
                }.joined()
            }
        }
    }
}

/// `tessera channel ls`'s times.
enum ChannelListing {
    static func utc(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().timeZone(separator: .omitted).time(includingFractionalSeconds: false).timeSeparator(.colon).dateSeparator(.dash).dateTimeSeparator(.standard))
    }
}
