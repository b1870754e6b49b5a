import Hummingbird
import LatchkeyAPI
import LatchkeyStore
import Logging
import NIOCore
import ServiceLifecycle
import WebAuthn

/// Builds the Latchkey HTTP application: routes, middleware and services, over a store.
///
/// ```swift
/// let configuration = try ServerConfiguration(settings)
/// let store = try configuration.database.makeStore()
/// let app = ServerApplication.make(configuration: configuration, store: store)
/// try await app.runService()   // graceful shutdown on SIGTERM / SIGINT
/// ```
///
/// The store runs as one of the application's services and is migrated before the server accepts connections.
public enum ServerApplication {
    /// The Hummingbird application ``make(configuration:store:metrics:logger:onServerRunning:onAdminRunning:)`` returns.
    public typealias App = Application<RouterResponder<ServerRequestContext>>

    /// The application for `configuration` over `store`.
    ///
    /// - Parameters:
    ///   - configuration: the server's settings, checked (``ServerConfiguration``).
    ///   - store: where users, credentials, ceremonies and sessions live; run and migrated as a service of the app.
    ///   - metrics: where the metrics go (a fresh registry by default).
    ///   - logger: where the server logs.
    ///   - onServerRunning: called with the bound port once the server listens (useful with port 0).
    ///   - onAdminRunning: called with the admin API's bound port once it listens (with `--admin-port`).
    public static func make(
        configuration: ServerConfiguration,
        store: any LatchkeyStore,
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "latchkey.server"),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onAdminRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> App {
        let services = Services(configuration: configuration, store: store, metrics: metrics, logger: logger)
        let responder = makeRouter(configuration: configuration, services: services, metrics: metrics, logger: logger)
            .buildResponder()
        var app = application(
            responder, host: configuration.host, port: configuration.port, serverName: "Latchkey",
            trustedProxies: configuration.trustedProxies, configuration: configuration, logger: logger,
            onServerRunning: onServerRunning)
        let migration = StoreMigration()
        app.addServices(
            store,
            AfterMigration(
                migration: migration,
                service: ExpiryPurgeService(
                    store: store, interval: .seconds(60), logger: logger,
                    passwordThrottleMemory: configuration.passwordThrottle.memory,
                    auditRetention: configuration.auditRetention
                )))
        if let admin = configuration.admin {
            let responder = makeAdminRouter(
                configuration: configuration, services: services, metrics: metrics, logger: logger
            ).buildResponder()
            app.addServices(
                application(
                    responder, host: admin.host, port: admin.port, serverName: "Latchkey admin", trustedProxies: [],
                    configuration: configuration, logger: logger, onServerRunning: onAdminRunning))
        }
        if !configuration.webhooks.isEmpty {
            app.addServices(
                AfterMigration(
                    migration: migration,
                    service: WebhookDispatcher(store: store, endpoints: configuration.webhooks, logger: logger)))
        }
        if let mailer = services.mailer {
            app.addServices(
                AfterMigration(
                    migration: migration,
                    service: MailOutbox(store: store, transport: mailer.transport, from: mailer.from, logger: logger)))
        }
        app.beforeServerStarts {
            try await store.migrate()
            migration.markDone()
        }
        return app
    }

    /// An application answering with `responder` on `host:port` as `serverName`, with the configured body limit,
    /// deadlines and connections per address (`trustedProxies` exempt); `onServerRunning` gets the bound port.
    private static func application(
        _ responder: RouterResponder<ServerRequestContext>, host: String, port: Int, serverName: String,
        trustedProxies: [CIDRBlock], configuration: ServerConfiguration, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> App {
        Application(
            responder: responder,
            server: HTTP1ServerChannel.builder(
                responder: responder,
                limits: HTTP1ConnectionStateMachine.Limits(
                    bodyLimit: configuration.bodyLimit, deadlines: configuration.connectionDeadlines),
                connections: ConnectionLimiter(
                    maxPerAddress: configuration.maxConnectionsPerAddress, trustedProxies: trustedProxies),
                serverName: serverName),
            configuration: .init(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// The services behind the routes, wired over one store as the server runs them.
    struct Services: Sendable {
        let sessions: SessionAuthenticator
        let ceremonies: CeremonyService
        let passwords: PasswordService
        let apple: AppleSignInService?
        let accounts: AccountService
        let reauthentication: Reauthentication
        let recovery: RecoveryService
        /// Nil without `--smtp-url`.
        let mailer: Mailer?
        /// Nil without `--access-token-audience`.
        let accessTokens: AccessTokenService?
        let store: any LatchkeyStore
        let emails: EmailService
        let audit: AuditLog
        let names: AuthenticatorNaming

        init(configuration: ServerConfiguration, store: any LatchkeyStore, metrics: ServerMetrics, logger: Logger) {
            self.store = store
            names = AuthenticatorNaming(metadata: configuration.metadata?.service)
            let audit = AuditLog(
                store: store, retention: configuration.auditRetention, names: names, logger: logger,
                webhooks: configuration.webhooks)
            self.audit = audit
            let cookies = SessionCookies(secure: configuration.secureCookies)
            accessTokens = configuration.accessTokens.map { AccessTokenService(configuration: $0, store: store) }
            sessions = SessionAuthenticator(
                store: store, lifetime: configuration.sessionLifetime, cookies: cookies,
                clients: ClientAddressResolver(trustedProxies: configuration.trustedProxies), accessTokens: accessTokens
            )
            ceremonies = CeremonyService(
                store: store, relyingParty: configuration.relyingParty,
                tickets: CeremonyTickets(store: store, lifetime: configuration.ceremonyLifetime),
                sessions: sessions, metrics: metrics, decoys: DecoyCredentials(store: store), audit: audit,
                logger: logger
            )
            let sessions = sessions
            apple = configuration.apple.map {
                AppleSignInService(
                    configuration: $0, store: store, sessions: sessions, audit: audit, logger: logger)
            }
            accounts = AccountService(store: store, apple: apple, audit: audit)
            passwords = PasswordService(
                enabled: configuration.passwordSignIn, parameters: configuration.passwordHashing,
                concurrency: configuration.passwordHashConcurrency, throttle: configuration.passwordThrottle,
                ceremonies: ceremonies, sessions: sessions, accounts: accounts
            )
            reauthentication = Reauthentication(
                window: configuration.reauthenticationWindow, ceremonies: ceremonies, accounts: accounts,
                passwordsEnabled: configuration.passwordSignIn)
            mailer = configuration.email.map { email in
                Mailer(
                    transport: Self.transport(email, rpID: configuration.rpID, logger: logger), store: store,
                    from: email.from, rpName: configuration.rpName, templates: email.templates, logger: logger)
            }
            emails = EmailService(
                store: store, mailer: mailer, throttle: configuration.passwordThrottle, audit: audit)
            recovery = RecoveryService(
                store: store, ceremonies: ceremonies, throttle: configuration.passwordThrottle, emails: emails)
        }

        /// The transport `email` names. The SMTP one was checked when the configuration was made (its TLS settings
        /// included), so it cannot fail here; if it did, messages go to the log.
        static func transport(_ email: EmailConfiguration, rpID: String, logger: Logger) -> any MailTransport {
            guard case .smtp(let server) = email.smtp,
                let transport = try? SMTPTransport(server: server, heloName: rpID)
            else { return LogMailTransport(logger: logger) }
            return transport
        }
    }

    /// The admin API's router (``AdminRoutes``), for its own listener.
    static func makeAdminRouter(
        configuration: ServerConfiguration, services: Services, metrics: ServerMetrics, logger: Logger
    ) -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.addMiddleware {
            ErrorResponseMiddleware(format: .native)
            BodyLimitMiddleware(limit: configuration.bodyLimit)
        }
        AdminRoutes(
            admin: AdminService(
                store: services.store, accounts: services.accounts,
                names: services.names, origins: configuration.origins,
                webhookEndpoints: configuration.webhooks, logger: logger),
            keys: AdminKeys(keys: configuration.admin?.keys ?? []), metrics: metrics
        ).add(to: router.group())
        return router
    }

    /// The router with every route and middleware, over `services`.
    static func makeRouter(
        configuration: ServerConfiguration, services: Services, metrics: ServerMetrics, logger: Logger
    ) -> Router<ServerRequestContext> {
        let clients = ClientAddressResolver(trustedProxies: configuration.trustedProxies)
        let (sessions, ceremonies) = (services.sessions, services.ceremonies)

        // Each group's middleware is added as one stack (Hummingbird's `addMiddleware` builder): a stack is one layer of
        // the responder chain, where each middleware added alone is a layer of its own, with its own executor hops.
        let router = Router(context: ServerRequestContext.self)
        let audits = services.audit.isOn
        router.addMiddleware {
            RequestObservationMiddleware(metrics: metrics, clients: clients, audits: audits)
            ErrorResponseMiddleware(format: .native)
        }

        // Cross-origin protection and the body limit are group middleware, so that in the conformance group they answer
        // in that group's error format.
        let crossOrigin = CrossOriginProtection(
            trustedOrigins: Set(configuration.origins + configuration.relatedOrigins),
            bypassPaths: [APIPaths.Apple.callback]
        )
        let bodyLimit = BodyLimitMiddleware(limit: configuration.bodyLimit)
        let rateLimit =
            configuration.rateLimitPerMinute > 0
            ? RateLimitMiddleware(
                limiter: TokenBucketLimiter(perMinute: configuration.rateLimitPerMinute), clients: clients)
            : nil
        let routes = router.group().addMiddleware {
            crossOrigin
            bodyLimit
        }
        let ceremonyRoutes = router.group().addMiddleware {
            crossOrigin
            bodyLimit
            if let rateLimit { rateLimit }
        }
        // The conformance profile's routes answer errors in its own body shape, chosen here by group.
        let conformanceRoutes = router.group().addMiddleware {
            ErrorResponseMiddleware(format: .conformance)
            crossOrigin
            bodyLimit
            if let rateLimit { rateLimit }
        }
        let reauthentication = services.reauthentication
        ConformanceRoutes(ceremonies: ceremonies, sessions: sessions, reauthentication: reauthentication)
            .add(to: conformanceRoutes)
        PasskeyRoutes(ceremonies: ceremonies, sessions: sessions).add(to: ceremonyRoutes)
        let names = services.names
        let accounts = services.accounts
        let notices = services.mailer
        PasskeyManagementRoutes(
            passkeys: PasskeyService(ceremonies: ceremonies, names: names), ceremonies: ceremonies, sessions: sessions,
            reauthentication: reauthentication, notices: notices
        ).add(to: routes, ceremonyRoutes: ceremonyRoutes)
        SessionRoutes(
            sessions: sessions, accounts: accounts, reauthentication: reauthentication, ceremonies: ceremonies,
            notices: notices
        ).add(to: routes, ceremonyRoutes: ceremonyRoutes)
        PasswordRoutes(
            passwords: services.passwords, sessions: sessions, reauthentication: reauthentication, notices: notices
        ).add(to: ceremonyRoutes)
        AccountRoutes(accounts: accounts, sessions: sessions, reauthentication: reauthentication).add(to: routes)
        RecoveryRoutes(
            recovery: services.recovery, ceremonies: ceremonies, sessions: sessions, reauthentication: reauthentication,
            notices: notices
        ).add(to: routes, ceremonyRoutes: ceremonyRoutes)
        EmailRoutes(emails: services.emails, sessions: sessions, reauthentication: reauthentication)
            .add(to: routes, ceremonyRoutes: ceremonyRoutes)
        TokenRoutes(tokens: services.accessTokens).add(to: routes, ceremonyRoutes: ceremonyRoutes)
        WellKnownRoutes(configuration: configuration).add(to: routes)
        OperationsRoutes(accounts: accounts, metrics: metrics, configuration: configuration).add(to: routes)
        AppleRoutes(apple: services.apple, sessions: sessions).add(to: routes, ceremonyRoutes: ceremonyRoutes)
        WebPageRoutes(
            appleSignIn: configuration.apple?.web != nil, rpName: configuration.rpName,
            email: configuration.email != nil
        ).add(to: routes)
        return router
    }
}
