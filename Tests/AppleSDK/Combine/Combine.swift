// Stand-in for Combine as Swift imports it from the iOS 26 / macOS 26 SDK: only what an `ObservableObject` model with
// `@Published` properties needs (Examples/PasskeyApp). Type-checking only; bodies are `fatalError("stand-in")`.
// Each declaration was checked against its developer.apple.com page; see Tests/AppleSDK/README.md.
// Not modelled: subscribers, operators, and every member not listed here.

/// `protocol Publisher<Output, Failure>` — https://developer.apple.com/documentation/combine/publisher
/// (its `receive(subscriber:)` requirement is not modelled: nothing here subscribes).
@available(iOS 13.0, macOS 10.15, *)
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

/// `final class ObservableObjectPublisher` — https://developer.apple.com/documentation/combine/observableobjectpublisher
@available(iOS 13.0, macOS 10.15, *)
final public class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    public init() { fatalError("stand-in") }
    /// `final func send()`
    final public func send() { fatalError("stand-in") }
}

/// `protocol ObservableObject : AnyObject` — https://developer.apple.com/documentation/combine/observableobject
@available(iOS 13.0, macOS 10.15, *)
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never
    var objectWillChange: ObjectWillChangePublisher { get }
}

@available(iOS 13.0, macOS 10.15, *)
extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// `var objectWillChange: ObservableObjectPublisher { get }`
    public var objectWillChange: ObservableObjectPublisher { fatalError("stand-in") }
}

/// `@propertyWrapper struct Published<Value>` — https://developer.apple.com/documentation/combine/published
/// A class's property reaches it through the enclosing-instance subscript, as with Combine's own.
@available(iOS 13.0, macOS 10.15, *)
@propertyWrapper
public struct Published<Value> {
    /// `init(initialValue: Value)`
    public init(initialValue: Value) { fatalError("stand-in") }
    /// `init(wrappedValue: Value)`
    public init(wrappedValue: Value) { fatalError("stand-in") }

    /// `var projectedValue: Published<Value>.Publisher { mutating get set }`
    public var projectedValue: Publisher {
        mutating get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// `struct Publisher` — https://developer.apple.com/documentation/combine/published/publisher
    public struct Publisher: Combine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}
