import Dispatch
import Foundation
import Synchronization

/// Runs work over the cores: the build's only concurrency primitive.
public enum ParallelMap {
    /// How many threads builds use; `--jobs` sets it.
    nonisolated(unsafe) public static var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// The tables runs of items made (`map` over runs in order) merged into one, in order: `add`
    /// puts a later run's value after an earlier one's. Each run's table is let go once merged,
    /// and the first taken rather than copied on the first write: at a million documents the
    /// tables of word holders weigh hundreds of MB.
    public static func merged<K: Hashable, V>(_ runs: consuming [[K: V]], _ add: (inout V, V) -> Void) -> [K: V] {
        var runs = runs
        var out: [K: V] = [:]
        if !runs.isEmpty { swap(&out, &runs[0]) }
        for i in runs.indices.dropFirst() {
            for (key, value) in runs[i] {
                if out[key] == nil { out[key] = value } else { add(&out[key]!, value) }
            }
            runs[i] = [:]
        }
        return out
    }

    /// Maps every element on up to `jobs` threads, keeping order.
    public static func map<T, R>(_ input: [T], _ transform: (T) -> R) -> [R] {
        if input.count < 2 || jobs <= 1 { return input.map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            // Each result made in place in the array returned: no copy of them all (and release
            // of the copied) at the end, which for 10,000 items of a dozen fields each showed.
            Array(unsafeUninitializedCapacity: input.count) { out, initialized in
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
                initialized = input.count
            }
        }
    }
}

/// An atomic counter handing out indices to worker threads (a lock taken per element had the
/// threads wait on each other in the kernel).
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// Carries values the compiler cannot prove Sendable into concurrentPerform, where each
/// worker touches distinct indices.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
