import CZlib

/// gzip compression through zlib; the only file that calls `deflate*`, so no zlib pointer
/// or type leaves it.
enum Gzip {
    /// `bytes` as a gzip member (RFC 1952), or nil if zlib refuses.
    static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for the gzip header and trailer instead of zlib's own.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var out = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inBuf -> Int32 in
            out.withUnsafeMutableBufferPointer { outBuf -> Int32 in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }

    /// The bytes a gzip member holds, or nil if it is not valid gzip; for tests.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { outBuf -> Int in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = uInt(outBuf.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return outBuf.count - Int(stream.avail_out)
                }
                result.append(contentsOf: chunk[0..<produced])
            } while status == Z_OK
        }
        return status == Z_STREAM_END ? result : nil
    }
}
