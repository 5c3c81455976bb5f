import Foundation
import Testing
@testable import SiftKit

/// A digest record whose length is any 64-bit number (a damaged .sift-cache) makes the cache
/// unusable, and the build renders everything again: it never traps converting the length.
@Test func aDamagedDigestLengthDropsTheCache() throws {
    let site = try TestSite(["Content/notes/a.md": "# A\n\nalpha\n"])
    #expect(site.build().status == 0)
    let digests = DiskCache.digestsFile(in: site.root)
    let output = site.output.standardizedFileURL.path
    #expect(DiskCache.load(site: site.root, output: output, version: SiftCLI.version) != nil)
    for length: UInt64 in [.max, 1 << 63, UInt64(Int.max), UInt64(Int.max) - 7] {
        var bytes = try Data(contentsOf: digests)
        withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 16))
        let damaged = site.root.appendingPathComponent("damaged.cache")
        try bytes.write(to: damaged)
        try FileManager.default.removeItem(at: digests)
        try FileManager.default.copyItem(at: damaged, to: digests)
        #expect(DiskCache.load(site: site.root, output: output, version: SiftCLI.version) == nil, "length \(length)")
        #expect(site.build().status == 0)
    }
}
