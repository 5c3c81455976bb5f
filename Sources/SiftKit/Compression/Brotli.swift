import CBrotli

/// Brotli compression through libbrotli; the only file that calls `Brotli*`, so no brotli
/// pointer or type leaves it.
enum Brotli {
    /// `bytes` compressed at `quality` (0–11, 11 the smallest and slowest), or nil if the
    /// encoder refuses. The same input always gives the same bytes.
    static func compress(_ bytes: [UInt8], quality: Int32 = 11) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(bytes.count)
        if size == 0 { size = bytes.count + 1024 }
        var out = [UInt8](repeating: 0, count: size)
        let ok = bytes.withUnsafeBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                                      inBuf.count, inBuf.baseAddress, &size, outBuf.baseAddress)
            }
        }
        guard ok == BROTLI_TRUE else { return nil }
        out.removeSubrange(size...)
        return out
    }

    /// The bytes a brotli stream holds, or nil if it is not valid brotli; for tests.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(state) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT
        bytes.withUnsafeBufferPointer { inBuf in
            var availableIn = inBuf.count
            var nextIn = inBuf.baseAddress
            while status == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT {
                let produced = chunk.withUnsafeMutableBufferPointer { outBuf -> Int in
                    var availableOut = outBuf.count
                    var nextOut = outBuf.baseAddress
                    status = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return outBuf.count - availableOut
                }
                result.append(contentsOf: chunk[0..<produced])
            }
        }
        return status == BROTLI_DECODER_RESULT_SUCCESS ? result : nil
    }
}
