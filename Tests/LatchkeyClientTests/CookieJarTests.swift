import Testing

@testable import LatchkeyClient

/// The client's cookie jar: `Set-Cookie` fields in, one `Cookie` header out.
@Suite("Cookie jar")
struct CookieJarTests {
    @Test("names and values are taken with the white space around each attribute removed")
    func storesTrimmedPairs() async {
        let jar = CookieJar()
        await jar.store(["a=1; Path=/; HttpOnly", " \tb=two words \t; Secure", "c=x=y"])
        #expect(await jar.header == "a=1; b=two words; c=x=y")
    }

    @Test("a cookie set again replaces the old value; Max-Age=0 (any case, any spacing) or an empty value removes it")
    func replacesAndRemoves() async {
        let jar = CookieJar()
        await jar.store(["a=1", "b=2", "c=3", "d=4"])
        await jar.store(["a=10", "b=; Path=/", "c=3;  MAX-AGE=0", "d=4;max-age=-1"])
        #expect(await jar.header == "a=10")
        await jar.store(["a=11; Max-Age=300", "e=5; Max-Age=oops"])
        #expect(await jar.header == "a=11; e=5")
        await jar.store(["a=11; Max-Age=0", "e=; Max-Age=0"])
        #expect(await jar.header == nil)
    }

    @Test("a field without a name-value pair is ignored")
    func ignoresMalformed() async {
        let jar = CookieJar()
        await jar.store(["", "   ", "novalue; Path=/", "=; Path=/"])
        #expect(await jar.header == nil)
    }
}
