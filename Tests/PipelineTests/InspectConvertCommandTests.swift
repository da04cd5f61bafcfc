import Decompression
import Foundation
import Testing
import TesseraCore

@Suite("inspect and convert", .serialized)
struct InspectConvertCommandTests {
    let corpus = Workspace.corpus

    @Test("inspect --json describes each file and reports the bad one, exiting 1")
    func inspectJSON() throws {
        let files = ["still/pillow/jpeg/hopper_orientation_6.jpg", "png/pngsuite/basi6a08.png",
                     "animated/pillow/chi.gif", "still/image-webp/regression/tiny.webp",
                     "still/pillow/broken/truncated_jpeg.jpg"].map { "\(corpus)/\($0)" }
        let result = try TesseraProcess.run(["inspect", "--json", "--decode"] + files)
        #expect(result.status == 1)
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 5)
        #expect(reports[0]["orientation"] as? Int == 6 && reports[0]["layout"] as? String == "sequential")
        #expect(reports[1]["layout"] as? String == "interlaced" && reports[1]["alpha"] as? Bool == true)
        #expect(reports[2]["frames"] as? Int == 31 && reports[2]["loopCount"] as? Int == 0)
        #expect(reports[2]["decodedBytes"] as? Int == 320 * 240 * 4 * 2)
        #expect(reports[3]["icc"] as? String == "sRGB-elle-V2-srgbtrc.icc")
        #expect((reports[4]["error"] as? String)?.hasSuffix("JPEG: premature end of JPEG data (the file is truncated)") == true)
    }

    @Test("convert writes an upright .bitmap, PNG or lossless WebP; an unknown extension is a usage error")
    func convert() throws {
        let workspace = try Workspace()
        let input = "\(corpus)/still/pillow/jpeg/orientation_rectangle.jpg"
        let bitmapPath = "\(workspace.root)/r.bitmap"
        #expect(try TesseraProcess.run(["convert", input, bitmapPath, "--pixel-format", "rgba8"]).status == 0)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: bitmapPath)))
        let (header, _) = try ReadyBitmapReader.read(bytes, path: bitmapPath)
        #expect((header.width, header.height, header.layout, header.appliedOrientation) == (1, 2, .rgba8, .left))

        let webp = "\(workspace.root)/r.webp"
        #expect(try TesseraProcess.run(["convert", "\(corpus)/png/pngsuite/basn6a08.png", webp, "--lossless"]).status == 0)
        let back = try TesseraProcess.run(["inspect", "--json", webp])
        #expect(back.stdout.contains("\"colorModel\" : \"lossless+alpha\""))

        let bad = try TesseraProcess.run(["convert", input, "\(workspace.root)/r.tiff"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'.tiff' is not an output format"))
        #expect(!FileManager.default.fileExists(atPath: "\(workspace.root)/r.tiff"))
    }
}
