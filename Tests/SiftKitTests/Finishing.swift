import Foundation
@testable import SiftKit

/// What `body` returns, or nil when it has not returned within `seconds` (it is left running),
/// so a test of something that once hung fails instead of hanging the run.
func finishes<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
        result.withLock { $0 = body() }
        done.signal()
    }.start()
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.withLock { $0 }
}
