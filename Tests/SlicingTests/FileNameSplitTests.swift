import Foundation
@testable import Slicing
import Testing
import TesseraCore

@Suite("Folder reader: file names")
struct FileNameSplitTests {
    @Test("a file name splits at its last dot exactly as URL splits it, for every extension the reader knows")
    func nameSplit() {
        let names = ["a.png", "a.PNG", "a..png", "a.b.png", "a .png", "a@2x~ipad.png", "~.png", "a%20b.jpg", "é.webp",
                     "a\\b.gif", "a:b.pdf", "a.tar.svg", "a.heic", "a.tiff", "b.Xml", "x.jpeg", "a", "a.", "a.png.", "a.png ",
                     "a. png", "a.png.bak", "name.with.dots@3x~tv.png", " .png", "a\n.png"]
        for name in names {
            let url = URL(fileURLWithPath: name)
            let split = FolderCatalogReader.split(name)
            let known = ImageFormat(fileExtension: split.extension) != nil
                || FolderCatalogReader.unhandledImageExtensions.contains(split.extension.lowercased())
                || split.extension.lowercased() == "xml"
            let urlKnown = ImageFormat(fileExtension: url.pathExtension) != nil
                || FolderCatalogReader.unhandledImageExtensions.contains(url.pathExtension.lowercased())
                || url.pathExtension.lowercased() == "xml"
            #expect(known == urlKnown, "\(name.debugDescription)")
            if known {
                #expect(split.extension == url.pathExtension, "\(name.debugDescription)")
                #expect(split.stem == url.deletingPathExtension().lastPathComponent, "\(name.debugDescription)")
            }
        }
    }
}
