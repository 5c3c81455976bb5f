/// Limits of the preview server's connections, so that idle or slow clients cannot hold a
/// thread for long.
public struct HTTPServerLimits: Sendable {
    /// Open connections, live-reload streams included; more get 503.
    public var maxConnections = 256
    /// Seconds a kept-alive connection may sit idle before its next request.
    public var idleTimeout = 5.0
    /// Seconds a client has to send a whole request head.
    public var requestTimeout = 10.0
    /// Seconds a blocked write may take before the connection is dropped.
    public var writeTimeout = 10.0

    /// The defaults.
    public init() {}
}
