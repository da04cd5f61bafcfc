import Decoding
import Encoding
import Foundation
import Rasterizing
import ReadyBitmaps
import TestServers
import TestSupport
import Testing
import TesseraCore

@Suite("inspect and convert", .serialized)
struct InspectConvertCommandTests {
    let corpus = Workspace.corpus

    @Test("inspect --json describes each file and reports the bad one, exiting 1")
    func inspectJSON() async throws {
        let files = ["still/pillow/jpeg/hopper_orientation_6.jpg", "png/pngsuite/basi6a08.png",
                     "animated/pillow/chi.gif", "still/image-webp/regression/tiny.webp",
                     "still/pillow/broken/truncated_jpeg.jpg"].map { "\(corpus)/\($0)" }
        let result = try await TesseraProcess.run(["inspect", "--json", "--decode"] + files)
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let reports = try #require(object["files"] as? [[String: Any]])
        #expect(reports.count == 5)
        #expect(reports[0]["orientation"] as? Int == 6 && reports[0]["layout"] as? String == "sequential")
        #expect(reports[1]["layout"] as? String == "interlaced" && reports[1]["alpha"] as? Bool == true)
        #expect(reports[2]["frames"] as? Int == 31 && reports[2]["loopCount"] as? Int == 0)
        #expect(reports[2]["decodedBytes"] as? Int == 320 * 240 * 4 * 2)
        #expect(reports[3]["icc"] as? String == "sRGB-elle-V2-srgbtrc.icc")
        #expect((reports[4]["error"] as? String)?.hasSuffix("JPEG: premature end of JPEG data (the file is truncated)") == true)
    }

    @Test("inspect describes a PDF and an SVG by their page: size in points, pixel sizes at 1x-3x (a PDF without its renderer: a warning, exit 0)")
    func inspectVectors() async throws {
        let vectors = "\(Workspace.packageRoot)/Tests/Fixtures/vectors"
        let result = try await TesseraProcess.run(["inspect", "--json", "--decode", "\(vectors)/brand_logo.svg", "\(vectors)/gear.pdf"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let reports = try #require(object["files"] as? [[String: Any]])
        #expect(reports[0]["format"] as? String == "SVG" && reports[0]["pageSize"] as? String == "18×20 pt")
        #expect(reports[0]["draws"] as? [String: String] == ["1x": "18×20", "2x": "36×40", "3x": "54×60"])
        #expect(reports[1]["format"] as? String == "PDF")
        if VectorDocument.rendersPDF {
            #expect(reports[1]["pageSize"] as? String == "28×28 pt" && reports[1]["pages"] as? Int == 1)
        } else {
            #expect((reports[1]["warnings"] as? [String])?.first?.contains("without a PDF renderer") == true)
        }
        let text = try await TesseraProcess.run(["inspect", "\(vectors)/brand_logo.svg"])
        #expect(text.stdout.hasPrefix("\(vectors)/brand_logo.svg: SVG page 18×20 pt, draws 18×20 at 1x, 36×40 at 2x, 54×60 at 3x"))
    }

    @Test("convert writes an upright .bitmap, PNG or lossless WebP; an unknown extension is a usage error")
    func convert() async throws {
        let workspace = try Workspace()
        let input = "\(corpus)/still/pillow/jpeg/orientation_rectangle.jpg"
        let bitmapPath = "\(workspace.root)/r.bitmap"
        #expect(try await TesseraProcess.run(["convert", input, bitmapPath, "--pixel-format", "rgba8"]).status == 0)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: bitmapPath)))
        let (header, _) = try ReadyBitmapReader.read(bytes, path: bitmapPath)
        #expect((header.width, header.height, header.layout, header.appliedOrientation) == (1, 2, .rgba8, .left))

        let webp = "\(workspace.root)/r.webp"
        #expect(try await TesseraProcess.run(["convert", "\(corpus)/png/pngsuite/basn6a08.png", webp, "--lossless"]).status == 0)
        let back = try await TesseraProcess.run(["inspect", "--json", webp])
        #expect(back.stdout.contains("\"colorModel\" : \"lossless+alpha\""))

        let bad = try await TesseraProcess.run(["convert", input, "\(workspace.root)/r.tiff"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'.tiff' is not an output format"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/r.tiff"))
    }

    @Test("convert refuses an animated input unless --first-frame (it used to keep one frame without a word), and draws an SVG at --scale")
    func convertAnimationsAndVectors() async throws {
        let workspace = try Workspace()
        let gif = "\(corpus)/animated/pillow/duplicate_number_of_loops.gif"
        let still = "\(workspace.root)/first.png"
        let refused = try await TesseraProcess.run(["convert", gif, still])
        #expect(refused.status != 0 && refused.stderr.contains("animated (") && refused.stderr.contains("--first-frame"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: still))
        #expect(try await TesseraProcess.run(["convert", gif, still, "--first-frame"]).status == 0)
        let svg = "\(Workspace.packageRoot)/Tests/Fixtures/vectors/brand_logo.svg"
        let drawn = try await TesseraProcess.run(["convert", svg, "\(workspace.root)/logo.png", "--scale", "3"])
        #expect(drawn.status == 0 && drawn.stdout.contains("54×60"), "\(drawn.stdout) \(drawn.stderr)")
        let back = try await TesseraProcess.run(["inspect", "--json", "\(workspace.root)/logo.png"])
        #expect(back.stdout.contains("\"width\" : 54"), "\(back.stdout)")
    }

    @Test("convert --png-effort and --png-level: same pixels, max no larger than fast, level 0 stores; a level past 12 is a usage error")
    func convertPNGEffort() async throws {
        let workspace = try Workspace()
        let input = "\(corpus)/still/pillow/jpeg/flower.jpg"
        var sizes: [Int] = []
        var pixels: [[UInt8]] = []
        for (name, flags) in [("fast", ["--png-effort", "fast"]), ("max", ["--png-effort", "max"]),
                              ("stored", ["--png-effort", "max", "--png-level", "0"])] {
            let output = "\(workspace.root)/\(name).png"
            #expect(try await TesseraProcess.run(["convert", input, output] + flags).status == 0)
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: output)))
            sizes.append(bytes.count)
            pixels.append(try ImageDecoders.decode(SourceBytes(bytes: bytes, path: output)).bitmap.pixels)
        }
        #expect(pixels[0] == pixels[1] && pixels[1] == pixels[2])
        #expect(sizes[1] <= sizes[0] && sizes[2] > sizes[0], "\(sizes)")
        let bad = try await TesseraProcess.run(["convert", input, "\(workspace.root)/bad.png", "--png-level", "13"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--png-level <0-12>': 13 is out of range 0…12"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/bad.png"))
    }

    @Test("convert --png-palette lossy --png-palette-quality writes a smaller indexed PNG (built without libimagequant: a usage error); a bad range is a usage error")
    func convertPNGPalette() async throws {
        let workspace = try Workspace()
        let input = "\(corpus)/still/pillow/jpeg/flower.jpg"
        let truecolour = "\(workspace.root)/t.png", indexed = "\(workspace.root)/i.png"
        #expect(try await TesseraProcess.run(["convert", input, truecolour]).status == 0)
        let result = try await TesseraProcess.run(["convert", input, indexed, "--png-palette", "lossy", "--png-palette-quality", "60-85"])
        if PNGPalette.isAvailable {
            #expect(result.status == 0)
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: indexed)))
            #expect(bytes[25] == 3)
            let size = try FileManager.default.attributesOfItem(atPath: truecolour)[.size] as? Int ?? 0
            #expect(bytes.count < size)
        } else {
            #expect(result.status == 64)
            #expect(result.stderr.contains("'lossy': this Tessera was built without libimagequant"))
            #expect(!FileManager.default.fileExists(atPath: indexed))
        }
        let bad = try await TesseraProcess.run(["convert", input, "\(workspace.root)/bad.png", "--png-palette", "off", "--png-palette-quality", "90-65"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("'90-65' is not a quality range: use MIN-MAX"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/bad.png"))
    }
}

@Suite("bundle and query commands", .serialized)
struct BundleCommandTests {
    @Test("bundle create, ls, verify and extract; a damaged bundle fails verify; extract never leaves a partial folder")
    func bundleCommands() async throws {
        let workspace = try Workspace()
        try workspace.add("png/pngsuite/basn6a08.png", as: "pics/a.png")
        try workspace.add("still/pillow/jpeg/hopper.jpg", as: "pics/b.jpg")
        try workspace.write(Array(String(repeating: "text ", count: 500).utf8), as: "pics/notes.txt")
        let bundle = "\(workspace.root)/p.tsb"
        #expect(try await TesseraProcess.run(["bundle", "create", bundle, "\(workspace.input)/pics"]).status == 0)
        let list = try await TesseraProcess.run(["bundle", "ls", bundle])
        #expect(list.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["a.png", "b.jpg", "notes.txt"])
        #expect(try await TesseraProcess.run(["bundle", "verify", bundle]).stdout.contains("4 records, 0 problems"))
        let intact = "\(workspace.root)/intact.tsb"
        try FileManager.default.copyItem(atPath: bundle, toPath: intact)
        let out = "\(workspace.root)/extracted"
        #expect(try await TesseraProcess.run(["bundle", "extract", bundle, out]).status == 0)
        #expect(FileManager.default.contents(atPath: "\(out)/b.jpg")
                == FileManager.default.contents(atPath: "\(workspace.input)/pics/b.jpg"))
        // Damage one byte of the JPEG's payload.
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: bundle)))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: bundle))
        let verify = try await TesseraProcess.run(["bundle", "verify", bundle])
        #expect(verify.status == 1 && verify.stderr.contains("damaged:"))
        // Several files at once: each line says which file it is about; one damaged fails the run.
        let both = try await TesseraProcess.run(["bundle", "verify", intact, bundle])
        #expect(both.status == 1 && both.stdout.contains("\(intact): 4 records, 0 problems") && both.stdout.contains("2 bundles, 1 damaged"))
        #expect(both.stderr.contains("\(bundle): damaged:"), "\(both.stderr)")
        #expect(try await TesseraProcess.run(["bundle", "verify", intact, intact]).status == 0)
        let failed = try await TesseraProcess.run(["bundle", "extract", bundle, "\(workspace.root)/again"])
        #expect(failed.status != 0)
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/again"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.root)
        #expect(!leftovers.contains { $0.hasPrefix(AtomicFile.temporaryPrefix) })
    }

    @Test("convert and downscale take IN... FOLDER: each input its own file, one bad input reported while the rest are written, clashing names refused before any write")
    func manyFilesIntoAFolder() async throws {
        let workspace = try Workspace()
        let broken = "\(workspace.root)/broken.png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: URL(fileURLWithPath: broken))
        let inputs = ["\(Workspace.corpus)/png/pngsuite/basn6a08.png", broken, "\(Workspace.corpus)/png/pngsuite/basn2c08.png"]
        let converted = try await TesseraProcess.run(["convert"] + inputs + ["\(workspace.root)/webp", "--format", "webp", "--lossless"])
        #expect(converted.status == 1 && converted.stderr.contains("error: \(broken)"), "\(converted.stderr)")
        for name in ["basn6a08", "basn2c08"] {
            let back = try await TesseraProcess.run(["inspect", "--json", "\(workspace.root)/webp/\(name).webp"])
            #expect(back.status == 0 && back.stdout.contains("\"format\" : \"WebP\""), "\(name): \(back.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/webp/broken.webp"))

        // Without --format each keeps its own format; downscale fits each in the box.
        let shrunk = try await TesseraProcess.run(["downscale", inputs[0], inputs[2], "\(workspace.root)/small/", "--fit", "8x8"])
        #expect(shrunk.status == 0, "\(shrunk.stderr)")
        for name in ["basn6a08", "basn2c08"] {
            #expect(try await TesseraProcess.run(["inspect", "\(workspace.root)/small/\(name).png"]).stdout.contains("8×8"))
        }

        // Two inputs named alike would write one file: refused before anything is written.
        try FileManager.default.createDirectory(atPath: "\(workspace.root)/other", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: inputs[0], toPath: "\(workspace.root)/other/basn6a08.png")
        let clash = try await TesseraProcess.run(["convert", inputs[0], "\(workspace.root)/other/basn6a08.png", "\(workspace.root)/clash"])
        #expect(clash.status == 64 && clash.stderr.contains("would both write \(workspace.root)/clash/basn6a08.png"), "\(clash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/clash"))
        #expect(try await TesseraProcess.run(["convert", inputs[0], "\(workspace.root)/x", "--format", "tiff"]).status == 64)
    }

    @Test("every --json result is one object whose version is 1, lists under a key; -o writes those bytes to the file and nothing to stdout")
    func oneJSONShape() async throws {
        let workspace = try Workspace()
        let output = "\(workspace.root)/out"
        #expect(try await TesseraProcess.run(["run", "\(Workspace.packageRoot)/Pipelines/samples.yml", "--input",
                                        "\(Workspace.corpus)/xcassets/tutsplus-odr", "--output", output, "--progress", "quiet"]).status == 0)
        let bundle = try #require(FileManager.default.subpaths(atPath: "\(output)/bundles")?.first { $0.hasSuffix(".tsb") })
        let gif = "\(Workspace.corpus)/animated/pillow/chi.gif"
        let commands: [(arguments: [String], listKey: String?)] = [
            (["inspect", gif], "files"),
            (["timing", gif], "files"),
            (["slice", "\(Workspace.corpus)/xcassets/tutsplus-odr", "--device", "iPhone 14 Pro"], nil),
            (["query", output, "--device", "iPhone15,2", "--tags", "Green"], nil),
            (["bundle", "ls", "\(output)/bundles/\(bundle)"], "entries"),
            (["bundle", "verify", "\(output)/bundles/\(bundle)"], "files"),
            (["cache", "stats", "--cache", "\(workspace.root)/cache"], nil),
            (["version"], nil),
        ]
        for (arguments, listKey) in commands {
            let printed = try await TesseraProcess.run(arguments + ["--json"])
            #expect(printed.status == 0, "\(arguments): \(printed.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any], "\(arguments)")
            #expect(object["version"] as? Int == 1, "\(arguments)")
            if let listKey { #expect(object[listKey] is [Any], "\(arguments) has no list '\(listKey)'") }
            let file = "\(workspace.root)/result-\(arguments[0]).json"
            let written = try await TesseraProcess.run(arguments + ["--json", "-o", file])
            #expect(written.status == 0 && written.stdout.isEmpty, "\(arguments): \(written.stdout)")
            #expect(FileManager.default.contents(atPath: file) == Data(printed.stdout.utf8), "\(arguments)")
            // Text goes to -o just the same.
            let text = try await TesseraProcess.run(arguments)
            #expect(try await TesseraProcess.run(arguments + ["-o", file]).stdout.isEmpty)
            #expect(FileManager.default.contents(atPath: file) == Data(text.stdout.utf8), "\(arguments)")
        }
    }

    @Test("query prints the download plan; an unknown tag exits 2 naming the closest tags")
    func query() async throws {
        let workspace = try Workspace()
        let pipeline = "\(Workspace.packageRoot)/Pipelines/samples.yml"
        let output = "\(workspace.root)/out"
        #expect(try await TesseraProcess.run(["run", pipeline, "--input", "\(Workspace.corpus)/xcassets/tutsplus-odr",
                                        "--output", output, "--progress", "plain"]).status == 0)
        let answer = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device", "iPhone15,2", "--tags", "Green",
                                             "--json"])
        #expect(answer.status == 0)
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any])
        let bundles = try #require(plan["bundles"] as? [[String: Any]])
        // Untagged sets stay in the app: no base pack to download first.
        #expect(!bundles.isEmpty && !bundles.contains { $0["pack"] as? String == "base" })
        #expect(bundles.allSatisfy { bundle in
            let url = bundle["url"] as? String ?? "", pack = bundle["pack"] as? String ?? "?"
            return url.hasPrefix("https://cdn.example.com/app/bundles/\(pack)/") && url.hasSuffix(".tsb")
        })
        // A device without a built class is answered for the nearest one, with a note saying so.
        let nearest = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device", "iPhone16,2", "--tags", "Green"])
        #expect(nearest.status == 0)
        #expect(nearest.stderr.contains("note: iPhone16,2") && nearest.stderr.contains("using the nearest built class iPhone15,2"))
        // The build folder does as well as its manifest, as `tessera report` takes it.
        let byFolder = try await TesseraProcess.run(["query", output, "--device", "iPhone15,2", "--tags", "Green", "--json"])
        #expect(byFolder.status == 0 && byFolder.stdout == answer.stdout, "\(byFolder.stderr)")
        // Devices as people name them: Apple's name in any case and spacing, the identifier in any case.
        for spoken in ["iPhone 14 Pro", "iphone  14 PRO", "iphone15,2"] {
            let named = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device", spoken, "--tags", "Green", "--json"])
            #expect(named.status == 0 && named.stdout == answer.stdout, "\(spoken): \(named.stderr)")
        }
        // slice takes the same names, and a model Tessera has no entry for by the same nearest-class rule.
        let sliced = try await TesseraProcess.run(["slice", "\(Workspace.corpus)/xcassets/tutsplus-odr", "--device", "iPhone 15 Pro"])
        #expect(sliced.status == 0 && sliced.stdout.hasPrefix("iPhone 15 Pro (iPhone16,1)"), "\(sliced.stdout) \(sliced.stderr)")
        let unlisted = try await TesseraProcess.run(["slice", "\(Workspace.corpus)/xcassets/tutsplus-odr", "--device", "iPhone99,2"])
        #expect(unlisted.status == 0 && unlisted.stderr.contains("note: iPhone99,2 is not a known device"), "\(unlisted.stderr)")
        // The help says comma- or space-separated: one quoted argument with a space is two tags.
        var plans: [String] = []
        for tags in [["Green,Red"], ["Green", "Red"], ["Green Red"], [" Green , Red "]] {
            let result = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device", "iPhone15,2",
                                                 "--json", "--tags"] + tags)
            #expect(result.status == 0, "\(tags): \(result.stderr)")
            plans.append(result.stdout)
        }
        #expect(Set(plans).count == 1 && plans[0].contains("\"Red\""))
        let bad = try await TesseraProcess.run(["query", "\(output)/manifest.json", "--device", "iPhone15,2", "--tags", "Gren"])
        #expect(bad.status == 2 && bad.stderr.contains("unknown tag 'Gren'; known: Green"))
    }
}
