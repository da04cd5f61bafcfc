import CodecFixtures
import Decoding
import Foundation
import Testing
import TesseraCore

/// `ImageSource` is the one probe every caller uses: reading PNG, JPEG and WebP headers from the
/// file must tell exactly what probing the loaded bytes told, or plans, reports and inspect
/// output would change with the probe.
@Suite("image source probe")
struct ImageSourceTests {
    static let images: [String] = {
        let root = Fixtures.corpus
        let walker = FileManager.default.enumerator(atPath: root)
        var found: [String] = []
        while let relative = walker?.nextObject() as? String {
            if ["png", "jpg", "jpeg", "webp", "gif"].contains(URL(fileURLWithPath: relative).pathExtension.lowercased()) {
                found.append(relative)
            }
        }
        return found.sorted()
    }()

    @Test("every corpus image probes from the file as it does from its bytes, with the same size and hash")
    func fileProbeMatchesBytes() throws {
        #expect(Self.images.count > 300)
        for relative in Self.images {
            let path = Fixtures.path(relative)
            let bytes = try SourceBytes(contentsOfFile: path)
            let loaded = Result { () throws(TesseraError) in try ImageDecoders.decoder(for: bytes).probe(bytes) }
            let source = try ImageSource(fileAt: path)
            #expect(source.fileSize == bytes.count, "\(relative)")
            #expect(try source.contentHash() == bytes.contentHash, "\(relative)")
            switch (source.header, loaded) {
            case (.success(let header), .success(let info)):
                #expect(header.info == info, "\(relative)")
            case (.failure, .failure):
                break
            default:
                Issue.record("\(relative): the file probe and the bytes probe disagree on whether the header reads")
            }
        }
    }

    @Test("PNG, JPEG and WebP stay on disk; GIF is read whole; only row-streamable layouts offer a row streamer")
    func readingFollowsTheFormat() throws {
        let jpeg = try ImageSource(fileAt: Fixtures.path("still/pillow/jpeg/flower.jpg"))
        guard case .fromFile = jpeg.reading else { Issue.record("a JPEG is read whole"); return }
        #expect(jpeg.rowStreamer != nil)
        let adam7 = try ImageSource(fileAt: Fixtures.path("png/pngsuite/basi6a08.png"))
        #expect(adam7.rowStreamer == nil)
        let gif = try ImageSource(fileAt: Fixtures.path("animated/pillow/chi.gif"))
        guard case .whole = gif.reading else { Issue.record("a GIF is streamed"); return }
        #expect(gif.format == .gif && gif.rowStreamer == nil)
    }

    @Test("checking every pixel finds a truncated file and counts an animation's frames")
    func checkPixels() throws {
        #expect(throws: TesseraError.self) {
            _ = try ImageSource(fileAt: Fixtures.path("still/pillow/broken/truncated_jpeg.jpg")).checkPixels()
        }
        let check = try ImageSource(fileAt: Fixtures.path("animated/pillow/chi.gif")).checkPixels()
        #expect(check.info.frameCount == 31)
    }
}
