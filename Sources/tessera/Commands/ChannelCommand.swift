import ArgumentParser
import Serving
import TesseraCore

/// `tessera channel promote|rollback|ls`: moving channels on a catalog server.
struct ChannelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract: "List, promote and roll back channels on a catalog server.",
        subcommands: [Promote.self, Rollback.self, List.self])

    struct Promote: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Point a channel at a build (compare-and-swap).")
        @Argument(help: "The channel.") var name: String
        @Argument(help: "The build ID (its manifest's SHA-256).") var build: String
        @Option(help: "The build the channel must point at now; default: whatever it points at when read.")
        var expected: String?
        @OptionGroup var options: ServerOptions

        func run() async throws {
            do {
                let client = try options.client()
                let current: String? = if let expected { expected } else { try await client.channel(name)?.build }
                let state = try await client.move(name, to: build, expected: current)
                print("\(state.name) -> \(state.build)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct Rollback: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Point a channel back at the build before its current one.")
        @Argument(help: "The channel.") var name: String
        @OptionGroup var options: ServerOptions

        func run() async throws {
            do {
                let state = try await options.client().rollback(name)
                print("\(state.name) -> \(state.build)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List channels and their builds.")
        @OptionGroup var options: ServerOptions

        func run() async throws {
            do {
                for state in try await options.client().channels() { print("\(state.name) \(state.build)") }
            } catch {
                throw fail(error)
            }
        }
    }
}
