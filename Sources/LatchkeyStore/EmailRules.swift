/// The refusals both stores give for the rules of ``EmailStore`` that the schema does not check itself.
enum EmailRules {
    static let notFound = StoreError(.notFound, "the account has no such email address")
    static let notVerified = StoreError(.notFound, "the account has no such verified email address")
}
