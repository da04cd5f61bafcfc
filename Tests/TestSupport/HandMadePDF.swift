import CZlib

/// Writes small PDFs for tests: numbered objects, a correct cross-reference table, and streams
/// deflated with zlib, so a few kilobytes can claim gigabytes (the bombs).
public struct HandMadePDF: Sendable {
    public init() {}

    private var objects: [[UInt8]] = []

    /// Adds an object's body and returns its number.
    @discardableResult
    public mutating func add(_ body: String) -> Int { add(Array(body.utf8)) }

    @discardableResult
    public mutating func add(_ body: [UInt8]) -> Int {
        objects.append(body)
        return objects.count
    }

    /// A stream object: `dictionary` entries (without << >>) and data, deflated unless `raw`.
    public static func stream(_ dictionary: String, _ data: [UInt8], raw: Bool = false) -> [UInt8] {
        let payload = raw ? data : deflate(data)
        let filter = raw ? "" : " /Filter /FlateDecode"
        return Array("<< \(dictionary)\(filter) /Length \(payload.count) >>\nstream\n".utf8) + payload
            + Array("\nendstream".utf8)
    }

    /// The file; object 1 must be the catalog.
    public func bytes() -> [UInt8] {
        var out = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            let digits = String(offset)
            out += Array((String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n").utf8)
        }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// The file as a damaged exporter writes it: the objects and a trailer, but no
    /// cross-reference table and no `startxref` (MuPDF: `cannot find startxref`, then a repair).
    public func bytesWithoutCrossReferences() -> [UInt8] {
        var out = Array("%PDF-1.7\n".utf8)
        for (index, body) in objects.enumerated() {
            out += Array("\(index + 1) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        return out + Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\n%%EOF\n".utf8)
    }

    /// The file with its `startxref` pointing into an object instead of at the table (a file
    /// edited after it was written): MuPDF finds no table there and repairs it.
    public func bytesWithMisplacedCrossReferences() -> [UInt8] {
        // Bytes, not text: the deflated streams are not UTF-8.
        let whole = bytes(), mark = Array("startxref\n".utf8)
        guard let start = (0...(whole.count - mark.count)).last(where: { Array(whole[$0 ..< $0 + mark.count]) == mark })
        else { return whole }
        return Array(whole[..<(start + mark.count)]) + Array("17\n%%EOF\n".utf8)
    }

    /// One page of `box` ("0 0 w h") drawing `content`, with `resources` (without << >>).
    public static func page(box: String, content: [UInt8], resources: String = "") -> HandMadePDF {
        var pdf = HandMadePDF()
        pdf.add("<< /Type /Catalog /Pages 2 0 R >>")
        pdf.add("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.add("<< /Type /Page /Parent 2 0 R /MediaBox [\(box)] /Contents 4 0 R /Resources << \(resources) >> >>")
        pdf.add(stream("", content))
        return pdf
    }

    public static func page(box: String, content: String, resources: String = "") -> HandMadePDF {
        page(box: box, content: Array(content.utf8), resources: resources)
    }

    public static func deflate(_ data: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                compress2(output.baseAddress, &length, input.baseAddress, uLong(data.count), 9)
            }
        }
        precondition(status == Z_OK)
        return Array(out.prefix(Int(length)))
    }
}
