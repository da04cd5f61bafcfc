import Foundation
@testable import Rasterizing
import Testing
import TesseraCore

/// Generated hostile SVGs: each is refused with a `.decode` error naming why, never a crash, a
/// hang, a read outside the document or a network request.
@Suite("Hostile SVG input")
struct HostileSVGTests {
    private func openSVG(_ text: String, limits: VectorLimits = VectorLimits()) throws(TesseraError) -> VectorDocument {
        try VectorDocument(bytes: Array(text.utf8), format: .svg, limits: limits, path: "hostile.svg")
    }

    private func refusal(_ text: String, scale: RenderScale = .x3) -> TesseraError? {
        #expect(throws: TesseraError.self) { try openSVG(text).render(scale: scale) }
    }

    private let svgOpen = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">"#

    @Test("a huge page is refused by the pixel limit before any pixel memory is allocated")
    func hugePage() {
        let error = refusal(#"<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="100000000"/>"#)
        #expect(error?.kind == .limitExceeded && error?.origin == .rasterize)
        #expect(error?.reason.contains("over the limit of 268435456 pixels") == true)
        let infinite = refusal(#"<svg xmlns="http://www.w3.org/2000/svg" width="1e308" height="1e308"/>"#)
        #expect(infinite?.kind == .limitExceeded || infinite?.kind == .invalidInput)
    }

    @Test("a page with no size (no width, height or viewBox) is refused")
    func noSize() {
        let error = refusal(#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>"#)
        #expect(error?.kind == .invalidInput && error?.reason.contains("viewBox") == true)
    }

    @Test("billion laughs: nested entity expansion is an XML error, not gigabytes of text")
    func billionLaughs() {
        var entities = #"<!ENTITY a "aaaaaaaaaa">"#
        var previous = "a"
        for name in "bcdefghij" {
            entities += "<!ENTITY \(name) \"\(String(repeating: "&\(previous);", count: 10))\">"
            previous = String(name)
        }
        let error = refusal(#"<?xml version="1.0"?><!DOCTYPE svg [\#(entities)]>"# + svgOpen + "<text>&j;</text></svg>")
        #expect(error?.origin == .rasterize && error?.reason.contains("entity") == true)
    }

    @Test("an external entity (XXE) is never loaded")
    func externalEntity() {
        let error = refusal(#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>"# + svgOpen + "<text>&x;</text></svg>")
        #expect(error?.kind == .invalidInput && error?.origin == .rasterize)
    }

    @Test("100,000 nested groups are refused by the XML depth limit")
    func deepNesting() {
        let depth = 100_000
        let error = refusal(svgOpen + String(repeating: "<g>", count: depth) + #"<rect width="1" height="1"/>"#
                            + String(repeating: "</g>", count: depth) + "</svg>")
        #expect(error?.origin == .rasterize && error?.reason.contains("depth") == true)
    }

    @Test("exponential <use> (10 uses of 10 uses … eleven deep) stops at librsvg's referenced-element limit")
    func exponentialUse() {
        var defs = #"<defs><path id="l0" d="M0 0h1v1z"/>"#
        for level in 1 ... 11 {
            defs += "<g id=\"l\(level)\">" + String(repeating: "<use xlink:href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        let error = refusal(svgOpen + defs + ##"</defs><use xlink:href="#l11"/></svg>"##, scale: .x1)
        #expect(error?.kind == .limitExceeded && error?.reason.contains("referenced elements") == true)
    }

    @Test("references to files and the network are refused by name",
          arguments: ["file:///etc/passwd", "../../x.png", "x.png", "http://127.0.0.1:9/x.png", "HTTPS://example.com/a.svg#b"])
    func externalReferencesRefused(reference: String) {
        let error = refusal(svgOpen + "<image width=\"10\" height=\"10\" href=\"\(reference)\"/></svg>")
        #expect(error?.kind == .invalidInput && error?.reason.contains(reference) == true)
        let css = refusal(svgOpen + "<style>rect { fill: url(\(reference)) }</style><rect width=\"5\" height=\"5\"/></svg>")
        #expect(css?.kind == .invalidInput)
    }

    @Test("data: URLs and #fragments are drawn: the reference scan refuses only what is outside")
    func inlineReferencesAllowed() throws {
        let bitmap = try openSVG(svgOpen + ##"<defs><rect id="r" width="10" height="10" fill="#00f"/></defs><use xlink:href="#r"/></svg>"##)
            .render(scale: .x1)
        #expect(Array(bitmap.pixels[0 ..< 4]) == [0, 0, 255, 255])
    }

    /// A loopback listener that records whether anyone connected.
    private struct Listener {
        let socket: Int32
        let port: UInt16

        init() throws {
            let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(listening, pointer, length) == 0 && listen(listening, 8) == 0
                        && getsockname(listening, pointer, &length) == 0
                }
            }
            guard listening >= 0, bound else { throw TesseraError(.io, reason: "cannot listen on loopback") }
            _ = fcntl(listening, F_SETFL, fcntl(listening, F_GETFL) | O_NONBLOCK)
            socket = listening
            port = UInt16(bigEndian: address.sin_port)
        }

        /// Whether a connection is waiting (accept would succeed).
        func wasContacted() -> Bool {
            let client = accept(socket, nil, nil)
            if client >= 0 { close(client) }
            return client >= 0
        }
    }

    @Test("librsvg itself, past the scan, neither reads a file nor connects: the referenced image is simply not drawn")
    func librsvgLoadsNothingWithoutABaseFile() throws {
        let listener = try Listener()
        defer { close(listener.socket) }
        // An opaque PNG that exists on disk, by absolute path, by a relative path, and by URL.
        let red = "\(VectorFixtures.folder)/reference/gear@3x.png"
        for href in ["file://\(red)", red, "../Fixtures/vectors/reference/gear@3x.png",
                     "http://127.0.0.1:\(listener.port)/x.png"] {
            let svg = svgOpen + "<image width=\"10\" height=\"10\" href=\"\(href)\"/></svg>"
            let bitmap = try SVGProcessRenderer.render(Array(svg.utf8), width: 10, height: 10, limits: VectorLimits(), path: "x.svg")
            #expect(bitmap.pixels.allSatisfy { $0 == 0 }, "\(href) was drawn")
        }
        usleep(100_000)
        #expect(!listener.wasContacted())
    }

    @Test("truncated and non-XML files are invalid input",
          arguments: [#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect wid"#, "\u{0}\u{1}garbage", "   "])
    func damaged(text: String) {
        let error = #expect(throws: TesseraError.self) { try openSVG(text) }
        #expect(error?.kind == .invalidInput && error?.origin == .rasterize && error?.file == "hostile.svg")
    }

    @Test("a truncated real SVG is refused rather than drawn in part")
    func truncatedReal() throws {
        let bytes = try VectorFixtures.bytes("brand_logo.svg")
        let error = #expect(throws: TesseraError.self) {
            try VectorDocument(bytes: Array(bytes.prefix(bytes.count / 2)), format: .svg, path: "half.svg")
        }
        #expect(error?.kind == .invalidInput)
    }

    @Test("files over the input limit are refused unread")
    func inputLimit() {
        let error = #expect(throws: TesseraError.self) {
            try openSVG(svgOpen + String(repeating: " ", count: 2000) + "</svg>", limits: VectorLimits(maxInputBytes: 1000))
        }
        #expect(error?.kind == .limitExceeded && error?.reason.contains("over the limit of 1000") == true)
    }
}
