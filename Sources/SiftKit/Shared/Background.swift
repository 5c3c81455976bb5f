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

    /// The value, once made; this object no longer holds it (a build lets go of the last
    /// build's pages once loaded, 100 MB at 100k items).
    func take() -> T {
        done.wait()
        defer { result = nil }
        return result!
    }
}
