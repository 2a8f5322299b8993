//! Each class of secret evidence (issue 25), on its fixture under `tests/fixtures/detect/`,
//! run as a user would (the built binary, a temporary HOME, a cleared environment): the names
//! `detect --json` must propose, must mark required, and must leave out.

mod common;

/// The secret names and required ones of a fixture, from `detect --json`.
fn secrets_of(name: &str) -> (Vec<String>, Vec<String>) {
    let json: serde_json::Value =
        serde_json::from_str(&common::run_detect(&common::fixture("detect").join(name), "--json").stdout)
            .expect("--json prints JSON");
    let names = json["secrets"].as_array().expect("secrets").iter().filter_map(|s| s.as_str().map(String::from));
    let required = json["secret_details"]
        .as_array()
        .expect("secret_details")
        .iter()
        .filter(|d| d["required"].as_bool() == Some(true))
        .filter_map(|d| d["name"].as_str().map(String::from));
    (names.collect(), required.collect())
}

/// Each class of secret evidence (issue 25): the names that must be proposed, the ones that
/// must be required, and the ones that must not appear at all.
#[test]
fn secret_classes_keep_credentials_and_leave_out_settings() {
    // (fixture, names that must be proposed, names that must be required, names that must not appear)
    type Case<'a> = (&'a str, &'a [&'a str], &'a [&'a str], &'a [&'a str]);
    let cases: &[Case] = &[
        // viper set up in cobra's `cmd/root.go` (`SetEnvPrefix`, `AutomaticEnv`) reads the
        // struct another file unmarshals under its prefix; the struct is the one of the
        // package the parameter names.
        (
            "secrets-go-viper-cobra",
            &["METERD_SPONSORTOKEN", "METERD_INFLUX_TOKEN", "METERD_INFLUX_PASSWORD"],
            &[],
            &["METERD_INTERVAL", "METERD_INFLUX_USER", "METERD_APIKEY", "SPONSORTOKEN", "INFLUX_TOKEN"],
        ),
        // Invenio's invenio.cfg: invenio-config reads each key as INVENIO_<KEY>; the keys left
        // to give (a stand-in, None, a dict of stand-ins), a database URI with a password and a
        // credential the file gives its development value are the deployment's to set.
        (
            "secrets-python-invenio",
            &[
                "INVENIO_SECRET_KEY",
                "INVENIO_SQLALCHEMY_DATABASE_URI",
                "INVENIO_ORCID_APP_CREDENTIALS",
                "INVENIO_METRICS_API_KEY",
                "INVENIO_STATS_API_TOKEN",
            ],
            &[],
            &["INVENIO_SITE_UI_URL", "INVENIO_THEME_FRONTPAGE_TITLE", "SECRET_KEY"],
        ),
        // A Python read through a constant another module of the project defines
        // (`from app.const import PLUS_ENV_VAR`) reads the constant's value; a constant two
        // modules define apart names nothing.
        (
            "secrets-python-name-constants",
            &["CAMWATCH_PLUS_API_KEY", "CAMWATCH_JWT_SECRET"],
            &[],
            &["CAMWATCH_MODE", "RELAY_TOKEN", "BRIDGE_TOKEN", "RELAY_TOKEN_VAR", "PLUS_ENV_VAR"],
        ),
        // Rust the same way: `std::env::var(vars::SIGNING_KEY)` with the constant in another
        // crate of the workspace, or in this file behind its module's path.
        (
            "secrets-rust-name-constants",
            &["PASTE_PASSWORD_SALT", "PASTE_SIGNING_KEY"],
            &[],
            &["PASTE_ADDRESS_PORT", "PASTE_RELAY_TOKEN", "SIGNING_KEY", "PASSWORD_SALT"],
        ),
        // ASP.NET Core reads every appsettings key from the environment (`__` between sections,
        // under the project's `AddEnvironmentVariables` prefix): the credential keys the file
        // leaves to give, and a credential key with its development value, are secrets, never
        // required; other keys with values, and other environments', the browser's and the
        // tests' files, are not.
        (
            "secrets-dotnet-appsettings",
            &[
                "VAULT_GlobalSettings__SqlServer__ConnectionString",
                "VAULT_GlobalSettings__Mail__SmtpPassword",
                "VAULT_GlobalSettings__IdentityServer__ClientSecret",
                "VAULT_GlobalSettings__Stripe__ApiKey",
                "VAULT_GlobalSettings__Yubico__Key",
                "VAULT_GlobalSettings__DataProtection__EncryptionKey",
                "VAULT_GlobalSettings__Storage__AzureStorage",
            ],
            &[],
            &[
                "VAULT_GlobalSettings__Mail__SmtpUsername",
                "VAULT_GlobalSettings__IdentityServer__CertificateThumbprint",
                "VAULT_GlobalSettings__Stripe__PublishableKey",
                "VAULT_GlobalSettings__Attachment__BaseDirectory",
                "VAULT_GlobalSettings__Storage__VaultUri",
                "VAULT_GlobalSettings__Telemetry__InstrumentationKey",
                "VAULT_GlobalSettings__Yubico__ClientId",
                "VAULT_GlobalSettings__Sentry__Dsn",
                "VAULT_ConnectionStrings__Cache",
                "Analytics__ApiKey",
                "VAULT_Analytics__ApiKey",
                "Admin__Password",
                "VAULT_Admin__Password",
            ],
        ),
        // A parser named for the type it returns makes a flag or a number of the value, whether
        // its call opens on the line before the read or it is the env helper itself; a pydantic
        // `HttpUrl` is an address; a word after the credential names what holds it.
        (
            "secrets-typed-by-parser",
            &["STRIPE_SECRET_KEY", "MAILER_PASSWORD", "API_TOKEN"],
            &[],
            &[
                "APP_EXPERIMENTAL_SECURE_TOKEN",
                "APP_MAX_TOKENS",
                "PREVENT_FORGOT_PASSWORD",
                "ENVIRONMENTS_API_KEY_TABLE_NAME_DYNAMO",
                "SENTRY_DSN",
                "PUBLIC_API_URL",
            ],
        ),
        // The project's own type of its environment (`interface EnvVariables`): its upper-case
        // members are the variables it parses; a `boolean` or `number` one is a setting.
        (
            "secrets-node-env-type",
            &["MAILER_AUTH_PASSWORD", "LDAP_1_BIND_PW", "STRIPE_SECRET_KEY"],
            &[],
            &["APP_BASE_URL", "DB_AUTO_MIGRATION", "SESSION_TOKEN_TTL"],
        ),
        // What an SDK reads by itself when its client is made without the value (`new
        // OpenAI()`, `@vercel/blob`'s `put`); none where the code gives it.
        (
            "secrets-node-sdk-defaults",
            &["OPENAI_API_KEY", "BLOB_READ_WRITE_TOKEN", "CLAUDE_KEY"],
            &[],
            &["ANTHROPIC_API_KEY"],
        ),
        // Elixir's deferred reads: `{System, :get_env, ["X"]}` as `{:system, "X"}`.
        (
            "secrets-elixir-deferred",
            &["GOOGLE_LOGIN_CLIENT_SECRET", "SENDGRID_API_KEY"],
            &[],
            &["GOOGLE_LOGIN_CLIENT_ID"],
        ),
        // Rails' master key opens the encrypted credentials a checkout commits: an engine (or
        // an app) with none needs no key, whatever its code asks of the credentials.
        ("secrets-rails-engine", &["SHOP_PREFERENCES_MASTER_KEY"], &[], &["RAILS_MASTER_KEY"]),
        ("secrets-rails-credentials", &["RAILS_MASTER_KEY", "SMTP_PASSWORD"], &[], &[]),
        // CI's secret store is no evidence by itself and never makes a name required.
        (
            "secrets-ci-not-required",
            &["DATABASE_URL", "STRIPE_SECRET_KEY"],
            &["DATABASE_URL"],
            &[
                "DEFAULT_LLM_MODELS",
                "BEDROCK_REGION",
                "GOOGLE_CLIENT_ID",
                "ENABLE_BETA_INBOX",
                "E2E_TEST_EMAIL",
                "SAUCE_ACCESS_KEY",
            ],
        ),
        // A value typed or exemplified as a flag, number, duration, list or schedule is a setting.
        (
            "secrets-typed-settings",
            &["API_TOKEN", "SESSION_SECRET", "JWT_SECRET", "WEBHOOK_SECRET"],
            &["JWT_SECRET"],
            &[
                "LIVE_DELETE_TOKEN_AFTER",
                "RESET_PASSWORD_WITHIN",
                "AUTOSPAM_IGNORED_TOKENS",
                "SESSION_TOKEN_ROTATION",
                "PROXY_AUTH",
                "EMAIL_TOKEN_DIGITS",
                "MAX_TOKENS",
                "REFRESH_TOKEN",
            ],
        ),
        // A config module's env helpers, called from runtime.exs, read what they are given;
        // their names say what the value is (`cookie!` a credential, `boolean!` a setting). A
        // fetch under a test that the variable is set needs nothing.
        (
            "secrets-elixir-runtime",
            &["SHOP_SESSION_SALT", "SHOP_DISTRIBUTION", "SHOP_WEBHOOK_SECRET", "STRIPE_API_KEY", "SHOP_LEDGER_TOKEN"],
            &["DATABASE_URL", "SHOP_WEBHOOK_SECRET", "STRIPE_API_KEY"],
            &["SHOP_AWS_CREDENTIALS", "SHOP_VAULT_TOKEN"],
        ),
        // Production-only blocks (`config_env() == :prod and …`, `in [:prod]`, a `:prod ->`
        // branch) and blocks under a test of another variable need nothing to start; helpers
        // take the name second (`get_var(config_dir, "X")`) or are anonymous (`get_env.("X")`);
        // an authentication method's word is a setting; a `@moduledoc` example is no read.
        (
            "secrets-elixir-conditions",
            &[
                "SIGNING_SECRET",
                "BILLING_API_KEY",
                "MAILER_API_KEY",
                "OAUTH_CLIENT_SECRET",
                "PAGER_INTEGRATION_KEY",
                "QUEUE_SECRET_ACCESS_KEY",
                "SMTP_PASSWORD",
            ],
            &["SIGNING_SECRET"],
            &["SMTP_AUTH", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
        ),
        // Dotenvy's `env!("X", :type)` fails without the variable, with a default it is optional;
        // a number, boolean or module type is a setting; a production-only read needs nothing.
        (
            "secrets-elixir-dotenvy",
            &[
                "DATABASE_URL",
                "SECRET_KEY_BASE",
                "CLOAK_KEY",
                "PAYMENTS_API_KEY",
                "PAYMENTS_WEBHOOK_SECRET",
                "SMTP_PASSWORD",
                "ANALYTICS_API_KEY",
            ],
            &["DATABASE_URL", "SECRET_KEY_BASE", "CLOAK_KEY"],
            &["POOL_SIZE", "DATABASE_SSL", "PORT", "PHX_HOST", "PAYMENTS_TOKEN_TTL", "MAX_TOKENS", "MAILER_ADAPTER"],
        ),
        // joi keys are optional unless `.required()` (and then only when a `Joi.when` holds);
        // convict reads each property's `env`, requires a `default: null` it validates, and a
        // `sensitive: true` value is a secret whatever its name; znv takes zod's rules. A
        // request body's joi schema reads nothing.
        (
            "secrets-node-joi-convict",
            &[
                "DATABASE_URL",
                "JWT_SECRET",
                "STRIPE_SECRET_KEY",
                "GITHUB_CLIENT_SECRET",
                "MAILER_CREDENTIAL",
                "SMTP_PASSWORD",
                "SEARCH_API_KEY",
            ],
            &["DATABASE_URL", "JWT_SECRET", "MAILER_CREDENTIAL", "SEARCH_API_KEY"],
            &[
                "NODE_ENV",
                "PORT",
                "SESSION_TOKEN_TTL",
                "ENABLE_SIGNUP",
                "LOGIN_PASSWORD",
                "QUEUE_CONCURRENCY",
                "MAILER_RETRY_TOKENS",
                "ADMIN_EMAILS",
                "SEARCH_TIMEOUT_MS",
            ],
        ),
        // anyway_config reads each attribute under its class's config name (`StripeConfig`:
        // `STRIPE_`, a `Config` class under its module's); `required` requires one unless it
        // names environments, a flag or number default is a setting, a hash default is nested.
        // figaro's `Figaro.env.x` reads `X`; `require_keys` (figaro's, dotenv's) and `x!` require.
        (
            "secrets-ruby-settings-libraries",
            &["PUSHER_SECRET", "STRIPE_API_KEY", "STRIPE_WEBHOOK_SECRET", "MAILER_SMTP_PASSWORD", "SESSION_SECRET"],
            &["PUSHER_SECRET", "STRIPE_API_KEY", "SESSION_SECRET", "DATABASE_URL"],
            &[
                "API_KEY",
                "SMTP_PASSWORD",
                "STRIPE_TIMEOUT",
                "STRIPE_ENABLED",
                "MAILER_RETRY_TOKENS",
                "MAILER_DELIVERY",
                "MAILER_PORT",
                "PUSHER_TLS",
            ],
        ),
        // vlucas/phpdotenv: `required` stops the app without the names, `ifPresent` checks one
        // only when set, and an integer, boolean or allowed-values check is a setting's.
        (
            "secrets-php-dotenv",
            &["APP_SECRET", "DB_PASS", "MAILGUN_SECRET"],
            &["APP_SECRET", "DB_PASS"],
            &["CACHE_TTL", "SESSION_STORE", "SIGNUP_TOKENS_ENABLED", "DB_HOST"],
        ),
        // Vapor's `%Env{bindings: […]}`: `Vapor.load!` stops the boot without a binding unless
        // it gives a default or says `required: false`; a number or atom `map:` is a setting's,
        // and a `@moduledoc` example binds nothing.
        (
            "secrets-elixir-vapor",
            &["DATABASE_URL", "RELAY_SIGNING_SECRET", "WEBHOOK_SECRET"],
            &["DATABASE_URL", "RELAY_SIGNING_SECRET"],
            &["PORT", "LOG_LEVEL", "MAX_TOKENS", "EXAMPLE_TOKEN"],
        ),
        // kingpin's `.Envar("X")`: `.Required()` needs it, `.Default(…)` does without, a typed
        // flag (`Duration()`, `Int()`) or one whose help names a location is a setting, and a
        // help that names a credential marks one whatever its name.
        (
            "secrets-go-kingpin",
            &["DB_PASSWORD", "UPSTREAM_API_KEY", "BROKER_AUTH"],
            &["DB_PASSWORD"],
            &["LISTEN_ADDRESS", "SCRAPE_TIMEOUT", "MAX_TOKENS", "TLS_KEY_FILE"],
        ),
        // environs' `with env.prefixed("MYAPP_"):` puts its prefix before every read inside,
        // nested blocks outer prefix first.
        (
            "secrets-python-environs-prefixed",
            &["MYAPP_SECRET_KEY", "MYAPP_DB_PASSWORD", "MAIL_API_KEY"],
            &["MYAPP_SECRET_KEY", "MYAPP_DB_PASSWORD"],
            &["SECRET_KEY", "PASSWORD", "DB_PASSWORD", "MYAPP_PASSWORD", "MYAPP_DEBUG"],
        ),
        // @fastify/env (env-schema) checks the environment against a JSON Schema: a property is
        // required when `required` lists it without a default, and a number, integer, boolean
        // or enum is a setting's.
        (
            "secrets-node-env-schema",
            &["DATABASE_URL", "JWT_SECRET", "SMTP_PASSWORD"],
            &["DATABASE_URL", "JWT_SECRET"],
            &["PORT", "LOG_LEVEL", "RATE_LIMIT_TOKENS"],
        ),
        // The env files of a test suite configure the suite, load tests' too, and their code
        // is no app's; an env file CI runs with backs what the app reads and adds nothing.
        (
            "secrets-test-suite-env",
            &["SESSION_SECRET", "DATABASE_URL", "MAIL_PASSWORD"],
            &[],
            &[
                "TEST_USER_PASSWORD",
                "ADMIN_PASSWORD",
                "KEYCLOAK_ADMIN_PASSWORD",
                "WEBHOOK_SIGNING_SECRET",
                "ANALYTICS_API_KEY",
                "SEARCH_API_KEY",
                "LOAD_USER_PASSWORD",
                "LOAD_API_TOKEN",
                "TARGET_API_KEY",
                "LOCUST_ADMIN_PASSWORD",
                "STRESS_DB_PASSWORD",
            ],
        ),
        // A field a validator builds from other fields is not read.
        (
            "secrets-computed-fields",
            &["POSTGRES_PASSWORD", "REDIS_PASSWORD"],
            &["POSTGRES_PASSWORD"],
            &["POSTGRES_URI", "REDIS_CACHE_URL", "CACHE_TOKEN_TTL"],
        ),
        // The prefix the settings library applies is part of the name; a library that loads a
        // whole prefix (koanf) claims what compose gives under it.
        (
            "secrets-go-prefixes",
            &["SHOP_API_SECRET", "SHOP_SMTP_PASSWORD", "STORE_DATABASE_PASSWORD", "MAILER_smtp__password"],
            &["SHOP_API_SECRET", "STORE_DATABASE_PASSWORD"],
            &[
                "API_SECRET",
                "APISECRET",
                "DATABASE_PASSWORD",
                "SHOP_TOKEN_TTL",
                "STORE_POOL_MAX_TOKEN_LIFETIME",
                "MAILER_smtp__host",
                "UNRELATED_PASSWORD",
            ],
        ),
        // Compose: `${X:?}` refuses to start without X; a backing service's credential passed on
        // bare (`${LOCALSTACK_AUTH_TOKEN}`) is the developer's to give; one with a default is not.
        (
            "secrets-compose-placeholders",
            &["POSTGRES_PASSWORD", "SECRET_KEY", "LOCALSTACK_AUTH_TOKEN"],
            &["DATABASE_URL", "FIRST_SUPERUSER_PASSWORD", "POSTGRES_PASSWORD", "SECRET_KEY"],
            &["MINIO_PASSWORD", "MINIO_ROOT_PASSWORD"],
        ),
        // A Rails `ENV.fetch` under a feature's condition requires nothing to start.
        ("secrets-ruby-rails", &["STRIPE_SECRET_KEY", "OIDC_CLIENT_SECRET"], &["STRIPE_SECRET_KEY"], &[]),
        // A Gradle test source set (`src/contractTest`) configures its suite, not the app; a
        // translated ResourceBundle (`storefront.properties` beside `storefront_fr.properties`)
        // holds a page's words; a key Maven's filtering fills (`x.password=${x.password}`) is
        // still to give.
        (
            "secrets-spring",
            &["DB_PASSWORD", "STRIPE_SECRET_KEY", "MAIL_SMTP_PASSWORD"],
            &["APP_JWT_SECRET", "DB_PASSWORD", "STRIPE_SECRET_KEY"],
            &["CW_PWD", "PACT_BROKER_URL", "MENU_CHANGEPASSWORD", "LABEL_APIKEY", "MAIL_SMTP_PORT", "MAIL_SMTP_HOST"],
        ),
        // viper under `SetEnvPrefix` + `AutomaticEnv`: its defaults' keys and the struct it
        // unmarshals, named as its key replacer says; a typed default is a setting. Keys may be
        // constants of a string type whose methods hand them to viper (`string(k)`); a number
        // default or getter makes one a setting.
        (
            "secrets-go-viper",
            &[
                "MEDIA_PASSWORDENCRYPTIONKEY",
                "MEDIA_LASTFM_APIKEY",
                "MEDIA_LASTFM_SECRET",
                "MEDIA_SMTP_PASSWORD",
                "WORKER_API_TOKEN",
                "TRACKER_SERVICE_SECRET",
                "TRACKER_MAILER_PASSWORD",
                "TRACKER_STORAGE_S3_SECRETKEY",
                "TRACKER_TELEMETRY_TOKEN",
            ],
            &[],
            &[
                "MEDIA_TLSKEY",
                "MEDIA_PORT",
                "MEDIA_SMTP_HOST",
                "MEDIA_INTERNALSECRET",
                "WORKER_SMTP_PASSWORD",
                "WORKER_SMTP.PASSWORD",
                "TRACKER_SERVICE_PUBLICURL",
                "TRACKER_SERVICE_JWTTTL",
                "TRACKER_MAILER_ENABLED",
                "TRACKER_RATELIMIT_TOKENS",
            ],
        ),
        // Vapor's `Environment.get` and `.env.*.template` files are read, and the project's env
        // helpers (`func env(_ key: String)`) wherever they are called. The testing template is
        // a test run's: its names back the app's reads, its fixtures are none of the app's.
        (
            "secrets-vapor-templates",
            &[
                "DATABASE_PASSWORD",
                "SENDGRID_API_KEY",
                "GITHUB_WEBHOOK_SECRET",
                "DISCORD_BOT_TOKEN",
                "OAUTH_CLIENT_SECRET",
            ],
            // `static let botToken = env(…)` runs when first used: not at start.
            &["DATABASE_PASSWORD"],
            &["DATABASE_HOST", "ACCOUNT_LINKING_PUB_KEY", "FIXTURE_USER_PASSWORD"],
        ),
        // Static properties are lazy; `Self.get` in an `extension Environment` is Vapor's read.
        (
            "secrets-swift-lazy-statics",
            &["MAILER_API_KEY", "APNS_PRIVATE_KEY", "BOT_TOKEN", "SO_API_KEY", "JWT_SECRET", "SLACK_SIGNING_SECRET"],
            &["MAILER_API_KEY"],
            &["APNS_KEY_ID"],
        ),
        // urfave/cli flags: the flag's type, usage, default and `Required` say what each is.
        (
            "secrets-go-urfave-cli",
            &["PIPES_AGENT_SECRET", "PIPES_FORGE_SECRET", "PIPES_GITHUB_SECRET", "PIPES_LICENSE_TOKEN", "PIPES_TOKEN"],
            &["PIPES_LICENSE_TOKEN"],
            &[
                "PIPES_AGENT_SECRET_FILE",
                "PIPES_SERVER_KEY",
                "PIPES_SECRET_EXTENSION_NETRC",
                "PIPES_TOKEN_TTL",
                "PIPES_PULL_SECRET_NAMES",
                "PIPES_SERVER",
            ],
        ),
        // appsettings keys in the project's letter case; an AppHost-given Aspire parameter.
        (
            "secrets-dotnet-settings-spelling",
            &[
                "IDENTITY__ADMINPASSWORD",
                "IDENTITY__ADMINCLIENTSECRET",
                "EMAIL__SMTP__PASSWORD",
                "Parameters__openai_key",
                "IDENTITY__GOOGLESECRET",
            ],
            &[],
            &["IDENTITY__ADMINEMAIL", "identity__adminPassword", "Parameters__db_password"],
        ),
        // .NET options classes bound to a section: each property is `Section__Property`; a
        // `[Required]` one stops the app where the binding validates DataAnnotations, unless a
        // development settings file gives it; an unvalidated one counts, optional, when it names
        // a credential; typed properties are settings.
        (
            "secrets-dotnet-options",
            &[
                "Payments__Stripe__ApiKey",
                "Payments__Stripe__WebhookSecret",
                "Auth__ClientSecret",
                "Mail__Smtp__Password",
                "Auth__JwtSigningKey",
                "Mail__Smtp__ApiToken",
                "StorageOptions__SecretKey",
            ],
            &["Payments__Stripe__ApiKey", "Payments__Stripe__WebhookSecret", "Auth__ClientSecret"],
            &[
                "Payments__Stripe__PublishableKey",
                "Payments__Stripe__Currency",
                "Payments__Stripe__TokenCacheSeconds",
                "Payments__Stripe__PasswordResetWithin",
                "Auth__Authority",
                "Mail__Smtp__Username",
            ],
        ),
        // MicroProfile (Quarkus) overrides each key by its upper-cased name, every other
        // character `_`: a credential key left empty, a stand-in or its development value is one
        // to give; one read from a placeholder is not; another profile's `%prod.` keys are not read.
        (
            "secrets-microprofile-properties",
            &["QUARKUS_DATASOURCE_PASSWORD", "DT_PAYMENTS_API_KEY", "SMTP_PASSWORD", "DT_PAYMENTS_WEBHOOK_SECRET"],
            &["SMTP_PASSWORD"],
            &[
                "QUARKUS_DATASOURCE_USERNAME",
                "QUARKUS_DATASOURCE_JDBC_URL",
                "DT_PAYMENTS_TOKEN_TTL",
                "DT_MAIL_SMTP_PASSWORD",
                "PAYMENTS_API_KEY",
            ],
        ),
        // pydantic-settings' nested models under `env_nested_delimiter`, the prefix once in
        // front: a model's fields, required only where the model field is too.
        (
            "secrets-python-nested-settings",
            &["SHOP_DB__PASSWORD", "SHOP_PAYMENTS__STRIPE__SECRET_KEY", "SHOP_MAIL__API_KEY"],
            &["SHOP_DB__PASSWORD", "SHOP_PAYMENTS__STRIPE__SECRET_KEY"],
            &[
                "SHOP_DB",
                "SHOP_PAYMENTS",
                "SHOP_MAIL",
                "SHOP_PAYMENTS__STRIPE__PUBLISHABLE_KEY",
                "SHOP_PAYMENTS__RETRY__MAX_ATTEMPTS",
                "PASSWORD",
                "SECRET_KEY",
                "API_KEY",
            ],
        ),
        // kingpin's `DefaultEnvars()` reads every flag without an envar of its own from
        // `<APP>_<FLAG>`; typed and address flags are settings, `NoEnvar()` reads none.
        (
            "secrets-go-kingpin-default-envars",
            &["RELAY_DB_PASSWORD", "RELAY_SIGNING_SECRET", "UPSTREAM_API_KEY"],
            &["RELAY_DB_PASSWORD"],
            &[
                "RELAY_LISTEN_ADDRESS",
                "RELAY_TOKEN_TTL",
                "RELAY_VERBOSE",
                "RELAY_UPSTREAM_KEY",
                "RELAY_ADMIN_PASSWORD",
                "DB_PASSWORD",
            ],
        ),
        // peterbourgon/ff reads each flag from `PREFIX_NAME`; typed and path flags are settings.
        (
            "secrets-go-ff-flags",
            &["RELAY_SESSION_SECRET", "RELAY_UPSTREAM_API_KEY"],
            &[],
            &["RELAY_LISTEN_ADDR", "RELAY_DEBUG", "RELAY_TLS_KEY"],
        ),
        // MicroProfile's `@ConfigProperty` binds its key's upper-cased name.
        (
            "secrets-quarkus-config-property",
            &["MAILER_API_KEY"],
            &["MAILER_API_KEY"],
            &["MAILER_FROM", "MAILER_RETRIES"],
        ),
        // HOCON: `${?X}` keeps the earlier value without the variable; `${X}` does not resolve.
        ("secrets-ktor-hocon", &["DATABASE_PASSWORD", "JWT_SECRET"], &["DATABASE_PASSWORD"], &["PORT"]),
        // Compose files in a `docker` folder, known by their content, spell the derived name.
        (
            "secrets-docker-folder-compose",
            &["STORE_SECURITY_JWT_BASE64_SECRET"],
            &["STORE_SECURITY_JWT_BASE64_SECRET"],
            &["SPRING_DATASOURCE_URL", "POSTGRES_USER"],
        ),
        // A string constant names the variable; a typed number is a setting; the project's
        // own helpers (`maybe_env("X")`, through `require_env`) read what they are given, and an
        // imported `std::env::var` read bare is a read.
        (
            "secrets-rust-clap",
            &[
                "MEILI_MASTER_KEY",
                "STATS_GITHUB_ACCESSTOKEN",
                "STATS_REGISTRY_WEBHOOK_SECRET",
                "STORAGE_SECRET_ACCESS_KEY",
            ],
            &["APP_STRIPE_SECRET_KEY", "DATABASE_URL", "HMAC_KEY", "JWT_SECRET", "LDAP_JWT_SECRET", "LDAP_KEY_SEED"],
            &["MASTER_KEY_ENV", "REFRESH_TOKEN_MAX_AGE_SECS", "NOT_A_VARIABLE_TOKEN"],
        ),
        // A Rust server's settings file (`server.toml`) gives the keys the config crate
        // overrides under its prefix: a credential key left to give (commented out with an
        // example that holds a password, empty, its development value) is a variable; other
        // keys with values are not.
        (
            "secrets-rust-settings-file",
            &["SHOP_DB_URI", "SHOP_API_TOKEN", "SHOP_SIGNING_KEY"],
            &[],
            &["SHOP_HOST", "SHOP_LOG_LEVEL", "SHOP_TOKEN", "DB_URI", "API_TOKEN"],
        ),
        // A template's comment or stand-in says the value is a credential (not one that says
        // the setting uses credentials given elsewhere), and a `required` that marks the entry
        // makes it required (not one in a sentence about another).
        (
            "secrets-documented-credential",
            &["DUO_SKEY", "PROVIDER_SIGNATURE", "MAPS_API_KEY", "SESSION_SIGNING_SECRET"],
            &["SESSION_SIGNING_SECRET"],
            &["DUO_IKEY", "DUO_HOST", "SHOW_PASSWORD_HINT", "API_KEY_HEADER", "CDN_DISTRIBUTION_ID_INDEX"],
        ),
        // What surrounds a read: its own default or number parser, the block it sits in (an
        // `if`, a fallback), a field built from others, a command run by hand, production-only
        // settings, a deployment's env file, CI's compose file, a .NET test project, a test
        // run's dummy values; an algorithm name; a webhook URL that carries no token; a URL
        // whose password is given apart; a script's credential no env file asks for.
        (
            "secrets-read-context",
            &[
                "STRIPE_API_KEY",
                "AWS_SECRET_ACCESS_KEY",
                "SECRET_KEY",
                "SLACK_WEBHOOK_URL",
                "DJANGO_SUPERUSER_PASSWORD",
                "REDIS_PASSWORD",
                "PAYMENTS_API_TOKEN",
                "PREVIEW_API_KEY",
                "CLICKHOUSE_PASSWORD",
                "GATEWAY_API_KEY",
            ],
            &["STRIPE_API_KEY"],
            &[
                "ATHENA_OPTIONAL_CREDENTIALS",
                "AUTOSPAM_IGNORED_TOKENS",
                "OIDC_ID_TOKEN_SIGNED_RESPONSE_ALG",
                "NOTIFY_WEBHOOK_URL",
                "REDIS_CACHE_URL",
                "POSTGRES_PASSWORD",
                "PERCY_TOKEN",
                "SHOP_CLIENT_TOKEN",
                "UPTIME_MONITOR_API_KEY",
                "CLICKHOUSE_URL",
                "TRANSLATE_LLM_API_KEY",
            ],
        ),
        // A zod schema checked with `safeParse` is required only when a failure stops the app
        // as it loads; `z` and `.object` may sit on lines of their own.
        (
            "secrets-node-schemas",
            &["SESSION_SIGNING_SECRET", "SEARCH_API_KEY", "BILLING_SECRET_KEY", "CHAT_CLIENT_SECRET"],
            &[
                "DATABASE_URL",
                "DIRECT_DATABASE_URL",
                "JOBS_SIGNING_KEY",
                "NEXTAUTH_SECRET",
                "OPENAI_API_KEY",
                "QUEUE_API_TOKEN",
                "SESSION_SIGNING_SECRET",
            ],
            &[],
        ),
        // A settings class of another file is a settings class's subclass too: its fields are
        // read as a settings base without a prefix names them; any other base's are not. The
        // groups a settings class inherits from are its fields (Lightning's macaroons and runes
        // are credentials by name).
        (
            "secrets-python-settings-bases",
            &[
                "SERVER_SECRET",
                "ADMIN_PASSWORD",
                "LDAP_BIND_PASSWORD",
                "LND_REST_MACAROON",
                "LND_REST_MACAROON_ENCRYPTED",
                "CLNREST_INVOICE_RUNE",
            ],
            &["SERVER_SECRET"],
            &["CLIENT_TOKEN", "STRIPE_SECRET", "DEBUG_TOKEN_LOGGING", "LND_REST_CERT", "PAYOUT_TOKEN"],
        ),
        // A configparser whose interpolation falls back to the variable of an option's name
        // makes the options the code asks it for settable; a plain parser keeps to its file. A
        // request handler's read is needed only when a request comes.
        (
            "secrets-python-settings",
            &["UPLOAD_SECRET", "MAIL_PASSWORD", "ADMIN_TOKEN", "OAUTH_CLIENT_SECRET", "HOOK_SIGNING_KEY"],
            &[
                "APP_DATABASE_URL",
                "APP_REDIS_PASSWORD",
                "APP_SECRET_KEY",
                "APP_STRIPE_API_KEY",
                "DJANGO_SECRET_KEY",
                "SENDGRID_API_KEY",
                "SHOP_PAYPAL_SECRET",
                "STRIPE_WEBHOOK_SECRET",
                "WEBHOOK_SECRET",
            ],
            &["MAIL_USE_TOKEN", "LOG_SECRET", "MAIL_HOST"],
        ),
        // A settings field whose default names a constant (`LLM_KEY: str = "OPENAI_GPT4O"`)
        // picks a registry entry by its key, and so do the fields that qualify its name
        // (`EXTRACTION_LLM_KEY`); a stand-in default (`PLACEHOLDER`, `CHANGE_ME`), a credential's
        // words in it, or a `SecretStr` keep a credential one.
        (
            "secrets-python-registry-keys",
            &[
                "AGENT_LLM_API_KEY",
                "AGENT_SECRET_KEY",
                "AGENT_SIGNING_KEY",
                "AGENT_SESSION_KEY",
                "AGENT_OPENAI_API_KEY",
                "AGENT_BACKUP_LLM_KEY",
            ],
            &[],
            &[
                "AGENT_LLM_KEY",
                "AGENT_EXTRACTION_LLM_KEY",
                "AGENT_PLANNER_LLM_KEY",
                "AGENT_VISION_MODEL_KEY",
                "AGENT_DOWNLOAD_PARAMETER_KEY",
            ],
        ),
        // The build says which library binds `application.properties`: SmallRye Config (a
        // dash is `_`) in one module, Spring Boot (a dash dropped) in another.
        (
            "secrets-microprofile-build",
            &["TRACKER_LDAP_BIND_PASSWORD", "TRACKER_POLICY_BUNDLE_AUTH_BEARER_TOKEN", "WEB_MAIL_SMTPPASSWORD"],
            &[],
            &[
                "TRACKER_LDAP_BINDPASSWORD",
                "TRACKER_LDAP_BIND_USERNAME",
                "TRACKER_MAIL_SMTP_PORT",
                "WEB_MAIL_SMTP_PASSWORD",
            ],
        ),
        // Effect's `Config.redacted` declares a secret; `Config.number`/`boolean` type settings.
        (
            "secrets-node-effect-config",
            &["WORKFLOWS_DATABASE_URL", "MAPS_LICENCE"],
            &[],
            &["WORKFLOWS_RPC_URL", "MAX_TOKENS", "USE_AUTH_TOKEN", "PUBLIC_HOST"],
        ),
        // A helper called once per setting: the 111th call still counts; one returning a number
        // reads a setting.
        (
            "secrets-rust-helper-calls",
            &["EVENT_MATRIX_ACCESS_TOKEN"],
            &[],
            &["PAM_REMOTE_PASSWORD_LEN", "EVENT_SLACK_CHANNEL", "TUNING_KNOB_1"],
        ),
        // Konfig's schema: a group's and an attribute's names joined; numbers, flags, arrays are settings.
        (
            "secrets-ruby-konfig",
            &["MAIN_DB_PASSWORD", "OIDC_SECRET"],
            &[],
            &["MAIN_DB_HOST", "MAIN_DB_PORT", "OIDC_IDENTIFIER", "OIDC_SCOPES", "SMTP_USE_TOKEN_AUTH"],
        ),
        // A Python function of another module over `os.environ` (`get_secret("X", default)`):
        // its calls are reads; its name marks nothing (it reads the database host too).
        (
            "secrets-python-env-helper-module",
            &["LEDGER_DB_PASSWORD", "STRIPE_API_KEY"],
            &[],
            &["LEDGER_DB_HOST", "LEDGER_DB_PORT", "LEDGER_DB_USER"],
        ),
        // NestJS's ConfigService asked by a constant: one of the file, or a member of the
        // class the file imports (`Env.JWT_SECRET`); `getOrThrow` requires it.
        (
            "secrets-nest-config-constants",
            &["GITHUB_CLIENT_SECRET", "GITLAB_CLIENT_SECRET", "JWT_SECRET"],
            &["JWT_SECRET"],
            &["CLIENT_HOST", "GITLAB_CLIENT_ID"],
        ),
        // Django: `manage.py` runs development on `settings.local`; a sibling module it does not
        // import (`hosted.py`) is another deployment's, whose reads development never needs.
        (
            "secrets-django-deployment-settings",
            &["DJANGO_SECRET_KEY", "EMAIL_HOST_PASSWORD", "MAPS_API_KEY"],
            &["MAPS_API_KEY"],
            &[],
        ),
        // Elixir's `{:system, "X"}` tuples (Phoenix, Ecto, Confex, also typed: `{:system, :string,
        // "X"}`; a number type is a setting); `prod.secret.exs` is production's. A release's
        // `vm.args.eex` reads the node's cookie when it boots (a commented line reads nothing);
        // a key phrase is key material, a mail's sender an address.
        (
            "secrets-elixir-system-tuples",
            &[
                "SECRET_KEY_BASE",
                "RELAY_WEBHOOK_SECRET",
                "FORGE_CLIENT_SECRET",
                "CIPHER_SECRET",
                "ERLANG_COOKIE",
                "CIPHER_IVPHRASE",
            ],
            &[],
            &[
                "PORT",
                "FORGE_API_URL",
                "CIPHER_SECRET_ROUNDS",
                "NODE_NAME",
                "RETIRED_COOKIE",
                "MAILER_CREDENTIALS_INVITATION_FROM",
            ],
        ),
        // Go's `os.Getenv(BootstrapPassword)` of a string constant of the file reads its value.
        (
            "secrets-go-getenv-constant",
            &["LEDGER_BOOTSTRAP_PASSWORD", "LEDGER_BOOTSTRAP_API_KEY"],
            &[],
            &["LEDGER_LISTEN_ADDRESS"],
        ),
        // A Ruby project's own methods over `ENV` (`AppConfig.get("X")`): a call with a literal
        // name is a read; one that raises without it is required, one in a method on demand.
        (
            "secrets-ruby-env-helpers",
            &["DOCUMENT_VAULT_KEY", "IDS_CIPHER_KEY", "COURIER_API_TOKEN"],
            &["DOCUMENT_VAULT_KEY"],
            &["DOCUMENTS_PER_PAGE", "PREVIEW_ENABLED", "COURIER_ENDPOINT_URL"],
        ),
        // The config crate's separator nests the settings structs (`APP_DATABASE__PASSWORD`);
        // numbers and flags are settings, the secrecy crate's `Secret` fields credentials.
        (
            "secrets-rust-config-nested",
            &["APP_DATABASE__PASSWORD", "APP_APPLICATION__SIGNING_SECRET", "APP_MAILER__API_TOKEN"],
            &[],
            &[
                "APP_DATABASE__USERNAME",
                "APP_DATABASE__PORT",
                "APP_DATABASE__REQUIRE_SSL",
                "APP_MAILER__BASE_URL",
                "APP_MAILER__TIMEOUT_MILLISECONDS",
                "APP_DATABASE",
            ],
        ),
        // Go helpers that hand their string parameter to viper's bind or os.LookupEnv: calls with
        // a variable's name are reads; those returning a flag, number or duration read settings.
        (
            "secrets-go-flag-helpers",
            &["NOTIFIER_HTTP_API_TOKEN", "NOTIFIER_SMTP_PASSWORD", "NOTIFIER_REGISTRY_PASSWORD"],
            &[],
            &[
                "NOTIFIER_DOCKER_HOST",
                "NOTIFIER_POLL_INTERVAL",
                "NOTIFIER_TIMEOUT",
                "NOTIFIER_CLEANUP",
                "NOTIFIER_SMTP_USER",
            ],
        ),
    ];
    for (fixture, must, required, must_not) in cases {
        let (names, required_names) = secrets_of(fixture);
        for name in *must {
            assert!(names.iter().any(|n| n == name), "{fixture}: {name} missing from {names:?}");
        }
        for name in *required {
            assert!(required_names.iter().any(|n| n == name), "{fixture}: {name} not required in {required_names:?}");
        }
        for name in *must_not {
            assert!(!names.iter().any(|n| n == name), "{fixture}: {name} must not be proposed: {names:?}");
        }
        let unexpected: Vec<&String> = required_names.iter().filter(|n| !required.contains(&n.as_str())).collect();
        assert!(unexpected.is_empty(), "{fixture}: required without the app requiring it: {unexpected:?}");
    }
}
