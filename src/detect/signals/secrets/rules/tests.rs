use super::*;

#[test]
fn values_that_make_a_name_a_setting() {
    for (name, value) in [
        ("LIVE_DELETE_TOKEN_AFTER", "true"),
        ("PROXY_AUTH", "off"),
        ("RESET_PASSWORD_WITHIN", "6.hours"),
        ("SESSION_TOKEN_TTL", "15m"),
        ("AUTOSPAM_IGNORED_TOKENS", "spam,ham"),
        ("TOKEN_SCOPES", "[\"read\"]"),
        ("PURGE_AUTH_SCHEDULE", "0 3 * * *"),
        ("EMAIL_TOKEN_SIZE", "6"),
        ("YUBICO_CLIENT_ID", "11111"),
        ("OPENAI_MAX_TOKENS", "4096"),
        ("SMTP_AUTH", "login"),
        ("DASHBOARD_AUTH", "basic_auth"),
        ("TRUSTED_HEADER_AUTH_KEY", "Remote-User"),
        ("PROXY_USER_TOKEN", "X-Forwarded-Access-Token"),
        ("OIDC_URL_ACCESS_TOKEN", "${OIDC_ENDPOINT}/realms/${REALM}/protocol/openid-connect/token"),
        ("JWKS_KEY", "https://id.example.com/.well-known/jwks.json"),
        ("REDIS_LATEST_ID_KEY", "robotoff:product_updates:latest_id"),
    ] {
        assert!(is_setting_value(name, value), "{name}={value}");
    }
    for (name, value) in [
        ("DB_PASSWORD", "123456"),
        ("ADMIN_PIN", "0000"),
        ("API_KEY", ""),
        ("API_KEY", "changeme"),
        ("JWT_SECRET", "nRvyYC4soFxBdZ-F-5Nnzz5USXst"),
        ("DATABASE_URL", "postgres://app:pw@db/app"),
        ("DUO_SKEY", "<Client Secret>"),
        ("ADMIN_RECOVERY_KEY", "wang wang"),
        ("LDAP_PASS", "false"),
        ("AZURE_APP_SECRET", "false"),
        ("DB_ENC_KEY", "1234567890123456"),
        ("BASIC_AUTH", "admin:hunter2"),
        ("BASIC_AUTH", "admin:secret:x9"),
        ("PROXY_AUTH", "Bearer abc123"),
        ("ADMIN_PASSWORD", "Correct-Horse-Battery"),
        ("APP_SECRET", "ThisIsNotSecret"),
        ("PADDLE_API_KEY", "999"),
        ("STRIPE_SECRET_KEY", "0"),
        ("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T0/B0/XXXX"),
        ("SENTRY_KEY", "https://abc123@o1.ingest.sentry.io/1"),
        ("PROVIDER_TOKEN", "https://api.example.com/auth?token=abc"),
    ] {
        assert!(!is_setting_value(name, value), "{name}={value}");
    }
}

#[test]
fn secret_names() {
    for name in [
        "KEY_ENCRYPTION_KEY_PREVIOUS",
        "SLACK_APP_TOKEN",
        "ALGOLIA_ADMIN_APP_KEY",
        "SECRET_KEY_FALLBACKS",
        "JWT_SECRET_OLD",
        "CB_MAIL_PASS_DEV",
        "STRIPE_SECRET_KEY_PROD",
        "APP_KEY",
        "DB_PASSWORD",
        "REDIS_PASSWORD",
        "MEMCACHED_PASSWORD",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_ACCESS_KEY_ID",
        "MAIL_PASSWORD",
        "PUSHER_APP_SECRET",
        "POSTMARK_TOKEN",
        "RESEND_KEY",
        "SLACK_BOT_USER_OAUTH_TOKEN",
        "APP_PREVIOUS_KEYS",
        "SECRET_KEY_BASE",
        "DB_ENC_KEY_GCM",
        "ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY",
        "DATABASE_URL",
        "REDIS_URL",
        "LOG_SLACK_WEBHOOK_URL",
        "SENTRY_DSN",
        "STRIPE_API_KEY",
        "OPENAI_APIKEY",
        "AZURE_STORAGE_CONNECTION_STRING",
        "JWT_PRIVATE_KEY",
        "NPM_AUTH",
        "github_token",
        "COOKIE_SECRET",
        "AVO_LICENSE_KEY",
        "SUPABASE_SERVICE_ROLE_KEY",
        "DATABASE_PASS",
        "GOTRUE_SMTP_PASS",
        "SQL_PWD",
        "LDAP_PASSWD",
        "NEXT_PRIVATE_SIGNING_GCLOUD_APPLICATION_CREDENTIALS_CONTENTS",
        "AI_GOOGLE_CLOUD_CREDENTIALS_JSON",
        "JWT_PRIVATE_KEY_BASE64",
        "GOOGLE_SERVICE_ACCOUNT_JSON",
        "ConnectionStrings__DefaultConnection",
        "SHOP_ConnectionStrings__Orders",
        "Stripe__SecretKey",
        "NEXT_PRIVATE_DOCUMENSO_LICENSE_KEY",
        "PRIVATE_KEY_PEM_PASSPHRASE",
        "CIPHER_KEYPHRASE",
        "DISCORD_BOT_QUERY_TOKEN",
        "PASS_PHRASE",
        "SIGNING_PFX_BASE64",
        "CIPHER_IVPHRASE",
        "ERLANG_COOKIE",
        "PAPERLESS_DBPASS",
        "DATABASE_URL_UNPOOLED",
        "POSTGRES_URL_NON_POOLING",
        "NEXT_PRIVATE_DATABASE_REPLICA_URLS",
        "SMTPPASSWORD",
        "GITHUB_APP_PEM",
        "PRIVATE_KEY_PEM",
        "NEXT_PRIVATE_SIGNING_LOCAL_FILE_CONTENTS",
        "REDIS_TLS_URL",
        "RMQ_URL",
        "LLDAP_KEY_SEED",
        "SERVER_KEY_SEED",
        "WEBAPP_SERVER_SIGNING_SEED",
        "GOTIFY_OIDC_CLIENTSECRET",
        "DOCSRS_GITHUB_ACCESSTOKEN",
        "TWILIO_AUTHTOKEN",
        "FB_APPSECRET",
        "API_KEY_ALPHA_VANTAGE",
        "API_KEY_COINGECKO_PRO",
        "PRIVATE_KEY_GITHUB_APP",
        "LND_REST_MACAROON",
        "LND_GRPC_MACAROON_ENCRYPTED",
        "CLNREST_INVOICE_RUNE",
        "WALLET_MNEMONIC",
        "APP_FILES_S3_SECRETKEY",
        "APP_AUTH_LDAP_BINDPASSWORD",
        "APP_OUTGOING_PROXYPASSWORD",
        "LDAP_1_BIND_PW",
        "BLOB_READ_WRITE_TOKEN",
        "PGPASSWORD",
        "RELEASE_COOKIE",
        "PERIPHERY_PASSKEYS",
        "KOMODO_PASSKEY",
        "META_WEBHOOK_VERIFY_TOKEN",
        "ME_CONFIG_SITE_SESSIONSECRET",
        "ME_CONFIG_SITE_COOKIESECRET",
        "KAFKA_CLUSTERS_0_SSL_TRUSTSTOREPASSWORD",
        "SFTPGO_DATA_PROVIDER__PASSWORD",
        "SFTPGO_KMS__SECRETS__MASTER_KEY",
        "APP_DATA_PROVIDER__CONNECTION_STRING",
        "Prowlarr__Auth__ApiKey",
        "CACHE__POSTGRES__URL",
    ] {
        assert!(looks_like_secret(name), "{name}");
    }
}

#[test]
fn not_secret_names() {
    for name in [
        // A credential word in an outer `__` section says what the section is about.
        "SFTPGO_DATA_PROVIDER__PASSWORD_HASHING__ARGON2_OPTIONS__MEMORY",
        "APP_SECRETS__PROVIDER",
        "SFTPGO_DATA_PROVIDER__PASSWORD_CACHING",
        "SFTPGO_HTTPD__TOKEN_VALIDATION",
        "SFTPGO_COMMON__DEFENDER__LOGIN_DELAY__PASSWORD_FAILED",
        "SSH__PASSWORD_AUTHENTICATION",
        "LND_REST_MACAROON_PATH",
        // A rotation word after no credential, or after a lone one.
        "CACHE_VERSION_OLD",
        "KEY_PREVIOUS",
        "CB_MAIL_PORT_DEV",
        "TOKEN_EXCHANGE_RATES_SOURCE",
        "SESSION_COOKIE",
        "INDEXER_ARC_NATIVE_TOKEN_CONTRACT",
        "LND_MACAROON_ENCRYPTED_DIR",
        "LOG_ENCRYPTED",
        "UPTIME_KUMA_SSL_KEY",
        "TOKEN_UPDATE_LAST_LOGIN_THRESHOLD",
        // Who a mail goes out as.
        "MAILER_CREDENTIALS_RECOVERY_INVITATION_FROM",
        "PASSWORD_RESET_SENDER",
        "SEARCH_PHRASE",
        "SEARCH_QUERY_KEY",
        "ApplicationInsights__InstrumentationKey",
        "HISTORY_ATTACHMENT_TOKEN_BUDGET",
        // Kafka's bootstrap servers are host:port lists; its credentials are SASL settings.
        "RUSTUS_HOOKS_KAFKA_URLS",
        "KAFKA_URL",
        "MYSQL_SSL_KEY",
        "TLS_KEY",
        "KEY_SEED_LENGTH",
        "SECRET_PROVIDER",
        "DISPATCH_AUTHENTICATION_PROVIDER_USE_ID_TOKEN",
        "SKIP_AUTH_TOKEN",
        "PATH",
        "HOME",
        "PWD",
        "NODE_ENV",
        "CI",
        "PORT",
        "HOST",
        "DEBUG",
        "LOG_LEVEL",
        "DB_CONNECTION",
        "DB_PORT",
        "DB_HOST",
        "DB_USERNAME",
        "REDIS_CLIENT",
        "DYNAMODB_CACHE_TABLE",
        "QUEUE_CONNECTION",
        "AUTH_PASSWORD_BROKER",
        "AUTH_PASSWORD_RESET_TOKEN_TABLE",
        "AUTH_PASSWORD_TIMEOUT",
        "AUTH_GUARD",
        "SESSION_CACHE_KEY",
        "TRACECAT__CASE_TRIGGERS_STREAM_KEY",
        "TEMPORAL__API_KEY__ARN",
        "SENTRY_FRONTEND_KEY",
        "CAS_UID_KEY",
        "PB_ID_TOKEN_LEEWAY",
        "PASSWORD_ITERATIONS",
        "PASSWORD_HINTS_ALLOWED",
        "SHOW_PASSWORD_HINT",
        "STRIPE_PUBLISHABLE_KEY",
        "RECAPTCHA_SITE_KEY",
        "RECAPTCHA_WEBSITE_KEY",
        "ACCOUNT_LINKING_OAUTH_FLOW_PUB_KEY",
        "BUGSNAG_REDACTED_KEYS",
        "AUTOSPAM_IGNORED_TOKENS",
        "AI_GOOGLE_CLOUD_PROJECT",
        "APP_HOOK_CUSTOM_ACCESS_TOKEN_HOOKNAME",
        "APP_PASSWORD_HIBP_USER_AGENT",
        "APP_PASSWORD_REQUIRED_CHARACTERS",
        "PRIVATE_KEY_PATH",
        "APP_URL",
        "AWS_URL",
        "PUPPETEER_SKIP_DOWNLOAD",
        "RIPGREP_CONFIG_PATH",
        "HANZO_API_KEY",
        "TOKEN_EXPIRES",
        "PAPERLESS_TOKEN_THROTTLE_RATE",
        "JWT_SECRET_EXPIRES_IN",
        "CSRF_TOKEN",
        "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY",
        "KEYBOARD",
        "MONKEY",
        // Public, browser-bundled values.
        "NEXT_PUBLIC_POSTHOG_KEY",
        "VITE_API_KEY",
        "PUBLIC_SUPABASE_ANON_KEY",
        "EXPO_PUBLIC_API_TOKEN",
        "SNOWPACK_PUBLIC_GITHUB_TOKEN",
        "SANITY_STUDIO_API_TOKEN",
        "REACT_APP_FIREBASE_API_KEY",
        "SUPABASE_ANON_KEY",
        "PUSHER_APP_KEY",
        "REVERB_APP_KEY",
        "NEXT_PRIVATE_GOOGLE_CLIENT_ID",
        "POSTHOG_KEY",
        "SEGMENT_WRITE_KEY",
        "SEGMENT_KEY",
        // Settings about a credential.
        "NEXT_PRIVATE_SMTP_TRANSPORT",
        "NEXT_PRIVATE_SMTP_SECURE",
        "NEXT_PRIVATE_SMTP_SERVICE",
        "NEXT_PRIVATE_MAILCHANNELS_DKIM_SELECTOR",
        "NEXT_PRIVATE_OIDC_PROMPT",
        "NEXT_PRIVATE_OIDC_PROVIDER_LABEL",
        "NEXT_PRIVATE_OIDC_WELL_KNOWN",
        "NEXT_PRIVATE_SIGNING_TIMESTAMP_AUTHORITY",
        "AZURE_STORAGE_CONTAINER",
        "NEXT_PRIVATE_UPLOAD_FORCE_PATH_STYLE",
        "NEXT_PRIVATE_SMTP_UNSAFE_IGNORE_TLS",
        "NEXT_PRIVATE_SMTP_FROM_ADDRESS",
        "NEXT_PRIVATE_BULLMQ_CONCURRENCY",
        "NEXT_PRIVATE_DOCUMENT_CONVERSION_TIMEOUT_MS",
        "GOTRUE_MAILER_SUBJECTS_PASSWORD_CHANGED_NOTIFICATION",
        "NEXT_PRIVATE_ALLOWED_SIGNUP_DOMAINS",
        "NEXT_PRIVATE_WEBHOOK_SSRF_BYPASS_HOSTS",
        "DEBUG_SHOW_RESET_LINK",
        "PASSWORD_RESET_TOKEN_LIFETIME_MINUTES",
        // Paths to a credential file.
        "GOOGLE_APPLICATION_CREDENTIALS",
        "AI_GOOGLE_CLOUD_APPLICATION_CREDENTIALS",
        "SSL_KEY_FILE",
        "SSL_CERT_KEY",
        "TLS_CERTIFICATE_KEY",
        "NEXT_PRIVATE_SIGNING_GCLOUD_HSM_KEY_PATH",
        "MQTT_HOME_ASSISTANT_DISCOVERY_URL",
        "TOKEN_TIME",
        "SESSION_MAX_AGE",
        "DUMMY_ENCRYPTION_KEY",
        "FAKE_API_TOKEN",
        "DANGEROUS_BYPASS",
        "DATABASE_URL_TIMEOUT",
        "DANGEROUSLY_ALLOW_WEBHOOK_INTERNAL_URLS",
        "NORTH_COMPASS",
        // Contents of something that is not a credential.
        "NEXT_PRIVATE_SIGNING_GCLOUD_HSM_PUBLIC_CRT_FILE_CONTENTS",
        "NEXT_PRIVATE_SIGNING_GCLOUD_HSM_CERT_CHAIN_CONTENTS",
        "AI_OPENAI_COMPATIBLE_HEADERS_JSON",
        "TLS_CERT_PEM",
        "CA_PEM",
        "PAGE_CONTENT",
        "BANNER_CONTENTS",
        // Switches and seeds that are not key material.
        "LLDAP_FORCE_UPDATE_PRIVATE_KEY",
        "RANDOM_SEED",
        "FAKER_SEED",
        "REDIS_TLS_ENABLED",
        "API_KEY_HEADER",
        "SCREEGO_TURN_STRICT_AUTH",
        "API_KEY_PREFIX",
        "KEY_ALPHA_VANTAGE",
        // What holds or describes the credential, named after it.
        "ENVIRONMENTS_API_KEY_TABLE_NAME_DYNAMO",
        "PASSWORD_RESET_TIMEOUT_PROD",
        "SMTP_AUTH",
    ] {
        assert!(!looks_like_secret(name), "{name}");
    }
}

#[test]
fn words_split_at_underscores_and_case() {
    assert_eq!(words("Stripe__SecretKey"), ["STRIPE", "SECRET", "KEY"]);
    assert_eq!(words("OpenAIKeyParameter"), ["OPEN", "AI", "KEY", "PARAMETER"]);
    assert_eq!(words("DATABASE_URL"), ["DATABASE", "URL"]);
    assert_eq!(words("s3Bucket2Name"), ["S3", "BUCKET2", "NAME"]);
    assert!(words("_").is_empty());
}

#[test]
fn urls_without_credentials_in_any_example_are_settings() {
    assert!(is_url_setting("REDIS_URL", &["redis://localhost:6379"]));
    assert!(!is_url_setting("REDIS_URL", &["redis://localhost:6379", "redis://:secret@cache:6379"]));
    assert!(!is_url_setting("REDIS_URL", &[]));
    assert!(!is_url_setting("REDIS_URL", &[""]));
    assert!(!is_url_setting("DATABASE_URL", &["postgres://localhost/app"]));
    assert!(has_credentials("postgres://app:hunter2@localhost/app"));
    assert!(has_credentials("postgresql://postgres:${POSTGRES_PASSWORD}@localhost:5432/app"));
    assert!(!has_credentials("http://localhost:3000"));
    // Keyword connection strings (ADO.NET, Npgsql, libpq) with a password in them.
    assert!(has_credentials("Server=db,1433;User Id=sa;Password=Pass@word1;TrustServerCertificate=true"));
    assert!(has_credentials("Host=localhost;Database=app;Username=postgres;pwd=hunter2"));
    assert!(has_credentials("host=db user=app password=hunter2"));
    assert!(!has_credentials("Server=(localdb)\\mssqllocaldb;Database=app;Trusted_Connection=True"));
    assert!(!has_credentials("Host=db;Username=app;Password=;"));
    assert!(!has_credentials("PasswordLength=12"));
}

#[test]
fn placeholders() {
    for value in [
        "",
        "\"\"",
        "changethis",
        "changeme",
        "CHANGE-THIS! VERY IMPORTANT!",
        "change_me",
        "secret",
        "xxx",
        "XXXXXXXX",
        "your-api-key",
        "your_secret_here",
        "<your token>",
        "TODO",
        "...",
        "replace-me",
        "YourConnectionString",
        "yourPassword",
        "YOUR_TOKEN",
        "[gitlab-client-secret]",
        "[your api token]",
        "SetYourDataHere",
        "enter-your-api-key",
        "PASTE_YOUR_TOKEN_HERE",
    ] {
        assert!(is_placeholder(value), "{value}");
    }
    for value in [
        "hunter2",
        "postgres",
        "sk_test_123",
        "yourself",
        "YOURS",
        "Yours",
        "your",
        "set-your",
        "Sunset Yourself",
        "http://x",
        "secretive-value",
        "1",
        "[\"a\",\"b\"]",
        "[1, 2]",
        "[]",
    ] {
        assert!(!is_placeholder(value), "{value}");
    }
    // A stand-in that says a credential goes there.
    for value in ["[storagekey]", "<your-api-key>", "your_password_here", "<client secret>"] {
        assert!(is_credential_placeholder(value), "{value}");
    }
    for value in ["<key-vault-url>", "[storage-account]", "changeme", "sk_live_abc", "YourConnectionString"] {
        assert!(!is_credential_placeholder(value), "{value}");
    }
}

#[test]
fn release_and_ci_credentials() {
    for name in [
        "GPG_PRIVATE_KEY",
        "NUGET_KEY",
        "PYPI_API_TOKEN",
        "CODECOV_TOKEN",
        "OSSRH_PASSWORD",
        "SENTRY_AUTH_TOKEN",
        "CARGO_REGISTRY_TOKEN",
        "NPM_PUBLISH_TOKEN",
        "DEPLOY_SSH_PRIVATE_KEY",
        "SONAR_TOKEN",
    ] {
        assert!(is_release_credential(name), "{name}");
    }
    for name in [
        "DATABASE_URL",
        "STRIPE_SECRET_KEY",
        "RELEASED_AT_TOKEN_X",
        "SLACK_SIGNING_SECRET",
        "JWT_SIGNING_KEY",
        "APP_CHANNEL_PROXY_PUBLISH_GRPC_TLS_KEY_PEM",
        "APP_PROXY_PUBLISH_HTTP_CREDENTIALS_VALUE",
    ] {
        assert!(!is_release_credential(name), "{name}");
    }
    assert!(!is_sandbox_secret("GITHUB_TOKEN"));
    assert!(!is_sandbox_secret("DOCKERHUB_PASSWORD"));
    assert!(!is_sandbox_secret("PLAYWRIGHT_SERVICE_ACCESS_TOKEN"));
    assert!(!is_sandbox_secret("DUMMY_ENCRYPTION_KEY"));
}

#[test]
fn the_key_of_a_key_and_secret_pair_is_its_public_half() {
    let names =
        ["STRIPE_KEY", "STRIPE_SECRET", "SES_KEY", "SES_SECRET", "APP_KEY", "MEILISEARCH_KEY", "_KEY", "_SECRET"];
    assert_eq!(public_halves(&names).collect::<Vec<_>>(), ["STRIPE_KEY", "SES_KEY"]);
    assert!(is_sandbox_secret("DB_PASSWORD"));
    // Two ways to give one signing key: neither is public.
    let signing = ["WEBAPP_SERVER_SIGNING_KEY", "WEBAPP_SERVER_SIGNING_SECRET"];
    assert_eq!(public_halves(&signing).count(), 0);
    // An API key goes with every call beside its secret: both are credentials.
    let api = ["TWITTER_API_KEY", "TWITTER_API_SECRET", "LASTFM_API_KEY", "LASTFM_API_SECRET"];
    assert_eq!(public_halves(&api).count(), 0);
}

#[test]
fn algorithms_are_settings_and_only_chat_webhook_urls_carry_a_token() {
    for name in [
        "AUTH_OKTA_ID_TOKEN_SIGNED_RESPONSE_ALG",
        "DISPATCH_JWT_ALG",
        "NOTIFY_WEBHOOK_URL",
        "TELEGRAM_BOT_WEBHOOK_URL",
        "WEBHOOK_URL",
        "GIT_HOOK_URL",
    ] {
        assert!(!looks_like_secret(name), "{name}");
    }
    for name in [
        "LOG_SLACK_WEBHOOK_URL",
        "DISCORD_WEBHOOK_URL",
        "NOTIFICATION_SLACK_HOOK_URL",
        "NOTIFICATION_MSTEAMS_HOOK_URL",
        "STRIPE_WEBHOOK_SECRET",
        "JWT_SECRET",
    ] {
        assert!(looks_like_secret(name), "{name}");
    }
}

#[test]
fn a_settings_file_s_committed_credential_is_development_s() {
    for (name, value) in [
        ("SPRING_DATASOURCE_PASSWORD", "root"),
        ("EventBus__RabbitMQ__Password", "adminnet++123456"),
        ("JWTSettings__IssuerSigningKey", "3c1cbc3f546eda35168c3aa3cb91780fbe703f0996c6d123ea96dc85c70bbc0a"),
        ("OSSProvider__SecretKey", "n0YxRADS7Bnb4th9zplVuDiQIdPFQ5gDtQHzLyXI"),
        ("DB_PASSWORD", "123456"),
    ] {
        assert!(is_committed_credential(name, value), "{name}={value}");
    }
    for (name, value) in [
        // Where the credential lives, not the credential.
        ("SERVER_SSL_KEY_STORE_PASSWORD_FILE", "/run/secrets/ks"),
        ("JWT_KEY", "classpath:jwt.jks"),
        ("Kestrel__Certificates__Default__KeyPath", "certs/app.key"),
        ("Signing__Key", "C:\\certs\\signing.pfx"),
        ("MAIL_PASSWORD", "${MAIL_PASSWORD}"),
        // A setting about a credential, a connection string without one, a form's label.
        ("ConnectionStrings__DatabaseProvider", "sqlite"),
        ("TOKEN_KEYSTORE_TYPE", "PKCS12"),
        ("SETTINGSHEADER_PASSWORD", "Password"),
        ("LOGIN_PASSWORD", "密码"),
        ("RESET_PASSWORD_TOKEN", "true"),
        ("API_KEY", "your key here"),
        ("API_KEY", "https://keys.example.com/k"),
    ] {
        assert!(!is_committed_credential(name, value), "{name}={value}");
    }
}
