import Foundation

/// A value made on another thread while the caller goes on; `value` waits for it.
final class Background<T>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchGroup()

    /// Starts `make` on a global queue.
    init(_ make: @escaping @Sendable () -> T) {
        done.enter()
        DispatchQueue.global().async { [self] in
            result = make()
            done.leave()
        }
    }

    /// The value, once made.
    var value: T {
        done.wait()
        return result!
    }
}
