import LatchkeyCLI
await Task { await Latchkey.main() }.value  // in an async closure `main()` is AsyncParsableCommand's; at top level it is the sync one
