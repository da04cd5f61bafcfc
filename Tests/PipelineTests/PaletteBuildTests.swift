import Decoding
import Encoding
import Foundation
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// `png-palette: lossy` through a whole build: only in a build with the `LossyPalette` trait.
@Suite("Building with lossy PNG palettes")
struct PaletteBuildTests {
    #if LossyPalette
    private static func pipeline(palette: String) -> String {
        """
        version: 1
        name: palette
        stages:
          decode:
          downscale:
          encode:
            png-palette: \(palette)
            png-palette-quality: 65-90
          manifest:
        """
    }

    private func build(_ workspace: Workspace, palette: String, output: String) async throws -> BuildReport {
        let definition = try PipelineFileReader.parse(Self.pipeline(palette: palette), file: "palette.yml")
        return try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                         outputFolder: output)).report
    }

    private func colorType(_ path: String) throws -> UInt8 {
        try Array(Data(contentsOf: URL(fileURLWithPath: path)))[25]
    }

    @Test("PNG variants become indexed and smaller; one whose floor is out of reach stays truecolour with a warning naming it")
    func lossyBuild() async throws {
        let workspace = try Workspace()
        try workspace.add("still/sdwebimage/TestImage.png", as: "photo@3x.png")
        // libimagequant reaches only about 60 on this lossless gallery photo with alpha: below 65.
        try workspace.add("still/image-webp/reference/gallery2/3_webp_ll.png", as: "hard@3x.png")
        let lossy = try await build(workspace, palette: "lossy", output: "\(workspace.root)/lossy")
        let off = try await build(workspace, palette: "off", output: "\(workspace.root)/off")
        #expect(lossy.failures.isEmpty && off.failures.isEmpty)
        for name in ["photo.png", "photo@2x.png"] {
            #expect(try colorType("\(workspace.root)/lossy/variants/\(name)") == 3, "\(name)")
            #expect(try colorType("\(workspace.root)/off/variants/\(name)") != 3, "\(name)")
            let small = try FileManager.default.attributesOfItem(atPath: "\(workspace.root)/lossy/variants/\(name)")[.size] as? Int
            let large = try FileManager.default.attributesOfItem(atPath: "\(workspace.root)/off/variants/\(name)")[.size] as? Int
            #expect((small ?? .max) < (large ?? 0), "\(name)")
        }
        let hard = try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/lossy/variants/hard@2x.png"))
        #expect(hard == (try Data(contentsOf: URL(fileURLWithPath: "\(workspace.root)/off/variants/hard@2x.png"))))
        #expect(lossy.warnings.contains { $0.file.contains("hard") && $0.reason.contains("written truecolour") },
                "\(lossy.warnings.map(\.reason))")
        #expect(!off.warnings.contains { $0.reason.contains("palette") })
    }
    #endif
}
