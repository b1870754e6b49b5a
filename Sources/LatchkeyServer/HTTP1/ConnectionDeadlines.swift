import NIOCore

/// How long a client may take over each part of an HTTP/1 connection before the server closes it.
///
/// - `idle`: a connection with no request under way (a new one before its first byte, or a kept-alive one between
///   requests).
/// - `header`: from the first byte of a request to the end of its headers.
/// - `body`: from the end of the headers to the end of the body.
/// - `write`: while answers wait to be written, from the last one the client took.
///
/// Without them a client that sends half a request and stops (slowloris), or one that sends requests and never reads
/// the answers, holds a connection for ever.
public struct ConnectionDeadlines: Sendable, Equatable {
    /// How long a connection with no request under way stays open.
    public var idle: Duration
    /// How long a request's headers may take from its first byte.
    public var header: Duration
    /// How long a request's body may take after its headers.
    public var body: Duration
    /// How long an answer may wait for the client to take it, counted from the last answer it took.
    public var write: Duration

    /// Deadlines as given.
    public init(idle: Duration, header: Duration, body: Duration, write: Duration) {
        self.idle = idle
        self.header = header
        self.body = body
        self.write = write
    }
}
