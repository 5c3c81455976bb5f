import CBrotli

/// Brotli compression through libbrotli; the only file that calls `Brotli*`, so no brotli
/// pointer or type leaves it.
enum Brotli {
    /// `bytes` compressed at `quality` (0–11, 11 the smallest and slowest) in input blocks of
    /// 2^`blockBits` bytes at most (16–24; nil: the encoder's choice), or nil if the encoder
    /// refuses. The same input always gives the same bytes.
    static func compress(_ bytes: [UInt8], quality: Int32 = 11, blockBits: Int32? = nil) -> [UInt8]? {
        guard let state = BrotliEncoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliEncoderDestroyInstance(state) }
        var settings: [(BrotliEncoderParameter, UInt32)] = [(BROTLI_PARAM_QUALITY, UInt32(quality)), (BROTLI_PARAM_MODE, BROTLI_MODE_TEXT.rawValue),
                                                            (BROTLI_PARAM_SIZE_HINT, UInt32(min(bytes.count, 1 << 30)))]
        if let blockBits { settings.append((BROTLI_PARAM_LGBLOCK, UInt32(blockBits))) }
        for (parameter, value) in settings where BrotliEncoderSetParameter(state, parameter, value) != BROTLI_TRUE { return nil }
        var out = [UInt8](repeating: 0, count: BrotliEncoderMaxCompressedSize(bytes.count) + 1024)
        var size = 0
        let ok = bytes.withUnsafeBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                var availableIn = inBuf.count, nextIn = inBuf.baseAddress
                var availableOut = outBuf.count, nextOut = outBuf.baseAddress
                let done = BrotliEncoderCompressStream(state, BROTLI_OPERATION_FINISH, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                size = outBuf.count - availableOut
                return done == BROTLI_TRUE && BrotliEncoderIsFinished(state) == BROTLI_TRUE
            }
        }
        guard ok else { return nil }
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
