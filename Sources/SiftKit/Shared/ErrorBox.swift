import Foundation

/// The first error any worker met.
final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var error: Error?
    func set(_ e: Error) { lock.lock(); if error == nil { error = e }; lock.unlock() }
}
