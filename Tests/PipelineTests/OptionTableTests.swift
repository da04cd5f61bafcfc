import ArgumentParser
import BuildOptions
import Foundation
import Encoding
@testable import Pipeline
import TestServers
import TestSupport
import Testing
import TesseraCore
@testable import tessera

/// The option table is the one declaration of every option: these tests fail when the pipeline
/// format's docs, a command's `--help` or the reader drift from it.
@Suite("option table")
struct OptionTableTests {
    /// `| stage | key | default | meaning |` rows of docs/pipeline-format.md, defaults without
    /// Markdown's backticks and YAML's quotes.
    static func documentedOptions() throws -> [String: String] {
        let text = try String(contentsOfFile: "\(Workspace.packageRoot)/docs/pipeline-format.md", encoding: .utf8)
        var rows: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5, cells[2].hasPrefix("`"), OptionSection(rawValue: plain(cells[1])) != nil else { continue }
            rows["\(plain(cells[1])).\(plain(cells[2]))"] = plain(cells[3])
        }
        return rows
    }

    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "\"", with: "")
    }

    /// `--name` → what follows `(default: ` in its help, or "" when it shows none. ArgumentParser
    /// puts a long option's help on the lines after it, so each option's lines are joined first.
    static func helpOptions(_ help: String) -> [String: String] {
        var blocks: [String] = []
        for line in help.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-") {
                blocks.append(trimmed)
            } else if !blocks.isEmpty, line.hasPrefix("  ") {
                blocks[blocks.count - 1] += " " + trimmed
            }
        }
        var options: [String: String] = [:]
        for block in blocks where block.hasPrefix("--") {
            let name = String(block.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" })
            var shown = ""
            if let range = block.range(of: "(default: ", options: .backwards) {
                shown = String(block[range.upperBound...].prefix { $0 != ")" })
            }
            // A flag with an inversion (`--insights/--no-insights`) shows its default as the one that is on.
            if shown == "--\(name)" { shown = "true" } else if shown == "--no-\(name)" { shown = "false" }
            options[name] = shown
        }
        return options
    }

    @Test("docs/pipeline-format.md lists every option of the table, no other, with the table's default")
    func docsMatchTable() throws {
        let documented = try Self.documentedOptions()
        let declared = Dictionary(uniqueKeysWithValues: OptionTable.all.map {
            ("\($0.section.rawValue).\($0.name)", Self.plain($0.defaultText ?? "(none)"))
        })
        #expect(Set(documented.keys) == Set(declared.keys))
        for (key, shown) in declared {
            #expect(documented[key] == shown, "docs/pipeline-format.md: \(key) should show the default \(shown)")
        }
    }

    @Test("each command's --help offers the table's options it takes, under the same names and with the same defaults",
          arguments: [
              ("convert", ConvertCommand.helpMessage(columns: 100),
               OptionTable.Encode.all + [OptionTable.Decompress.pixelFormat]),
              ("downscale", DownscaleCommand.helpMessage(columns: 100), OptionTable.Downscale.all + OptionTable.Encode.all),
              ("timing", TimingCommand.helpMessage(columns: 100), OptionTable.Timing.all),
              ("bundle create", BundleCommand.Create.helpMessage(columns: 100),
               [OptionTable.Pack.minSaving, OptionTable.Pack.compress, OptionTable.Pack.xzLevel]),
              ("report", ReportCommand.helpMessage(columns: 100), OptionTable.Report.all),
          ] as [(String, String, [any DeclaredOption])])
    func helpMatchesTable(command: String, help: String, options: [any DeclaredOption]) {
        let offered = Self.helpOptions(help)
        for option in options {
            #expect(offered[option.name] != nil, "tessera \(command) --help lacks --\(option.name)")
            guard let shown = offered[option.name] else { continue }
            #expect(shown == (option.defaultText ?? ""), "tessera \(command) --\(option.name) shows the default '\(shown)'")
            for old in option.deprecatedNames {
                #expect(offered[old] == nil, "tessera \(command) --help still offers the deprecated --\(old)")
            }
        }
    }

    @Test("the pipeline reader takes every option of the table under its name, and nothing else")
    func readerKnowsEveryOption() throws {
        for section in OptionSection.allCases {
            let others = ["decode", "manifest", "slice", "pack"].filter { $0 != section.rawValue }.map { "  \($0):\n" }.joined()
            let extra = "version: 1\nname: x\nstages:\n\(others)  \(section.rawValue):\n    no-such-key: 1\n"
            do {
                _ = try PipelineFileReader.parse(extra, file: "p.yml")
                Issue.record("an unknown key in \(section.rawValue) was accepted")
            } catch {
                let names = section.options.map(\.name).joined(separator: ", ")
                #expect(error.description.hasSuffix("unknown key; expected one of \(names)"))
            }
        }
    }

    @Test("every option of the table has one binding in its section's options, in the table's order: an option added to the table but not bound fails here")
    func everyOptionIsBoundOnce() {
        for section in OptionSection.allCases {
            let bound = PipelineFileReader.bindings[section]?.map(\.name) ?? []
            #expect(bound == section.options.map(\.name), "stages.\(section.rawValue)")
            #expect(PipelineFileReader.bindings[section]?.allSatisfy { $0.section == section } == true)
        }
    }

    /// A value other than the default for every option of the table, as YAML: the test below
    /// fails for an option missing here, so a new option cannot skip it.
    static let nonDefault: [String: String] = [
        "decode.max-pixels": "1000", "variants.scales": "[2x, 3x]", "variants.unsuffixed-scale": "2x",
        "rasterize.render-seconds": "3", "rasterize.max-file-size": "1MiB",
        "downscale.filter": "box", "downscale.linear-light": "true", "downscale.memory-budget": "32MiB",
        "encode.png-effort": "max", "encode.png-level": "1", "encode.png-palette": "lossy", "encode.png-palette-quality": "10-20",
        "encode.png-palette-speed": "9", "encode.jpeg-quality": "50", "encode.jpeg-progressive": "true",
        "encode.jpeg-chroma": "\"4:4:4\"", "encode.webp-quality": "10",
        "decompress.include": "[\"a*\"]", "decompress.all": "false", "decompress.animated": "true",
        "decompress.pixel-format": "rgba8", "decompress.max-bytes": "1MB",
        "timing.clamp": "none", "timing.max-slots": "7", "timing.sub-images": "separate",
        "slice.devices": "[\"iPad12,1\"]",
        "pack.initial-install": "[Red]", "pack.prefetch-order": "[Blue]", "pack.untagged": "pack", "pack.base-url": "https://cdn.example.com/x",
        "pack.min-saving": "\"0.5\"", "pack.compress": "never", "pack.xz-level": "1", "pack.pack-limit": "8GB",
        "pack.apple-pack-ids": "universal", "pack.play-device-groups": "[high=android-xxhdpi]", "pack.apple-odr": "true",
        "manifest.file": "other.json",
        "report.max-install": "1MB", "report.max-pack": "1MB", "report.max-total": "1MB", "report.max-asset": "1MB",
        "report.max-tag": "[Red=1MB]", "report.max-install-growth": "1%", "report.max-pack-growth": "1%",
        "report.max-asset-growth": "1KB", "report.max-update": "1MB", "report.against": "previous", "report.insights": "false",
    ]

    @Test("every option of the table, set to a value other than its default in YAML, changes what the pipeline reader makes: none is accepted and ignored")
    func everyOptionIsApplied() throws {
        let keys = Set(OptionTable.all.map { "\($0.section.rawValue).\($0.name)" })
        #expect(keys == Set(Self.nonDefault.keys), "no test value for \(keys.subtracting(Self.nonDefault.keys).sorted()); unknown \(Set(Self.nonDefault.keys).subtracting(keys).sorted())")
        func definition(_ section: String, _ lines: [String]) throws -> String {
            let sections = Array(Set(["decode", "manifest", "slice", "pack", section])).sorted()
            let stages = sections.map { name in
                "  \(name):\n" + (name == section ? lines.map { "    \($0)\n" }.joined() : "")
            }.joined()
            var warnings: [String] = []
            return ContentHash.of(try PipelineFileReader.parse("version: 1\nname: x\nstages:\n\(stages)", file: "p.yml", warnings: &warnings).fingerprint).hex
        }
        for option in OptionTable.all {
            let key = "\(option.section.rawValue).\(option.name)"
            guard let value = Self.nonDefault[key] else { continue }
            // A growth budget is read only beside the build it compares with.
            // The lossy palette's settings change no byte (and no key) while the palette is off.
            let needed = key.hasSuffix("-growth") || key == "report.max-update" ? ["against: previous"]
                : Self.needsLossyPalette.contains(option.name) ? ["png-palette: lossy"] : []
            let base = try definition(option.section.rawValue, needed)
            let set = try definition(option.section.rawValue, needed + ["\(option.name): \(value)"])
            #expect(set != base, "stages.\(key): \(value) was accepted but changed nothing")
        }
    }

    /// A value other than the default for every option a command takes from the table, as its
    /// arguments (a flag alone).
    static let nonDefaultArguments: [String: [String]] = [
        "png-effort": ["--png-effort", "max"], "png-level": ["--png-level", "1"], "png-palette": ["--png-palette", "lossy"],
        "png-palette-quality": ["--png-palette-quality", "10-20"], "png-palette-speed": ["--png-palette-speed", "9"],
        "jpeg-quality": ["--jpeg-quality", "50"], "jpeg-progressive": ["--jpeg-progressive"],
        "jpeg-chroma": ["--jpeg-chroma", "4:4:4"], "webp-quality": ["--webp-quality", "10"],
        "pixel-format": ["--pixel-format", "rgba8"],
        "filter": ["--filter", "box"], "linear-light": ["--linear-light"], "memory-budget": ["--memory-budget", "32MiB"],
        "clamp": ["--clamp", "none"], "max-slots": ["--max-slots", "7"], "sub-images": ["--sub-images", "separate"],
        "min-saving": ["--min-saving", "0.5"], "compress": ["--compress", "never"], "xz-level": ["--xz-level", "1"],
        "max-install": ["--max-install", "1MB"], "max-pack": ["--max-pack", "1MB"], "max-total": ["--max-total", "1MB"],
        "max-asset": ["--max-asset", "1MB"], "max-tag": ["--max-tag", "Red=1MB"],
        "max-install-growth": ["--max-install-growth", "1%"], "max-pack-growth": ["--max-pack-growth", "1%"],
        "max-asset-growth": ["--max-asset-growth", "1KB"], "max-update": ["--max-update", "1MB"], "against": ["--against", "previous"],
        "insights": ["--no-insights"],
    ]

    @Test("every option a command takes from the table, given a value other than its default on the command line, changes the stage options the command runs with, as the pipeline key does: none is accepted and ignored",
          arguments: [
              ("convert", OptionTable.Encode.all, ["in.png", "out.png"],
               { @Sendable (arguments: [String]) throws -> String in
                   let command = try ConvertCommand.parse(arguments)
                   return try Self.fingerprint(command.encode.section) + Self.fingerprint(command.decompress)
               }),
              ("convert", [OptionTable.Decompress.pixelFormat], ["in.png", "out.bitmap"],
               { @Sendable in try Self.fingerprint(ConvertCommand.parse($0).decompress) }),
              ("downscale", OptionTable.Downscale.all + OptionTable.Encode.all, ["--scale", "0.5", "in.png", "out.png"],
               { @Sendable (arguments: [String]) throws -> String in
                   let command = try DownscaleCommand.parse(arguments)
                   return try Self.fingerprint(command.section) + Self.fingerprint(command.encode.section)
               }),
              ("timing", OptionTable.Timing.all, ["in.gif"], { @Sendable in try Self.fingerprint(TimingCommand.parse($0).section) }),
              ("bundle create", [OptionTable.Pack.minSaving, OptionTable.Pack.compress, OptionTable.Pack.xzLevel],
               ["out.tsb", "folder"], { @Sendable in try Self.fingerprint(BundleCommand.Create.parse($0).section) }),
              ("report", OptionTable.Report.all, ["build"], { @Sendable in try Self.fingerprint(ReportCommand.parse($0).section) }),
          ] as [(String, [any DeclaredOption], [String], @Sendable ([String]) throws -> String)])
    func everyArgumentIsApplied(command: String, options: [any DeclaredOption], positional: [String],
                                section: @Sendable ([String]) throws -> String) throws {
        for option in options {
            let given = try #require(Self.nonDefaultArguments[option.name], "no test value for --\(option.name)")
            let needsPalette = Self.needsLossyPalette.contains(option.name)
            if option.name == "png-palette" || needsPalette, !PNGPalette.isAvailable { continue }
            let context = needsPalette ? ["--png-palette", "lossy"] : []
            let base = try section(context + positional)
            #expect(try section(context + given + positional) != base,
                    "tessera \(command) \((context + given).joined(separator: " ")) was accepted but changed nothing")
        }
    }

    /// Options that mean something only with `png-palette: lossy`: the encoder's key leaves them
    /// out while the palette is off (`PNGPalette.encode(to:)`), so they are tried beside it.
    static let needsLossyPalette: Set<String> = ["png-palette-quality", "png-palette-speed"]

    /// What a key hashes of `options` (`InputDigest`), as hex: "changed" means what the key sees
    /// changed. (`String(reflecting:)` printed dictionaries in a per-process order and could see a
    /// change where the key saw none, or none where a field is left out of the encoding.)
    static func fingerprint(_ options: some Encodable) throws -> String {
        try InputDigest.of(options).hex
    }

    @Test("a deprecated key is read as the option it became, with a warning at its line naming the new key")
    func deprecatedKeyWarns() throws {
        let base = "version: 1\nname: x\nstages:\n  decode:\n  manifest:\n  encode:\n"
        var warnings: [String] = []
        let old = try PipelineFileReader.parse(base + "    png-compression-level: 9\n", file: "p.yml", warnings: &warnings)
        #expect(old.encode.png.compressionLevel == 9)
        #expect(warnings == ["p.yml:7:28: pipeline: 'stages.encode.png-compression-level': 'png-compression-level' is deprecated; use 'png-level', which means the same"])
        #expect(throws: TesseraError.self) {
            try PipelineFileReader.parse(base + "    png-level: 9\n    png-compression-level: 9\n", file: "p.yml")
        }
    }

    @Test("the command line's old spellings still work, with a warning naming the new option")
    func deprecatedArguments() async throws {
        let workspace = try Workspace()
        let input = "\(Workspace.corpus)/still/pillow/jpeg/flower.jpg"
        let old = try await TesseraProcess.run(["convert", input, "\(workspace.root)/old.jpg", "--quality", "50",
                                          "--png-quality", "60-85"])
        #expect(old.status == 0)
        #expect(old.stderr.contains("'--png-quality' is deprecated; use '--png-palette-quality'"))
        #expect(old.stderr.contains("'--quality' is deprecated; use --jpeg-quality or --webp-quality"))
        let new = try await TesseraProcess.run(["convert", input, "\(workspace.root)/new.jpg", "--jpeg-quality", "50"])
        #expect(new.status == 0 && !new.stderr.contains("deprecated"))
        #expect(FileManager.default.contents(atPath: "\(workspace.root)/old.jpg")
                == FileManager.default.contents(atPath: "\(workspace.root)/new.jpg"))
    }

    @Test("options renamed so one word means one thing still work under their old names, with a warning naming the new one: run --memory-budget, downscale --max-pixels and --max-bytes, serve --catalog")
    func renamedArguments() async throws {
        let workspace = try Workspace()
        let input = "\(Workspace.corpus)/png/pngsuite/basn6a08.png"
        for (old, new) in [("--max-pixels", "--fit-pixels"), ("--max-bytes", "--fit-bytes")] {
            let value = old == "--max-pixels" ? "64" : "256"
            let before = try await TesseraProcess.run(["downscale", input, "\(workspace.root)/old\(old).png", old, value])
            #expect(before.status == 0 && before.stderr.contains("'\(old)' is deprecated; use '\(new)'"), "\(before.stderr)")
            let after = try await TesseraProcess.run(["downscale", input, "\(workspace.root)/new\(old).png", new, value])
            #expect(after.status == 0 && !after.stderr.contains("deprecated"))
            #expect(FileManager.default.contents(atPath: "\(workspace.root)/old\(old).png")
                    == FileManager.default.contents(atPath: "\(workspace.root)/new\(old).png"))
        }
        let run = try await TesseraProcess.run(["run", "\(Workspace.packageRoot)/Pipelines/samples.yml", "--input", "\(workspace.root)/none", "--output",
                                          "\(workspace.root)/out", "--memory-budget", "256MB"])
        #expect(run.stderr.contains("'--memory-budget' is deprecated; use '--memory-limit'"), "\(run.stderr)")
        let both = try await TesseraProcess.run(["serve", "--catalog", "sqlite:x", "--database", "sqlite:y", "--store", "s"])
        #expect(both.status == 64 && both.stderr.contains("--catalog is the deprecated name of --database"))
        #expect(try await TesseraProcess.run(["serve", "--help"]).stdout.contains("--database") == true)
    }

    @Test("the defaults the pipeline used before the table are unchanged")
    func defaultsUnchanged() {
        let definition = PipelineDefinition(name: "x")
        #expect(definition.downscale?.memoryBudget == 64 << 20)
        #expect(PackStageOptions().minimumSaving == 0.05 && PackStageOptions().compressionLevel == 6)
        #expect(PackStageOptions().packLimit == 512_000_000 && TimingStageOptions().maxSlots == 1000)
        #expect(definition.decode.maxPixels == 268_435_456 && definition.encode.jpeg.quality == 90
                && definition.encode.webp.quality == 80)
    }
}
