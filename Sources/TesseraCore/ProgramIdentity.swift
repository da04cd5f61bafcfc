#if canImport(Glibc)
import Glibc
#endif

/// Which build of Tessera is running: the linker's build ID of the executable (`.note.gnu.build-id`,
/// a hash of the linked program).
///
/// What depends on Tessera's own code beyond the stages' versions (a recorded plan) is keyed on
/// it: two builds of different sources have different IDs, and copies of one build (one release
/// binary on many CI runners) have the same.
public enum ProgramIdentity {
    /// The build ID as hex; nil when the program has none (then nothing may be keyed on it).
    public static let buildID: String? = readBuildID()

    /// From the executable's file: its program headers, then its note segments (a few hundred
    /// bytes read, whatever the size of the program).
    private static func readBuildID() -> String? {
        #if canImport(Glibc)
        let descriptor = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            guard count > 0, count <= 1 << 20 else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        // ELF64, little-endian: the only executables Tessera is built as on Linux.
        guard let header = read(64, at: 0), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else {
            return nil
        }
        let tableOffset = Int(header.readLittleEndian(UInt64.self, at: 32))
        let entrySize = Int(header.readLittleEndian(UInt16.self, at: 54)), entries = Int(header.readLittleEndian(UInt16.self, at: 56))
        guard entrySize >= 56, let table = read(entrySize * entries, at: tableOffset) else { return nil }
        for index in 0..<entries {
            let entry = index * entrySize
            // PT_NOTE: its file offset and size.
            guard table.readLittleEndian(UInt32.self, at: entry) == 4,
                  let notes = read(Int(table.readLittleEndian(UInt64.self, at: entry + 32)), at: Int(table.readLittleEndian(UInt64.self, at: entry + 8))),
                  let id = ELFNotes.gnuBuildID(in: notes), !id.isEmpty else { continue }
            return id.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
        return nil
        #else
        return nil
        #endif
    }
}

/// Walks ELF notes (`namesz`, `descsz`, `type`, name and description each padded to 4 bytes).
enum ELFNotes {
    static func gnuBuildID(in notes: [UInt8]) -> [UInt8]? {
        var offset = 0
        func padded(_ size: Int) -> Int { (size + 3) & ~3 }
        while offset + 12 <= notes.count {
            let nameSize = Int(notes.readLittleEndian(UInt32.self, at: offset))
            let descriptionSize = Int(notes.readLittleEndian(UInt32.self, at: offset + 4))
            let type = notes.readLittleEndian(UInt32.self, at: offset + 8)
            let name = offset + 12
            let description = name + padded(nameSize)
            guard description + descriptionSize <= notes.count else { return nil }
            // NT_GNU_BUILD_ID (3), owner "GNU\0".
            if type == 3, nameSize == 4, Array(notes[name..<(name + 3)]) == Array("GNU".utf8) {
                return Array(notes[description..<(description + descriptionSize)])
            }
            offset = description + padded(descriptionSize)
        }
        return nil
    }
}
