// Stand-in for Apple's Security framework, as Swift imports it from the iOS 26 / macOS 26 SDK: only what
// Latchkey uses. Type-checking only; every body is `fatalError("stand-in")` and never runs.
// Each declaration was checked against its developer.apple.com page; see Tests/AppleSDK/README.md.
import Foundation

// MARK: - CoreFoundation (approximated)
//
// CoreFoundation is not a public module on Linux, so the CF types are aliases of their toll-free-bridged
// Foundation classes. `dict as CFDictionary`, `kSecClass as String`, `result as? Data` then type-check as they
// do on Apple platforms, but this is an approximation: on Apple platforms CFString and NSString are distinct
// types that merely bridge, and a few things that compile here (calling NSString methods on a CFString) would
// not compile there. See the README's limits.

public typealias CFTypeRef = AnyObject
public typealias CFDictionary = NSDictionary
public typealias CFString = NSString
public typealias CFArray = NSArray
public typealias CFData = NSData
public typealias CFBoolean = NSNumber
/// `typealias OSStatus = Int32` (MacTypes).
public typealias OSStatus = Int32

/// `let kCFBooleanTrue: CFBoolean!` (CoreFoundation)
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// `let kCFBooleanFalse: CFBoolean!` (CoreFoundation)
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

// MARK: - Keychain items

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
@available(iOS 2.0, macOS 10.6, *)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
@available(iOS 2.0, macOS 10.6, *)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
@available(iOS 2.0, macOS 10.6, *)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:)
@available(iOS 2.0, macOS 10.6, *)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

/// https://developer.apple.com/documentation/security/seccopyerrormessagestring(_:_:)
@available(iOS 11.3, macOS 10.3, *)
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    fatalError("stand-in")
}

// MARK: - Item attribute keys and values (`let kSecX: CFString`)
//
// Imported C constants: `nonisolated(unsafe)` because NSString is not Sendable here, while Swift does not
// concurrency-check C globals on Apple platforms. The raw values are the SDK's (SecItemConstants.c).

@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecClass: CFString = "class"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
@available(iOS 4.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly:
    CFString = "cku"
@available(iOS 7.0, macOS 10.9, *) nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
@available(iOS 2.0, macOS 10.6, *) nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"
@available(iOS 13.0, macOS 10.15, *) nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

// MARK: - Result codes (`var errSecX: OSStatus { get }`, values from SecBase.h)

public var errSecSuccess: OSStatus { 0 }
public var errSecParam: OSStatus { -50 }
public var errSecAuthFailed: OSStatus { -25293 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecDecode: OSStatus { -26275 }
public var errSecMissingEntitlement: OSStatus { -34018 }
