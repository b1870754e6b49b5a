import ArgumentParser

/// How a load test's users sign in.
enum LoadTestDriver: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Each request written as bytes and only the members the next step needs read from each answer
    /// (``WireSignIn``): the server's work is the same, the load generator's about 40 % less.
    case wire
    /// Through ``NativeClient`` or ``ConformanceClient``, the client library apps use.
    case client
}
