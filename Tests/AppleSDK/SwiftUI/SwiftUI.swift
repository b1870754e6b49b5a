// Stand-in for SwiftUI as Swift imports it from the iOS 26 / macOS 26 SDK: only what Examples/PasskeyApp uses. Every
// modifier is `nonisolated` and returns `some View`, as Apple declares it (the concrete type behind it is the stand-in's
// `_StandInView`); `@ContentBuilder` parameters are spelled `@ViewBuilder`, the builder the same SDK also accepts.
// Type-checking only; bodies are `fatalError("stand-in")`. Each declaration was checked against its developer.apple.com
// page; see Tests/AppleSDK/README.md. Not modelled: everything not listed here.
@_exported import Combine
@_exported import Foundation

#if canImport(UIKit)
import UIKit
#endif

// MARK: Views and scenes

/// `@MainActor @preconcurrency protocol View` — https://developer.apple.com/documentation/swiftui/view
@available(iOS 13.0, macOS 10.15, *)
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// `@MainActor @preconcurrency protocol Scene` — https://developer.apple.com/documentation/swiftui/scene
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// `@MainActor @preconcurrency protocol App` — https://developer.apple.com/documentation/swiftui/app
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

@available(iOS 14.0, macOS 11.0, *)
extension App {
    /// `@MainActor @preconcurrency static func main()` — what `@main` calls.
    @MainActor @preconcurrency public static func main() { fatalError("stand-in") }
}

extension Never: View, Scene {
    public typealias Body = Never
    // (Named so that the two protocols' builders do not both apply to it; `fatalError()` is a `Never` view.)
    @ViewBuilder public var body: Never { fatalError("stand-in") }
}

/// `@resultBuilder struct ViewBuilder` — https://developer.apple.com/documentation/swiftui/viewbuilder
@available(iOS 13.0, macOS 10.15, *)
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { fatalError("stand-in") }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > {
        fatalError("stand-in")
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError("stand-in") }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError("stand-in") }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { fatalError("stand-in") }
}

/// `@resultBuilder struct SceneBuilder` — https://developer.apple.com/documentation/swiftui/scenebuilder
@available(iOS 14.0, macOS 11.0, *)
@resultBuilder
public struct SceneBuilder {
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// `struct WindowGroup<Content> where Content : View` — https://developer.apple.com/documentation/swiftui/windowgroup
@available(iOS 14.0, macOS 11.0, *)
public struct WindowGroup<Content: View>: Scene {
    public typealias Body = Never
    /// `nonisolated init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError("stand-in") }
    public var body: Never { fatalError("stand-in") }
}

/// The views below are primitive (`Body == Never`), as Apple's are.
@available(iOS 13.0, macOS 10.15, *)
public protocol _PrimitiveView: View where Body == Never {}

@available(iOS 13.0, macOS 10.15, *)
extension _PrimitiveView {
    public var body: Never { fatalError("stand-in") }
}

/// The stand-in's type behind every modifier's `some View`.
@available(iOS 13.0, macOS 10.15, *)
public struct _StandInView: _PrimitiveView {
    nonisolated init() {}
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("stand-in") }
}

/// `struct EmptyView` — https://developer.apple.com/documentation/swiftui/emptyview
@available(iOS 13.0, macOS 10.15, *)
public struct EmptyView: _PrimitiveView {
    nonisolated public init() {}
}

/// `struct TupleView<T>` — https://developer.apple.com/documentation/swiftui/tupleview
@available(iOS 13.0, macOS 10.15, *)
public struct TupleView<T>: _PrimitiveView {
    nonisolated public init(_ value: T) { fatalError("stand-in") }
}

/// `struct _ConditionalContent<TrueContent, FalseContent>` (what `if`/`else` and `switch` build)
@available(iOS 13.0, macOS 10.15, *)
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: _PrimitiveView {}

/// `struct AnyView` — https://developer.apple.com/documentation/swiftui/anyview
@available(iOS 13.0, macOS 10.15, *)
public struct AnyView: _PrimitiveView {
    nonisolated public init<V: View>(_ view: V) { fatalError("stand-in") }
}

// MARK: Text and controls

/// `struct LocalizedStringKey` — https://developer.apple.com/documentation/swiftui/localizedstringkey
@available(iOS 13.0, macOS 10.15, *)
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    public init(_ value: String) { fatalError("stand-in") }
    public init(stringLiteral value: String) { fatalError("stand-in") }
    public init(stringInterpolation: DefaultStringInterpolation) { fatalError("stand-in") }
}

/// `struct Text` — https://developer.apple.com/documentation/swiftui/text
@available(iOS 13.0, macOS 10.15, *)
public struct Text: _PrimitiveView, Equatable, Sendable {
    /// `init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil)`
    nonisolated public init(
        _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
    ) {
        fatalError("stand-in")
    }
    /// `@_disfavoredOverload init<S>(_ content: S) where S : StringProtocol`
    @_disfavoredOverload nonisolated public init<S: StringProtocol>(_ content: S) { fatalError("stand-in") }

    /// `init(_ date: Date, style: Text.DateStyle)` — https://developer.apple.com/documentation/swiftui/text/init(_:style:)
    @available(iOS 14.0, macOS 11.0, *)
    nonisolated public init(_ date: Date, style: Text.DateStyle) { fatalError("stand-in") }

    /// `struct Text.DateStyle` — https://developer.apple.com/documentation/swiftui/text/datestyle
    @available(iOS 14.0, macOS 11.0, *)
    public struct DateStyle: Equatable, Sendable {
        public static let date = DateStyle()
        public static let time = DateStyle()
    }
}

/// `struct ButtonRole` — https://developer.apple.com/documentation/swiftui/buttonrole
@available(iOS 15.0, macOS 12.0, *)
public struct ButtonRole: Equatable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
}

/// `@MainActor @preconcurrency struct Button<Label> where Label : View` — https://developer.apple.com/documentation/swiftui/button
@available(iOS 13.0, macOS 10.15, *)
public struct Button<Label: View>: _PrimitiveView {
    /// `@preconcurrency nonisolated init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label)`
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        fatalError("stand-in")
    }
}

@available(iOS 13.0, macOS 10.15, *)
extension Button where Label == Text {
    /// `@preconcurrency nonisolated init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void)`
    @preconcurrency nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
        fatalError("stand-in")
    }
    /// `@_disfavoredOverload @preconcurrency nonisolated init<S>(_ title: S, action: @escaping @MainActor () -> Void)`
    @_disfavoredOverload @preconcurrency
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        fatalError("stand-in")
    }

    /// `@preconcurrency nonisolated init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void)`
    @available(iOS 15.0, macOS 12.0, *)
    @preconcurrency nonisolated public init(
        _ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void
    ) { fatalError("stand-in") }
    /// `@_disfavoredOverload @preconcurrency nonisolated init<S>(_ title: S, role: ButtonRole?, action: …)`
    @available(iOS 15.0, macOS 12.0, *)
    @_disfavoredOverload @preconcurrency nonisolated public init<S: StringProtocol>(
        _ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void
    ) { fatalError("stand-in") }
}

/// `@MainActor @preconcurrency struct TextField<Label> where Label : View` — https://developer.apple.com/documentation/swiftui/textfield
@available(iOS 13.0, macOS 10.15, *)
public struct TextField<Label: View>: _PrimitiveView {}

@available(iOS 13.0, macOS 10.15, *)
extension TextField where Label == Text {
    /// `nonisolated init(_ titleKey: LocalizedStringKey, text: Binding<String>)`
    nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) { fatalError("stand-in") }
}

/// `struct ProgressView<Label, CurrentValueLabel>` — https://developer.apple.com/documentation/swiftui/progressview
@available(iOS 14.0, macOS 11.0, *)
public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

@available(iOS 14.0, macOS 11.0, *)
extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// `nonisolated init()`
    nonisolated public init() { fatalError("stand-in") }
}

// MARK: Containers

/// `struct HorizontalAlignment` — https://developer.apple.com/documentation/swiftui/horizontalalignment
@available(iOS 13.0, macOS 10.15, *)
public struct HorizontalAlignment: Equatable, Sendable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
    public static let trailing = HorizontalAlignment()
}

/// `@frozen enum HorizontalEdge` — https://developer.apple.com/documentation/swiftui/horizontaledge
@available(iOS 13.0, macOS 10.15, *)
public enum HorizontalEdge: Int8, CaseIterable, Sendable {
    case leading, trailing
}

/// `@frozen struct VStack<Content> where Content : View` — https://developer.apple.com/documentation/swiftui/vstack
@available(iOS 13.0, macOS 10.15, *)
public struct VStack<Content: View>: _PrimitiveView {
    /// `nonisolated init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)`
    nonisolated public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) {
        fatalError("stand-in")
    }
}

/// `struct Form<Content> where Content : View` — https://developer.apple.com/documentation/swiftui/form
@available(iOS 13.0, macOS 10.15, *)
public struct Form<Content: View>: _PrimitiveView {
    /// `nonisolated init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError("stand-in") }
}

/// `struct List<SelectionValue, Content> where SelectionValue : Hashable, Content : View` —
/// https://developer.apple.com/documentation/swiftui/list
@available(iOS 13.0, macOS 10.15, *)
public struct List<SelectionValue: Hashable, Content: View>: _PrimitiveView {}

@available(iOS 13.0, macOS 10.15, *)
extension List where SelectionValue == Never {
    /// `nonisolated init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError("stand-in") }
}

/// `struct Section<Parent, Content, Footer>` — https://developer.apple.com/documentation/swiftui/section
@available(iOS 13.0, macOS 10.15, *)
public struct Section<Parent: View, Content: View, Footer: View>: _PrimitiveView {
    /// `init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer)`
    nonisolated public init(
        @ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer
    ) { fatalError("stand-in") }
}

@available(iOS 13.0, macOS 10.15, *)
extension Section where Parent == EmptyView {
    /// `init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer)`
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) {
        fatalError("stand-in")
    }
}

@available(iOS 13.0, macOS 10.15, *)
extension Section where Footer == EmptyView {
    /// `init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent)`
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        fatalError("stand-in")
    }
}

@available(iOS 13.0, macOS 10.15, *)
extension Section where Parent == EmptyView, Footer == EmptyView {
    /// `init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError("stand-in") }
}

/// `struct ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable` —
/// https://developer.apple.com/documentation/swiftui/foreach
@available(iOS 13.0, macOS 10.15, *)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: _PrimitiveView {
    /// `nonisolated init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)`
    nonisolated public init(
        _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content
    ) {
        fatalError("stand-in")
    }
}

/// `struct NavigationPath` — https://developer.apple.com/documentation/swiftui/navigationpath
@available(iOS 16.0, macOS 13.0, *)
public struct NavigationPath {
    public init() {}
}

/// `@MainActor @preconcurrency struct NavigationStack<Data, Root> where Root : View` —
/// https://developer.apple.com/documentation/swiftui/navigationstack
@available(iOS 16.0, macOS 13.0, *)
public struct NavigationStack<Data, Root: View>: _PrimitiveView {}

@available(iOS 16.0, macOS 13.0, *)
extension NavigationStack where Data == NavigationPath {
    /// `nonisolated init(@ViewBuilder root: () -> Root)`
    nonisolated public init(@ViewBuilder root: () -> Root) { fatalError("stand-in") }
}

// MARK: State

/// `protocol DynamicProperty` — https://developer.apple.com/documentation/swiftui/dynamicproperty
@available(iOS 13.0, macOS 10.15, *)
public protocol DynamicProperty {}

/// `@frozen @propertyWrapper struct State<Value>` — https://developer.apple.com/documentation/swiftui/state
@available(iOS 13.0, macOS 10.15, *)
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// `init(wrappedValue value: Value)`
    public init(wrappedValue value: Value) { fatalError("stand-in") }
    /// `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set { fatalError("stand-in") }
    }
    /// `var projectedValue: Binding<Value> { get }`
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
}

extension State: Sendable where Value: Sendable {}

/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>` — https://developer.apple.com/documentation/swiftui/binding
@available(iOS 13.0, macOS 10.15, *)
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value,
    /// set: @escaping @isolated(any) @Sendable (Value) -> Void)`
    @preconcurrency public init(
        get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) { fatalError("stand-in") }
    /// `var wrappedValue: Value { get nonmutating set }`
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set { fatalError("stand-in") }
    }
    /// `var projectedValue: Binding<Value> { get }`
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
    /// `subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { get }`
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

extension Binding: Sendable where Value: Sendable {}

/// `@MainActor @frozen @propertyWrapper @preconcurrency struct StateObject<ObjectType> where ObjectType : ObservableObject`
/// — https://developer.apple.com/documentation/swiftui/stateobject
@available(iOS 14.0, macOS 11.0, *)
@MainActor @preconcurrency @propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    /// `nonisolated init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType)`
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { fatalError("stand-in") }
    /// `@MainActor @preconcurrency var wrappedValue: ObjectType { get }`
    public var wrappedValue: ObjectType { fatalError("stand-in") }
}

/// `@MainActor @frozen @propertyWrapper @preconcurrency struct EnvironmentObject<ObjectType> where ObjectType : ObservableObject`
/// — https://developer.apple.com/documentation/swiftui/environmentobject
@available(iOS 13.0, macOS 10.15, *)
@MainActor @preconcurrency @propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
    /// `nonisolated init()`
    nonisolated public init() {}
    /// `@MainActor @preconcurrency var wrappedValue: ObjectType { get }`
    public var wrappedValue: ObjectType { fatalError("stand-in") }
}

// MARK: Styles

/// `struct Font` — https://developer.apple.com/documentation/swiftui/font
@available(iOS 13.0, macOS 10.15, *)
public struct Font: Hashable, Sendable {
    /// `static let caption: Font`
    public static let caption = Font()
    /// `static let body: Font`
    public static let body = Font()
}

/// `protocol ShapeStyle : Sendable` — https://developer.apple.com/documentation/swiftui/shapestyle
@available(iOS 13.0, macOS 10.15, *)
public protocol ShapeStyle: Sendable {}

/// `@frozen struct HierarchicalShapeStyle` — https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle
@available(iOS 15.0, macOS 12.0, *)
public struct HierarchicalShapeStyle: ShapeStyle {}

@available(iOS 15.0, macOS 12.0, *)
extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// `static var secondary: HierarchicalShapeStyle { get }`
    public static var secondary: HierarchicalShapeStyle { fatalError("stand-in") }
}

#if canImport(UIKit)
/// `struct TextInputAutocapitalization` (iOS) — https://developer.apple.com/documentation/swiftui/textinputautocapitalization
@available(iOS 15.0, *)
public struct TextInputAutocapitalization: Sendable {
    /// `static var never: TextInputAutocapitalization { get }`
    public static var never: TextInputAutocapitalization { fatalError("stand-in") }
}
#endif

// MARK: Modifiers

@available(iOS 13.0, macOS 10.15, *)
extension View {
    /// `nonisolated func environmentObject<T>(_ object: T) -> some View where T : ObservableObject`
    nonisolated public func environmentObject<T: ObservableObject>(_ object: T) -> some View { _StandInView() }

    /// `nonisolated func task(priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void) -> some View`
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { _StandInView() }

    /// `nonisolated func refreshable(action: @escaping @Sendable () async -> Void) -> some View`
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { _StandInView() }

    /// `nonisolated func alert<A>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A) -> some View`
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func alert<A: View>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A
    ) -> some View { _StandInView() }

    /// `nonisolated func alert<A, M>(_ titleKey: LocalizedStringKey, isPresented: Binding<Bool>,
    /// @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M) -> some View`
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func alert<A: View, M: View>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View { _StandInView() }

    /// `nonisolated func swipeActions<T>(edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true,
    /// @ViewBuilder content: () -> T) -> some View where T : View`
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func swipeActions<T: View>(
        edge: HorizontalEdge = .trailing, allowsFullSwipe: Bool = true, @ViewBuilder content: () -> T
    ) -> some View { _StandInView() }

    /// `nonisolated func navigationTitle(_ titleKey: LocalizedStringKey) -> some View`
    @available(iOS 14.0, macOS 11.0, *)
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { _StandInView() }
    /// `@_disfavoredOverload nonisolated func navigationTitle<S>(_ title: S) -> some View where S : StringProtocol`
    @available(iOS 14.0, macOS 11.0, *)
    @_disfavoredOverload nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View {
        _StandInView()
    }

    /// `nonisolated func disabled(_ disabled: Bool) -> some View`
    nonisolated public func disabled(_ disabled: Bool) -> some View { _StandInView() }

    /// `nonisolated func font(_ font: Font?) -> some View`
    nonisolated public func font(_ font: Font?) -> some View { _StandInView() }

    /// `nonisolated func foregroundStyle<S>(_ style: S) -> some View where S : ShapeStyle`
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { _StandInView() }

    /// `nonisolated func autocorrectionDisabled(_ disable: Bool = true) -> some View`
    @available(iOS 13.0, macOS 10.15, *)
    nonisolated public func autocorrectionDisabled(_ disable: Bool = true) -> some View { _StandInView() }
}

#if canImport(UIKit)
@available(iOS 13.0, *)
extension View {
    /// `nonisolated func textContentType(_ textContentType: UITextContentType?) -> some View` (iOS)
    nonisolated public func textContentType(_ textContentType: UITextContentType?) -> some View { _StandInView() }

    /// `nonisolated func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View` (iOS)
    @available(iOS 15.0, *)
    nonisolated public func textInputAutocapitalization(
        _ autocapitalization: TextInputAutocapitalization?
    ) -> some View { _StandInView() }
}
#endif
