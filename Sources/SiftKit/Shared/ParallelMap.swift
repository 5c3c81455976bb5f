import Dispatch
import Foundation

/// Runs work over the cores: the build's only concurrency primitive.
public enum ParallelMap {
    /// How many threads builds use; `--jobs` sets it.
    nonisolated(unsafe) public static var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// Maps every element on up to `jobs` threads, keeping order.
    public static func map<T, R>(_ input: [T], _ transform: (T) -> R) -> [R] {
        if input.count < 2 || jobs <= 1 { return input.map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            let out = UnsafeMutableBufferPointer<R>.allocate(capacity: input.count)
            defer { out.deallocate() }
            let workers = min(jobs, input.count)
            let next = Counter()
            input.withUnsafeBufferPointer { inBuf in
                let box = UncheckedBox((inBuf, out, transform))
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    let (inBuf, out, transform) = box.value
                    while true {
                        let i = next.next()
                        if i >= inBuf.count { break }
                        (out.baseAddress! + i).initialize(to: transform(inBuf[i]))
                    }
                }
            }
            let result = Array(out)
            _ = out.baseAddress.map { $0.deinitialize(count: input.count) }
            return result
        }
    }
}

/// An atomic counter handing out indices to worker threads.
final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

/// Carries values the compiler cannot prove Sendable into concurrentPerform, where each
/// worker touches distinct indices.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
