#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A bump allocator for one Markdown document at a time, one per thread, that Markdown.swift
/// hands to libcmark: a parse makes thousands of small nodes and buffers, and freeing them one
/// by one through malloc cost more than parsing. `reset()` frees everything at once.
final class ThreadArena {
    /// Sources above this size use malloc: an arena never reuses what a growing buffer left behind.
    static let largestSource = 1 << 20
    static let chunkSize = 256 << 10
    /// Each block starts with its size, for realloc.
    static let header = 16

    private var chunks: [(base: UnsafeMutableRawPointer, size: Int)] = []
    private var chunk = 0
    private var top: UnsafeMutableRawPointer
    private var end: UnsafeMutableRawPointer
    private var last: UnsafeMutableRawPointer?
    private var large: [UnsafeMutableRawPointer] = []

    private init() {
        let base = malloc(Self.chunkSize)!
        chunks = [(base, Self.chunkSize)]
        top = base
        end = base + Self.chunkSize
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<ThreadArena>.fromOpaque(pointer).takeRetainedValue().destroy()
        }
        return key
    }()

    /// This thread's arena.
    static func current() -> ThreadArena {
        if let pointer = pthread_getspecific(key) { return Unmanaged<ThreadArena>.fromOpaque(pointer).takeUnretainedValue() }
        let arena = ThreadArena()
        pthread_setspecific(key, Unmanaged.passRetained(arena).toOpaque())
        return arena
    }

    /// Runs `body` with this thread's arena, which the thread keeps alive, neither retained nor
    /// released: libcmark calls the allocator thousands of times a page, and a retain and release
    /// each cost more than the bump allocation itself.
    static func withCurrent<R>(_ body: (ThreadArena) -> R) -> R {
        guard let pointer = pthread_getspecific(key) else { return body(current()) }
        return Unmanaged<ThreadArena>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }

    private func destroy() {
        reset()
        for c in chunks { Glibc.free(c.base) }
    }

    func allocate(_ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer {
        let rounded = (size + 15) & ~15
        let need = rounded + Self.header
        if need > Self.chunkSize / 4 {
            let block = Glibc.malloc(need)!
            large.append(block)
            block.storeBytes(of: size, as: Int.self)
            if zeroed { memset(block + Self.header, 0, size) }
            return block + Self.header
        }
        if top + need > end {
            chunk += 1
            if chunk == chunks.count { chunks.append((Glibc.malloc(Self.chunkSize)!, Self.chunkSize)) }
            top = chunks[chunk].base
            end = top + chunks[chunk].size
        }
        top.storeBytes(of: size, as: Int.self)
        let block = top + Self.header
        top += need
        last = block
        if zeroed { memset(block, 0, size) }
        return block
    }

    func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let block else { return allocate(size, zeroed: false) }
        let old = (block - Self.header).load(as: Int.self)
        if block == last, block + ((size + 15) & ~15) <= end {
            // The newest block grows in place.
            (block - Self.header).storeBytes(of: size, as: Int.self)
            top = block + ((size + 15) & ~15)
            return block
        }
        let moved = allocate(size, zeroed: false)
        memcpy(moved, block, min(old, size))
        return moved
    }

    func free(_ block: UnsafeMutableRawPointer?) {
        guard let block, block == last else { return }
        top = block - Self.header
        last = nil
    }

    /// Frees every block; chunks beyond the first few are returned to malloc.
    func reset() {
        for block in large { Glibc.free(block) }
        large.removeAll(keepingCapacity: true)
        while chunks.count > 8 { Glibc.free(chunks.removeLast().base) }
        chunk = 0
        top = chunks[0].base
        end = top + chunks[0].size
        last = nil
    }
}
