import Foundation

/// Reads a command's input file; `-` means standard input.
enum InputFile {
    static func read(_ path: String, io: CommandIO, what: String) throws(CommandError) -> [UInt8] {
        if path == "-" { return io.readStandardInput() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io("unreadable", "cannot read the \(what) file \"\(path)\"")
        }
        return Array(data)
    }

    /// Whether `path` names a regular file (so `inspect` can tell a path from a value).
    static func exists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
