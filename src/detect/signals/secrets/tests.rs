use super::*;
use crate::detect::testing::run_signal;
use crate::evidence::ev;
use crate::rel_path::RelPath;

/// (name, source, need) of every piece of evidence.
fn evidence(files: &[(&str, &str)]) -> Vec<(String, String, Need)> {
    let s = run_signal(detect, files);
    s.findings.secrets.iter().map(|s| (s.name.clone(), s.source.to_string(), s.need)).collect()
}

fn names(files: &[(&str, &str)]) -> Vec<String> {
    let mut names: Vec<String> = evidence(files).into_iter().map(|(n, _, _)| n).collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[test]
fn large_files_are_read_in_pieces_that_end_at_a_line_or_statement() {
    assert_eq!(pieces("a = 1\n").iter().map(|r| (r.start, r.end)).collect::<Vec<_>>(), [(0, 6)]);
    let text = format!("{};{}\n{}", "x".repeat(100 << 10), "y".repeat(60 << 10), "z".repeat(10));
    let found = pieces(&text);
    assert_eq!(found.first().map(|r| r.start), Some(0));
    assert_eq!(found.last().map(|r| r.end), Some(text.len()));
    assert!(found.windows(2).all(|w| w[0].end == w[1].start), "{found:?}");
    assert!(found.iter().take(found.len() - 1).all(|r| matches!(text.as_bytes()[r.end - 1], b';' | b'\n')));
}

#[test]
fn reads_shown_in_comments_do_not_count() {
    let text =
        "/// SECRET_KEY = os.environ[\"SECRET_KEY\"]\n  # os.getenv('DB_PASSWORD')\nkey = os.getenv('API_TOKEN')\n";
    let names: Vec<_> = ecosystems::reading_env_in("", "app.py")
        .flat_map(|eco| eco.env_reads(crate::rel_path::rel!("app.py"), text))
        .filter(|read| {
            let mut lines = Lines::new(text);
            lines.seek(read.at);
            !lines.in_comment()
        })
        .map(|read| read.name)
        .collect();
    assert_eq!(names, ["API_TOKEN"]);
    let mut attribute = Lines::new("#[arg(long, env = \"X\")]");
    attribute.seek(18);
    assert!(!attribute.in_comment());
}

#[test]
fn release_scripts_and_test_code_are_not_scanned() {
    assert!(!is_scanned_source(crate::rel_path::rel!("support/release.py")));
    assert!(!is_scanned_source(crate::rel_path::rel!("tools/publish-docs.ts")));
    assert!(!is_scanned_source(crate::rel_path::rel!("build.gradle.kts")));
    assert!(is_scanned_source(crate::rel_path::rel!("app/models/releases.rb")));
    // A release's boot files, also in Distillery's `rel/templates/`; other templates are scaffolds.
    assert!(is_scanned_source(crate::rel_path::rel!("rel/templates/vm.args.eex")));
    assert!(is_scanned_source(crate::rel_path::rel!("apps/api/rel/vm.args.src")));
    assert!(!is_scanned_source(crate::rel_path::rel!("priv/templates/vm.args.eex")));
    for rel in [
        "pkg/api/server_test.go",
        "app/test_settings.py",
        "app/tests.py",
        "app/conftest.py",
        "src/pay.spec.ts",
        "packages/api/tests/helpers.ts",
        "src/__fixtures__/env.ts",
        "internal/testdata/config.go",
        "apps/web/playwright.config.ts",
        "scripts/smoketest_configuration.py",
        // The settings of the test environment (Laravel's `APP_ENV=testing`).
        "config/testing.php",
        "app/settings/testing.py",
        // Load tests, in a folder of their own or a file of their own.
        "load-tests/scenario.js",
        "tools/k6/checkout.js",
        "locust/locustfile.py",
        "locustfile.py",
        "scripts/load-test.js",
        "stresstest.py",
        "src/__snapshots__/x.js",
        "src/Button.stories.tsx",
        // A suite named for its kind; the installers' Omnibus project.
        "acceptance_tests/config.py",
        "omnibus/config/software/file.rb",
    ] {
        assert!(!is_scanned_source(RelPath::new(rel).unwrap()), "{rel}");
    }
}

#[test]
fn production_sections_of_yaml_config() {
    let text = "development:\n  key: <%= ENV[\"DEV_TOKEN\"] %>\nproduction:\n  secret_key_base: <%= ENV[\"SECRET_KEY_BASE\"] %>\n";
    let at = |name: &str| {
        let mut lines = Lines::new(text);
        lines.seek(text.find(name).unwrap());
        lines
    };
    assert!(!at("DEV_TOKEN").in_production_section());
    assert!(at("SECRET_KEY_BASE").in_production_section());
    assert_eq!(at("SECRET_KEY_BASE").number, 4);
    assert!(!is_scanned_source(crate::rel_path::rel!("src/app/database/revisions/tenant/versions/2021_x.py")));
}

#[test]
fn source_file_rules_survive_any_name() {
    for rel in ["src/é.py", "src/日本語_test.py", "src/x.tést.js", "é", "a/b/ñ.go", "t/ü.spec.ts"] {
        let rel = RelPath::new(rel).unwrap();
        let _ = is_scanned_source(rel);
        let _ = scan_priority(rel.parent(), rel.file_name(), is_config_dir(rel.parent()));
    }
    assert!(!is_scanned_source(crate::rel_path::rel!("src/日本語_test.py")));
    assert!(is_scanned_source(crate::rel_path::rel!("src/é.py")));
}

#[test]
fn env_example_keys() {
    let text = "# comment\nexport API_SECRET=\nPORT=3000\nPRIMARY_DB=postgres://app:hunter2@localhost/app\nNODE_ENV=development\nnot a line\n";
    let found = evidence(&[(".env.example", text), ("api/.env", text)]);
    assert_eq!(
        found,
        [
            ("API_SECRET".into(), ".env.example:2".into(), Need::Unstated),
            ("PRIMARY_DB".into(), ".env.example:4".into(), Need::Unstated),
        ]
    );
    // A committed `.env` supplies what it gives a value: only its empty keys count.
    assert_eq!(evidence(&[("api/.env", text)]), [("API_SECRET".into(), "api/.env:2".into(), Need::Unstated)]);
}

#[test]
fn an_example_documented_as_a_connection_string_holds_credentials() {
    let text = "# Database connection string. Format depends on the dialect.\n#   postgres: host=db user=app password=secret\n# APP_DATABASE_CONNECTION=data/app.db\n\n# The DSN of the event store\nEVENTS=\nDB_CONNECTION=mysql\n# Port to listen on\nPORT=8080\n";
    assert_eq!(
        evidence(&[(".env.example", text)]),
        [
            ("APP_DATABASE_CONNECTION".into(), ".env.example:3".into(), Need::Optional),
            ("EVENTS".into(), ".env.example:6".into(), Need::Unstated),
        ]
    );
}

#[test]
fn an_example_documented_as_a_credential_without_a_keyword() {
    let text = "# Client secret paired with the client ID.\n# APP_OIDC_CLIENTSECRET=\n# Path to the TLS private key.\n# Example: /etc/ssl/private/app.key\n# APP_SSL_CERTKEY=\n# The provider's API password\nAPP_UPSTREAM_AUTH=\n# Set CAPTCHA_DEV=true to use the provider's test keys.\n# TEST_SITEKEY=1x00\n# The dummy secret is used then.\nCAPTCHA_DEV=\n";
    assert_eq!(names(&[(".env.example", text)]), ["APP_OIDC_CLIENTSECRET", "APP_UPSTREAM_AUTH"]);
}

#[test]
fn a_committed_stand_in_value_supplies_nothing() {
    let text = "SECRET_KEY=changethis\nPOSTGRES_PASSWORD=changethis\nDATABASE_URL=postgresql://postgres:${POSTGRES_PASSWORD}@localhost/app\nSMTP_PASSWORD=<your smtp password>\nJWT_SECRET=9f8e7d\nREDIS_PASSWORD=secret\nFIRST_SUPERUSER_PASSWORD=hunter2\n";
    assert_eq!(
        names(&[(".env", text)]),
        ["DATABASE_URL", "POSTGRES_PASSWORD", "REDIS_PASSWORD", "SECRET_KEY", "SMTP_PASSWORD"]
    );
}

#[test]
fn examples_document_what_is_required() {
    let text = "# [[AUTH]]\n# REQUIRED: at least 32 characters\nENCRYPTION_KEY=\n# OPTIONAL: the SMTP password\nSMTP_PASSWORD=\nSTRIPE_API_KEY=\n# OLD_API_TOKEN=abc\n# Not required unless S3 is used\nS3_SECRET_KEY=\n# Required if you store media on S3.\nAWS_SECRET_ACCESS_KEY=\n";
    assert_eq!(
        evidence(&[(".env.example", text)]),
        [
            ("ENCRYPTION_KEY".into(), ".env.example:3".into(), Need::Required),
            ("SMTP_PASSWORD".into(), ".env.example:5".into(), Need::Optional),
            ("STRIPE_API_KEY".into(), ".env.example:6".into(), Need::Unstated),
            ("OLD_API_TOKEN".into(), ".env.example:7".into(), Need::Optional),
            ("S3_SECRET_KEY".into(), ".env.example:9".into(), Need::Optional),
            ("AWS_SECRET_ACCESS_KEY".into(), ".env.example:11".into(), Need::Optional),
        ]
    );
}

#[test]
fn urls_are_secrets_unless_every_example_shows_them_without_credentials() {
    let files = [
        (
            ".env.example",
            "REDIS_URL=redis://localhost:6379\nCACHE_URL=redis://:pw@localhost:6379\nDATABASE_URL=postgres://localhost/app\n",
        ),
        ("src/config.ts", "process.env.REDIS_URL; process.env.AMQP_URL; process.env.DATABASE_URL\n"),
    ];
    assert_eq!(names(&files), ["AMQP_URL", "CACHE_URL", "DATABASE_URL"]);
}

#[test]
fn a_url_an_example_shows_with_credentials_is_a_secret_where_the_code_reads_it() {
    let files = [
        (".env.example", "QUEUE_BUS_URL=amqp://guest:guest@localhost:5672/\nSTATUS_PAGE=https://status.example.com\n"),
        (
            "config/config.go",
            "type C struct {\n\tURL string `env:\"QUEUE_BUS_URL,required\"`\n\tPage string `env:\"STATUS_PAGE\"`\n}\n",
        ),
    ];
    let found = evidence(&files);
    assert!(found.contains(&("QUEUE_BUS_URL".into(), "config/config.go:2".into(), Need::Required)), "{found:?}");
    assert_eq!(names(&files), ["QUEUE_BUS_URL"]);
}

#[test]
fn compose_services_built_from_the_repo() {
    let compose = "services:\n  backend:\n    build: .\n    environment:\n      SECRET_KEY: ${SECRET_KEY:?Variable not set}\n      SMTP_PASSWORD: ${SMTP_PASSWORD:-}\n      DATABASE_URL: postgresql://postgres:${POSTGRES_PASSWORD:?Variable not set}@db:5432/app\n      SENTRY_DSN: ${SENTRY_DSN}\n      PROJECT_NAME: ${PROJECT_NAME}\n  db:\n    image: postgres\n    environment:\n      - POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?Variable not set}\n      - ADMIN_TOKEN=${ADMIN_TOKEN:-x}\n";
    let other = "services:\n  a:\n    build: .\n    environment:\n      OTHER_TOKEN: x\n";
    let found = evidence(&[
        ("compose.yml", compose),
        ("deploy/docker-compose.prod.yml", other),
        ("docker/production/compose.yml", other),
        ("tests/e2e/docker-compose.yml", other),
        (
            "dev/compose.yaml",
            "services:\n  postgres:\n    build: ./db\n    environment:\n      POSTGRES_PASSWORD: pw\n",
        ),
    ]);
    let needs: HashMap<String, Need> = found.iter().fold(HashMap::new(), |mut m, (n, _, need)| {
        let e = m.entry(n.clone()).or_insert(*need);
        *e = (*e).min(*need);
        m
    });
    assert_eq!(needs.get("SECRET_KEY"), Some(&Need::Required));
    assert_eq!(needs.get("POSTGRES_PASSWORD"), Some(&Need::Required));
    assert_eq!(needs.get("DATABASE_URL"), Some(&Need::Required));
    assert_eq!(needs.get("SMTP_PASSWORD"), Some(&Need::Optional));
    assert_eq!(needs.get("SENTRY_DSN"), Some(&Need::Unstated));
    for absent in ["PROJECT_NAME", "ADMIN_TOKEN", "OTHER_TOKEN"] {
        assert!(!needs.contains_key(absent), "{absent}: {found:?}");
    }
}

#[test]
fn a_compose_key_renaming_another_variable_is_compose_wiring() {
    // The built service's own key is fed from the variable a developer sets.
    let compose = "services:\n  realtime:\n    build: .\n    environment:\n      SOKETI_DEFAULT_APP_SECRET: \"${PUSHER_APP_SECRET:-local}\"\n      RELAY_TOKEN: literal\n";
    assert_eq!(names(&[("docker-compose.dev.yml", compose)]), ["PUSHER_APP_SECRET", "RELAY_TOKEN"]);
}

#[test]
fn a_database_image_beside_another_stacks_built_service_of_its_name_is_the_database() {
    // `db` built in one stack's file is not the app in a file that runs it from an image.
    let built = "services:\n  db:\n    build: ./db\n    environment:\n      DB_ADMIN_TOKEN: x\n";
    let pulled = "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: postgres\n";
    assert_eq!(names(&[("docker-compose.alt.yml", built), ("docker-compose.yml", pulled)]), ["DB_ADMIN_TOKEN"]);
}

#[test]
fn an_override_file_configures_the_app_its_folder_builds() {
    let base = "services:\n  backend:\n    build: .\n    environment:\n      APP_DB_DSN: postgresql://postgres:postgres@db/app\n  db:\n    image: postgres\n";
    let override_file = "services:\n  backend:\n    environment:\n      APP_JWT_SECRET: x\n  db:\n    environment:\n      POSTGRES_PASSWORD: pw\n";
    let elsewhere = "services:\n  backend:\n    image: app\n    environment:\n      OTHER_TOKEN: x\n";
    let files = [
        ("server/docker-compose.yml", base),
        ("server/docker-compose.override.yml", override_file),
        ("tools/compose.yml", elsewhere),
    ];
    assert_eq!(names(&files), ["APP_DB_DSN", "APP_JWT_SECRET"]);
}

#[test]
fn a_settings_library_namespace_claims_what_compose_gives_under_it() {
    let koanf = "ko.Load(env.Provider(\"APP_\", \".\", func(s string) string { return s }), nil)\n";
    let figment = "let c: Config = Figment::new().merge(Env::prefixed(\"SRV_\")).extract()?;\n";
    let compose = "services:\n  app:\n    image: example/app:latest\n    environment:\n      APP_db__password: pw\n      APP_db__host: db\n      SRV_JWT_SECRET: x\n      OTHER_PASSWORD: x\n";
    let files = [("cmd/main.go", koanf), ("server/src/cfg.rs", figment), ("docker-compose.yml", compose)];
    assert_eq!(names(&files), ["APP_db__password", "SRV_JWT_SECRET"]);
    // Without a library that loads the namespace, a service run from an image is not the app.
    assert_eq!(names(&[("docker-compose.yml", compose)]), Vec::<String>::new());
}

#[test]
fn envconfig_fills_a_struct_of_another_package_and_the_structs_it_holds() {
    let conf = r#"package conf

type OAuthProvider struct {
	ClientID string `split_words:"true"`
	Secret   string
	Enabled  bool
}

type Providers struct {
	Github OAuthProvider
	Fly    OAuthProvider `envconfig:"FLY_IO"`
}

type Rate struct {
	Events float64
}

func (r *Rate) Decode(value string) error { return nil }

type Shared struct {
	SigningKey string `split_words:"true" required:"true"`
}

type Global struct {
	Shared
	External        Providers
	RateLimitTokens Rate   `split_words:"true"`
	DatabaseURL     string `envconfig:"DATABASE_URL" required:"true"`
}
"#;
    let load = "package load\n\nfunc Load() (*conf.Global, error) {\n\tconfig := new(conf.Global)\n\terr := envconfig.Process(\"app\", config)\n\treturn config, err\n}\n";
    let found = evidence(&[("internal/conf/conf.go", conf), ("internal/load/load.go", load)]);
    let shown: Vec<(&str, &str, Need)> = found.iter().map(|(n, s, need)| (n.as_str(), s.as_str(), *need)).collect();
    assert_eq!(
        shown,
        [
            ("DATABASE_URL", "internal/conf/conf.go:28", Need::Required),
            ("APP_SIGNING_KEY", "internal/conf/conf.go:21", Need::Required),
            ("APP_EXTERNAL_GITHUB_SECRET", "internal/conf/conf.go:5", Need::Unstated),
            ("APP_EXTERNAL_FLY_IO_SECRET", "internal/conf/conf.go:5", Need::Unstated),
            // A type that parses its own value is one variable (no `_EVENTS`).
            ("APP_RATE_LIMIT_TOKENS", "internal/conf/conf.go:27", Need::Unstated),
            ("APP_DATABASE_URL", "internal/conf/conf.go:28", Need::Unstated),
        ]
    );
}

#[test]
fn the_struct_a_call_fills_is_the_one_beside_it_when_packages_share_a_name() {
    // Go packages each have their `Config`; the scan reaches `internal/pubsub` first.
    let other = "package pubsub\n\ntype Config struct {\n\tTopic string\n}\n";
    let config = "package config\n\ntype Config struct {\n\tBroker Broker `envconfig:\"broker\"`\n}\n\ntype Broker struct {\n\tPassword string `envconfig:\"password\"`\n\tPublish Proxy `envconfig:\"publish\"`\n}\n\ntype Proxy struct {\n\tTLSKeyPEM string `envconfig:\"tls_key_pem\"`\n}\n\nfunc Load() {\n\tconf := &Config{}\n\t_, _ = envconfig.ProcessWithoutNestedKeys(\"APP\", conf, nil)\n}\n";
    let found = names(&[("internal/pubsub/config.go", other), ("internal/config/config.go", config)]);
    // A pub/sub proxy's key is the app's, though `PUBLISH` names release credentials elsewhere.
    assert_eq!(found, ["APP_BROKER_PASSWORD", "APP_BROKER_PUBLISH_TLS_KEY_PEM"]);
}

#[test]
fn a_deploy_config_s_container_secrets_are_the_app_s() {
    let deploy = "service: app\nenv:\n  clear:\n    PORT: 3000\n  secret:\n    - HONEYBADGER_API_KEY\n    - GOOGLE_GEOCODER\n    - STORAGE_ENDPOINT\n    - UNREAD_SETTING\n";
    let geocoder = "Geocoder.configure(api_key: ENV[\"GOOGLE_GEOCODER\"], host: ENV[\"STORAGE_ENDPOINT\"])\n";
    let found = names(&[("config/deploy.yml", deploy), ("config/initializers/geocoder.rb", geocoder)]);
    // An SDK reads the first itself; the app reads the second; an endpoint is a setting.
    assert_eq!(found, ["GOOGLE_GEOCODER", "HONEYBADGER_API_KEY"]);
}

#[test]
fn rails_reads_its_key_base_from_the_environment_before_its_encrypted_credentials() {
    let production = ("config/environments/production.rb", "Rails.application.configure do\nend\n");
    assert_eq!(names(&[production]), ["SECRET_KEY_BASE"]);
    for credentials in ["config/credentials.yml.enc", "config/credentials.yml.enc.sample"] {
        assert_eq!(names(&[production, (credentials, "x")]), ["SECRET_KEY_BASE"], "{credentials}");
    }
}

#[test]
fn a_prefix_set_in_one_file_names_the_reads_of_the_others() {
    let main = "func main() {\n\tl := envconfig.PrefixLookuper(\"NOTIFY_\", envconfig.OsLookuper())\n\t_ = l\n}\n";
    let config = "type Config struct {\n\tDB string `env:\"DATABASE_URL, required\"`\n\tKey string `env:\"SIGNING_KEY\"`\n\tTTL time.Duration `env:\"TOKEN_TTL\"`\n}\n";
    let files = [("cmd/server/main.go", main), ("internal/config/config.go", config)];
    let found = evidence(&files);
    assert_eq!(
        found,
        [
            ("NOTIFY_DATABASE_URL".into(), "internal/config/config.go:2".into(), Need::Required),
            ("NOTIFY_SIGNING_KEY".into(), "internal/config/config.go:3".into(), Need::Unstated),
        ]
    );
    // Without a prefix anywhere, the names are as written.
    assert_eq!(names(&files[1..]), ["DATABASE_URL", "SIGNING_KEY"]);
    // Two prefixes disagree: neither is the project's.
    let other = ("cmd/worker/main.go", "var l = envconfig.PrefixLookuper(\"WORKER_\", nil)\n");
    assert_eq!(names(&[files[0], files[1], other]), ["DATABASE_URL", "SIGNING_KEY"]);
}

#[test]
fn launch_settings_set_what_dotnet_run_reads() {
    let program = "var builder = WebApplication.CreateBuilder(args);\nbuilder.Configuration.AddEnvironmentVariables(\"SHOP_\");\n";
    let payments =
        "var key = configuration[\"Stripe:SecretKey\"];\nvar hook = configuration[\"Stripe:WebhookSecret\"];\n";
    let launch = r#"{"profiles": {"http": {"environmentVariables": {"ASPNETCORE_ENVIRONMENT": "Development", "SHOP_Stripe__SecretKey": "", "SHOP_Stripe__WebhookSecret": "whsec_local_dev_value", "SHOP_Smtp__Password": ""}}}}"#;
    let found = names(&[
        ("src/Shop/Program.cs", program),
        ("src/Shop/Payments/Stripe.cs", payments),
        ("src/Shop/Properties/launchSettings.json", launch),
        (
            "tests/Shop.Tests/Properties/launchSettings.json",
            r#"{"profiles": {"t": {"environmentVariables": {"TEST_PASSWORD": ""}}}}"#,
        ),
    ]);
    // The code reads both Stripe keys under the startup code's prefix, so the launch profile
    // spells them; it leaves the SMTP password empty, to set. A test project's profile is not the app's.
    assert_eq!(found, ["SHOP_Smtp__Password", "SHOP_Stripe__SecretKey", "SHOP_Stripe__WebhookSecret"]);
}

#[test]
fn connection_strings_an_aspire_apphost_supplies_are_not_to_set() {
    let apphost = "var builder = DistributedApplication.CreateBuilder(args);\nvar pg = builder.AddPostgres(\"postgres\");\nvar catalogDb = pg.AddDatabase(\"catalogdb\");\nbuilder.AddProject<Projects.Catalog_API>(\"catalog-api\").WithReference(catalogDb);\n";
    let development = r#"{ "ConnectionStrings": { "CatalogDB": "Host=localhost;Username=postgres;Password=yourWeakPassword", "Search": "Host=s;Password=changeme" } }"#;
    let service = ("src/Catalog.API/appsettings.Development.json", development);
    assert_eq!(names(&[service]), ["ConnectionStrings__CatalogDB", "ConnectionStrings__Search"]);
    // .NET compares configuration keys without case: `catalogdb` is `CatalogDB`.
    assert_eq!(names(&[("src/AppHost/Program.cs", apphost), service]), ["ConnectionStrings__Search"]);
}

#[test]
fn appsettings_keys_left_to_give_are_what_the_environment_sets() {
    let program = "var builder = WebApplication.CreateBuilder(args);\nbuilder.Configuration.AddEnvironmentVariables(\"SHOP_\");\n";
    let settings = r#"{
  "ConnectionStrings": { "Shop": "Server=(localdb)\\mssqllocaldb;Database=Shop;Trusted_Connection=True" },
  "SqlServer": { "ConnectionString": "Server=db;User Id=sa;Password=SHOW_ME_THE_MONEY;" },
  "Stripe": { "ApiKey": "", "PublishableKey": "pk_test_51Hx", "Live": false },
  // The certificate's thumbprint names it; the store holds the key.
  "Identity": { "ClientSecret": "<client-secret>", "CertificateThumbprint": "", "Authority": "https://login.example.com" },
  "GlobalSettings": { "Mail": { "SmtpHost": "", "SmtpPassword": null }, "EncryptionKey": "E546C8DF278CK5990069B522" },
  "Paths": { "TokenFile": "" }
}"#;
    let development = r#"{ "GlobalSettings": { "Yubico": { "Key": "YourYubicoKey" } } }"#;
    let found = evidence(&[
        ("src/Shop/Program.cs", program),
        ("src/Shop/appsettings.json", settings),
        ("src/Shop/appsettings.Development.json", development),
        ("src/Shop/appsettings.Production.json", r#"{ "Sentry": { "Dsn": "" } }"#),
        ("src/Shop/wwwroot/appsettings.json", r#"{ "Analytics": { "ApiKey": "" } }"#),
        ("tests/Shop.Tests/appsettings.json", r#"{ "Admin": { "Password": "" } }"#),
        ("samples/Demo/appsettings.json", r#"{ "Demo": { "ApiKey": "" } }"#),
    ]);
    let shown: Vec<(&str, &str, Need)> = found.iter().map(|(n, s, need)| (n.as_str(), s.as_str(), *need)).collect();
    assert_eq!(
        shown,
        [
            (
                "SHOP_GlobalSettings__Yubico__Key",
                "src/Shop/appsettings.Development.json#GlobalSettings.Yubico.Key",
                Need::Optional
            ),
            (
                "SHOP_SqlServer__ConnectionString",
                "src/Shop/appsettings.json#SqlServer.ConnectionString",
                Need::Optional
            ),
            ("SHOP_Stripe__ApiKey", "src/Shop/appsettings.json#Stripe.ApiKey", Need::Optional),
            ("SHOP_Identity__ClientSecret", "src/Shop/appsettings.json#Identity.ClientSecret", Need::Optional),
            (
                "SHOP_GlobalSettings__Mail__SmtpPassword",
                "src/Shop/appsettings.json#GlobalSettings.Mail.SmtpPassword",
                Need::Optional
            ),
            // The file's own key is development's: a deployment gives its own.
            (
                "SHOP_GlobalSettings__EncryptionKey",
                "src/Shop/appsettings.json#GlobalSettings.EncryptionKey",
                Need::Optional
            ),
        ]
    );
    // Without a prefix, the names are the keys joined by `__`, spelled as the JSON does.
    let found = names(&[("src/Shop/appsettings.json", settings)]);
    assert!(found.contains(&"Stripe__ApiKey".to_string()), "{found:?}");
}

#[test]
fn the_key_beside_a_secret_is_its_public_half() {
    let config = "<?php return ['stripe' => ['key' => env('STRIPE_KEY'), 'secret' => env('STRIPE_SECRET')], 'k' => env('MEILISEARCH_KEY')];\n";
    assert_eq!(names(&[("config/services.php", config)]), ["MEILISEARCH_KEY", "STRIPE_SECRET"]);
}

#[test]
fn a_parsers_keys_are_reads_in_the_package_that_walks_the_environment() {
    let options = "var defaults = map[string]*value{\n\t\"DATABASE_URL\": {secret: true},\n\t\"METRICS_PASSWORD\": {},\n\t\"LOG_LEVEL\": {},\n}\n";
    let parser = "func parse() {\n\tfor _, kv := range os.Environ() {\n\t\tset(kv)\n\t}\n}\n";
    let found = names(&[
        ("internal/config/options.go", options),
        ("internal/config/parser.go", parser),
        ("internal/other/table.go", options.replace("DATABASE_URL", "OTHER_TOKEN").as_str()),
    ]);
    assert_eq!(found, ["DATABASE_URL", "METRICS_PASSWORD"]);
}

#[test]
fn scripts_count_what_an_env_file_asks_for_without_what_ci_uses() {
    let script = "const key = process.env.MAXMIND_LICENSE_KEY;\nconst gh = process.env.GITHUB_TOKEN;\nconst npm = process.env.NPM_TOKEN;\nconst own = process.env.TRANSLATE_API_KEY;\n";
    let example = "MAXMIND_LICENSE_KEY=\nGITHUB_TOKEN=\n";
    assert_eq!(
        names(&[("scripts/build-geo.js", script), (".env.example", example)]),
        ["GITHUB_TOKEN", "MAXMIND_LICENSE_KEY"]
    );
    assert!(names(&[("scripts/build-geo.js", script)]).is_empty());
}

#[test]
fn the_dev_containers_own_service_is_the_app() {
    let found = evidence(&[
        (".devcontainer/devcontainer.json", r#"{"dockerComposeFile": "compose.yml", "service": "app"}"#),
        (
            ".devcontainer/compose.yml",
            "services:\n  app:\n    image: mcr.microsoft.com/devcontainers/go:1\n    environment:\n      - ADMIN_PASSWORD=test123\n  db:\n    image: postgres\n    environment:\n      POSTGRES_PASSWORD: postgres\n",
        ),
    ]);
    assert_eq!(
        found,
        [(
            "ADMIN_PASSWORD".into(),
            ".devcontainer/compose.yml#services.app.environment.ADMIN_PASSWORD".into(),
            Need::Optional
        )]
    );
}

#[test]
fn derived_names_count_where_the_project_spells_them() {
    let files = [
        (
            "src/main/resources/application.yml",
            // A reference to where the mail password lives is no development password.
            "spring:\n  datasource:\n    password: dev\n  mail:\n    password: classpath:mail.secret\n",
        ),
        (".env.example", "SPRING_DATASOURCE_PASSWORD=\n"),
    ];
    assert_eq!(names(&files), ["SPRING_DATASOURCE_PASSWORD"]);
}

#[test]
fn code_reads_in_many_languages() {
    let found = names(&[
        (
            "config/database.php",
            "<?php return ['password' => env('DB_PASSWORD', ''), 'port' => env('DB_PORT', '3306'), 'driver' => env(\"DB_CONNECTION\")];\n",
        ),
        (
            "src/app.ts",
            "const k = process.env.STRIPE_SECRET_KEY;\nconst e = process.env.NODE_ENV;\nconst t = process.env[\"GH_TOKEN\"]; import.meta.env.VITE_API_KEY\n",
        ),
        (
            "app/settings.py",
            "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']\nDB = os.getenv(\"DATABASE_URL\")\nx = os.environ.get('HOME')\n",
        ),
        ("src/main.rs", "let t = std::env::var(\"GITHUB_TOKEN\"); let v = env!(\"CARGO_PKG_VERSION\");\n"),
        ("cmd/main.go", "key := os.Getenv(\"OPENAI_API_KEY\")\n"),
        ("config/initializers/x.rb", "ENV.fetch('SENDGRID_API_KEY') ENV[\"AWS_SECRET_ACCESS_KEY\"]\n"),
        ("src/main/java/App.java", "System.getenv(\"JDBC_PASSWORD\");\n"),
        ("Program.cs", "Environment.GetEnvironmentVariable(\"AZURE_CLIENT_SECRET\");\n"),
        ("config/runtime.exs", "System.get_env(\"SECRET_KEY_BASE\") System.fetch_env!(\"MIX_TOKEN\")\n"),
        (
            "config/database.yml",
            "test:\n  password: <%= ENV[\"APP_DATABASE_PASSWORD\"] %>\n  host: <%= ENV.fetch(\"DB_HOST\") %>\nproduction:\n  password: <%= ENV[\"PRODUCTION_DB_PASSWORD\"] %>\n",
        ),
        (
            "src/main/resources/application.yml",
            "spring:\n  datasource:\n    password: ${SPRING_DB_PASSWORD}\n    url: ${JDBC_HOST}\n    x: ${LOCAL_DB_PASSWORD:petclinic}\n",
        ),
        (
            "proj/settings.py",
            "SECRET = env.str('DJANGO_ENV_SECRET')\nKEY = config('DECOUPLE_API_KEY')\nX = config('app.key')\n",
        ),
        ("docker/compose.yml", "x: ${COMPOSE_ONLY_PASSWORD}\n"),
        ("tests/FooTest.php", "env('TEST_ONLY_PASSWORD')\n"),
        ("src/util.test.ts", "process.env.UNIT_TOKEN\n"),
        ("examples/demo.py", "os.getenv('DEMO_TOKEN')\n"),
        (
            "src/lib.rs",
            "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    const T: &str = r#\"std::env::var(\"FIXTURE_TOKEN\")\"#;\n}\n",
        ),
        (".env.example", "APP_KEY=\nAPP_NAME=Laravel\n"),
    ]);
    assert_eq!(
        found,
        [
            "APP_DATABASE_PASSWORD",
            "APP_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "AZURE_CLIENT_SECRET",
            "DATABASE_URL",
            "DB_PASSWORD",
            "DECOUPLE_API_KEY",
            "DJANGO_ENV_SECRET",
            "DJANGO_SECRET_KEY",
            "GH_TOKEN",
            "GITHUB_TOKEN",
            "JDBC_PASSWORD",
            "LOCAL_DB_PASSWORD",
            "MIX_TOKEN",
            "OPENAI_API_KEY",
            "SECRET_KEY_BASE",
            "SENDGRID_API_KEY",
            "SPRING_DB_PASSWORD",
            "STRIPE_SECRET_KEY",
        ]
    );
}

#[test]
fn scanning_is_bounded_and_configuration_comes_first() {
    let mut files: Vec<(String, String)> =
        (0..MAX_SCANNED_FILES + 10).map(|i| (format!("a/b/m{i:05}.js"), String::new())).collect();
    files.push(("config/secrets.js".into(), "process.env.LATE_TOKEN".into()));
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let s = run_signal(detect, &refs);
    let out = &s.findings;
    assert_eq!(out.secrets.len(), 1);
    assert!(out.notes.iter().any(|n| n.contains(&format!("first {MAX_SCANNED_FILES} of"))));
}

#[test]
fn files_of_generated_reads_give_a_bounded_few_quickly() {
    // One line of unique reads, past the scanned size: a count of the lines before each
    // read made this quadratic.
    let reads: String = (0..20_000).map(|i| format!("process.env.K{i}_TOKEN;")).collect();
    let config = format!("production:\n  k: <%= ENV[\"K_TOKEN\"] %> {reads}\n");
    let started = std::time::Instant::now();
    let s = run_signal(detect, &[("src/a.js", &reads), ("src/b.js", &reads), ("config/secrets.yml", &config)]);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    let out = &s.findings;
    assert_eq!(out.secrets.len(), MAX_NAMES_PER_FILE, "the same first names from both files");
    assert_eq!(out.secrets[0].source, ev("src/a.js:1"));
    assert_eq!(
        out.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [format!(
            "src/a.js and 1 other files: more than {MAX_NAMES_PER_FILE} secret names read from the environment; \
             only the first {MAX_NAMES_PER_FILE} of each file kept"
        )]
    );
}

#[test]
fn ci_secrets_count_only_for_what_the_app_reads_and_never_require_it() {
    let workflow = "jobs:\n  test:\n    env:\n      DB_PASSWORD: ${{ secrets.DB_PASSWORD }}\n      CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}\n      GH: ${{ secrets.GITHUB_TOKEN }}\n    steps:\n      - run: echo 'runs without secrets. Avo is off'\n      - run: cargo test\n  lint:\n    steps:\n      - run: npm run lint\n        env:\n          LINT_TOKEN: ${{ secrets.LINT_TOKEN }}\n";
    let release = "name: Release\njobs:\n  publish:\n    steps:\n      - run: cargo test\n        env:\n          API_KEY: ${{ secrets.API_KEY }}\n";
    let ci = [(".github/workflows/test.yml", workflow), (".github/workflows/release.yml", release)];
    // CI's secret store alone says nothing the app needs.
    assert_eq!(evidence(&ci), []);
    let read = ("src/db.js", "module.exports = process.env.DB_PASSWORD;\n");
    let found = evidence(&[ci[0], ci[1], read]);
    assert_eq!(found, [("DB_PASSWORD".into(), "src/db.js:1".into(), Need::Unstated)]);
}

#[test]
fn a_reads_own_default_or_number_parser_makes_it_a_setting() {
    let php = "<?php return [\n\
        'delete' => (bool) env('LIVE_DELETE_TOKEN_AFTER', true),\n\
        'ignored' => env('AUTOSPAM_IGNORED_TOKENS', 'the,a,of'),\n\
        'ttl' => (int) env('SESSION_TOKEN_MINUTES'),\n\
        'stripe' => env('STRIPE_SECRET'),\n\
        'ldap' => env('LDAP_PASSWORD', false),\n];\n";
    let python = "OPTIONAL = parse_boolean(os.environ.get(\"ATHENA_OPTIONAL_CREDENTIALS\", \"true\"))\n\
        WITHIN = os.getenv(\"RESET_PASSWORD_WITHIN\", default=\"6h\")\n\
        NATURAL = is_truthy(os.environ.get(\"NAME_AS_NATURAL_KEY\"))\n\
        TOKENS = asbool(os.environ.get(\"CSRF_TOKENS\"))\n\
        MAIL = os.getenv(\"MAIL_PASSWORD\")\n";
    // `Boolean(…)` tests whether a value is set: the URL is still one.
    let node =
        "const on = Boolean(process.env.CLICKHOUSE_URL);\nconst ttl = process.env.REFRESH_TOKEN_TTL ?? \"15m\";\n";
    assert_eq!(
        names(&[("config/app.php", php), ("app/settings.py", python), ("src/db.ts", node)]),
        ["CLICKHOUSE_URL", "LDAP_PASSWORD", "MAIL_PASSWORD", "STRIPE_SECRET"]
    );
}

#[test]
fn a_struct_tags_default_that_is_a_setting_makes_one() {
    let go = "package config\n\ntype Security struct {\n\tHeaderKey string `yaml:\"h\" default:\"Remote-User\" env:\"APP_TRUSTED_HEADER_AUTH_KEY\"`\n\tTTL string `env:\"APP_TOKEN_TTL, default=15m\"`\n\tOld bool `env:\"APP_TOKEN_AFTER\" envDefault:\"true\"`\n\tSalt string `default:\"\" env:\"APP_PASSWORD_SALT\"`\n\tKey string `env:\"APP_API_KEY\" env-default:\"changeme\"`\n}\n";
    assert_eq!(names(&[("go.mod", "module x\n"), ("config/config.go", go)]), ["APP_API_KEY", "APP_PASSWORD_SALT"]);
}

#[test]
fn a_value_split_into_a_list_or_parsed_after_the_call_is_a_setting() {
    // Elixir pipes the read into its parser; Python and Ruby chain a method on the value.
    let elixir = "config :app,\n  api_blocklist: System.get_env(\"API_TOKEN_BLOCKLIST\", \"\") |> String.split(\",\"),\n  \
        ttl: System.get_env(\"SESSION_TOKEN_TTL\", \"60\") |> String.to_integer(),\n  \
        keys: System.get_env(\"ADMIN_API_KEYS\", \"\") |> String.split(\",\"),\n  \
        jwt: System.get_env(\"API_JWT_SECRET\")\n";
    let python = "IGNORED = os.getenv(\"SPAM_TOKEN_WORDS\", \"\").split(\",\")\nKEY = os.getenv(\"STRIPE_KEY\")\n";
    let ruby = "LIMIT = ENV[\"PASSWORD_MIN_LENGTH_KEY\"].to_i\nTOKEN = ENV[\"SLACK_BOT_TOKEN\"]\n";
    assert_eq!(
        names(&[("config/runtime.exs", elixir), ("app/settings.py", python), ("config/initializers/limits.rb", ruby)]),
        ["ADMIN_API_KEYS", "API_JWT_SECRET", "SLACK_BOT_TOKEN", "STRIPE_KEY"]
    );
}

#[test]
fn a_value_compared_with_a_flag_is_a_switch() {
    let php = "@if (env('SETTING_PASSWORD_RECOV') == true)\n@if (env('STRIPE_SECRET') == '')\n";
    let node = "const on = process.env.AUTH_TOKEN_ROTATION === 'true';\nconst key = process.env.MAPS_API_KEY;\n";
    let python =
        "OFF = os.getenv(\"PASSWORD_LOGIN_DISABLED\", \"0\") == \"1\"\nTOKEN = os.getenv(\"GITHUB_TOKEN\") == None\n";
    assert_eq!(
        names(&[("resources/views/login.php", php), ("src/flags.ts", node), ("app/settings.py", python)]),
        ["GITHUB_TOKEN", "MAPS_API_KEY", "STRIPE_SECRET"]
    );
}

#[test]
fn a_cookie_s_name_and_a_bare_host_are_settings_values() {
    let elixir = "config :app, AppWeb.Endpoint,\n  session_key: {:system, \"SESSION_KEY\", \"_app_sid\"},\n  kafka_url: {:system, \"KAFKA_URL\", \"kafka:9092\"},\n  redis_url: {:system, \"REDIS_URL\"},\n  secret: {:system, \"SIGNING_KEY\", \"_x\"}\n";
    assert_eq!(
        names(&[("mix.exs", "defmodule App.MixProject do\nend\n"), ("config/config.exs", elixir)]),
        ["REDIS_URL", "SIGNING_KEY"]
    );
}

#[test]
fn commands_run_by_hand_never_make_a_name_required() {
    let found = evidence(&[
        ("shop/management/commands/createsuperuser.py", "password = os.environ[\"DJANGO_SUPERUSER_PASSWORD\"]\n"),
        ("shop/settings.py", "API_TOKEN = os.environ[\"API_TOKEN\"]\n"),
        ("tools/migrators/config.py", "PAGERDUTY_API_TOKEN = os.environ[\"PAGERDUTY_API_TOKEN\"]\n"),
    ]);
    let need = |name: &str| found.iter().find(|(n, _, _)| n == name).map(|(_, _, need)| *need);
    assert_eq!(need("DJANGO_SUPERUSER_PASSWORD"), Some(Need::Optional));
    assert_eq!(need("API_TOKEN"), Some(Need::Required));
    assert_eq!(need("PAGERDUTY_API_TOKEN"), Some(Need::Optional));
    assert!(is_on_demand_command("app/Console/Commands"));
    assert!(is_on_demand_command("backend/scripts"));
    assert!(is_on_demand_command("lib/tasks"));
    assert!(!is_on_demand_command("app/commands"));
}

#[test]
fn dotnet_test_projects_and_ci_folders_are_not_the_app() {
    for rel in ["csharp/Svix.Tests/ClientVars.cs", "src/Api.IntegrationTests/Setup.cs", ".ci/seed.py"] {
        assert!(!is_scanned_source(RelPath::new(rel).unwrap()), "{rel}");
    }
    assert!(is_scanned_source(crate::rel_path::rel!("src/Api/Program.cs")));
    assert!(is_scanned_source(crate::rel_path::rel!("src/Contests/Program.cs")));
    let compose = "services:\n  app:\n    build: .\n    environment:\n      POSTGRES_PASSWORD: ci\n      PERCY_TOKEN: ${PERCY_TOKEN}\n";
    assert_eq!(names(&[(".ci/compose.ci.yaml", compose)]), Vec::<String>::new());
}

#[test]
fn production_settings_never_require_and_test_runs_give_dummies() {
    let found = evidence(&[
        ("config/django/production.py", "API_TOKEN = env.str(\"API_TOKEN\")\n"),
        ("config/django/base.py", "MAIL_TOKEN = env.str(\"MAIL_TOKEN\")\n"),
    ]);
    let need = |name: &str| found.iter().find(|(n, _, _)| n == name).map(|(_, _, need)| *need);
    assert_eq!(need("API_TOKEN"), Some(Need::Optional));
    assert_eq!(need("MAIL_TOKEN"), Some(Need::Required));
    assert!(is_production_settings("config/environments", "production.rb"));
    assert!(is_production_settings("src/Api", "appsettings.Production.json"));
    assert!(!is_production_settings("app/models", "products.py"));
    // `123` in the test run's env file is a dummy, not an example of a number.
    let names = names(&[(".env.example", "IFRAMELY_API_KEY=\n"), (".env.test", "IFRAMELY_API_KEY=123\n")]);
    assert_eq!(names, ["IFRAMELY_API_KEY"]);
}

#[test]
fn a_deployments_env_file_only_backs_what_the_app_reads() {
    let found = evidence(&[
        (".env.prod.example", "# required\nSTRIPE_SECRET=\nUPTIME_MONITOR_API_KEY=\n"),
        ("app/pay.py", "key = os.getenv('STRIPE_SECRET')\n"),
    ]);
    let names: Vec<&str> = found.iter().map(|(n, _, _)| n.as_str()).collect();
    assert!(names.iter().all(|n| *n == "STRIPE_SECRET"), "{found:?}");
    assert!(
        found.iter().any(|(_, source, need)| source == ".env.prod.example:2" && *need == Need::Optional),
        "{found:?}"
    );
}

#[test]
fn a_url_whose_password_is_given_apart_is_an_address() {
    let apart = "CLICKHOUSE_URL=http://localhost:8123\nCLICKHOUSE_USER=clickhouse\nCLICKHOUSE_PASSWORD=\n";
    assert_eq!(names(&[(".env.example", apart)]), ["CLICKHOUSE_PASSWORD"]);
    // With the credentials in it, the URL is the secret.
    let inside = "DATABASE_URL=postgres://app:app@localhost/app\nDATABASE_PASSWORD=\n";
    assert_eq!(names(&[(".env.example", inside)]), ["DATABASE_PASSWORD", "DATABASE_URL"]);
}

#[test]
fn appsettings_keys_take_the_letter_case_the_project_writes() {
    // .NET matches variables in any letter case: the names are the project's spelling.
    let settings = "\u{feff}{\n  \"identity\": { \"adminEmail\": \"\", \"adminPassword\": \"\", \"adminClientSecret\": \"\" },\n  \"email\": { \"smtp\": { \"password\": \"\" } }\n}";
    let compose = "services:\n  cms:\n    build: .\n    environment:\n      - IDENTITY__ADMINEMAIL=admin@example.com\n      - URLS__BASEURL=http://localhost:5000\n";
    let from_settings = |files: &[(&str, &str)]| -> Vec<String> {
        evidence(files).into_iter().filter(|(_, source, _)| source.contains("appsettings")).map(|(n, _, _)| n).collect()
    };
    let upper = from_settings(&[("src/Cms/appsettings.json", settings), ("docker-compose.yml", compose)]);
    assert_eq!(upper, ["IDENTITY__ADMINPASSWORD", "IDENTITY__ADMINCLIENTSECRET", "EMAIL__SMTP__PASSWORD"]);
    // Without a spelling of the project's, as the settings file writes them.
    let as_keyed = from_settings(&[("src/Cms/appsettings.json", settings)]);
    assert_eq!(as_keyed, ["identity__adminPassword", "identity__adminClientSecret", "email__smtp__password"]);
    // A settings file is configuration: scanned before the code of a large tree.
    assert_eq!(scan_priority("src/Cms", "appsettings.json", false).0, 0);
    assert_eq!(scan_priority("src/Cms", "Program.cs", false).0, 1);
}

#[test]
fn a_test_runs_env_file_backs_only_what_the_app_reads() {
    let test_env = "S3_SECRET=test\nSTRIPE_SECRET_KEY=sk_test_123\n";
    let app = "const stripe = process.env.STRIPE_SECRET_KEY;\n";
    // The suite's fixture that nothing reads is no secret of the app's.
    assert_eq!(names(&[("apps/api/src/.env.test", test_env)]), Vec::<String>::new());
    assert_eq!(names(&[("apps/api/src/.env.test", test_env), ("apps/api/src/stripe.ts", app)]), ["STRIPE_SECRET_KEY"]);
}

#[test]
fn a_validated_options_class_is_read_under_the_project_prefix() {
    let program = "var builder = WebApplication.CreateBuilder(args);\nbuilder.Configuration.AddEnvironmentVariables(\"SHOP_\");\nbuilder.Services.AddOptions<MailOptions>().BindConfiguration(MailOptions.Section).ValidateDataAnnotations();\n";
    let options = "public class MailOptions\n{\n    public const string Section = \"Mail\";\n    [Required]\n    public string SmtpPassword { get; set; }\n    [Required]\n    public string ApiKey { get; set; }\n}\n";
    let settings = r#"{ "Mail": { "ApiKey": "dev-only-mail-api-key-0123456789" } }"#;
    let found = evidence(&[
        ("src/Shop/Program.cs", program),
        ("src/Shop/Options/MailOptions.cs", options),
        ("src/Shop/appsettings.Development.json", settings),
    ]);
    // The development settings give the API key: only the password is required; the key is
    // a deployment's to replace, optional.
    assert_eq!(
        found,
        [
            (
                "SHOP_Mail__ApiKey".to_string(),
                "src/Shop/appsettings.Development.json#Mail.ApiKey".to_string(),
                Need::Optional
            ),
            ("SHOP_Mail__SmtpPassword".to_string(), "src/Shop/Options/MailOptions.cs:5".to_string(), Need::Required)
        ]
    );
}

#[test]
fn a_python_package_named_like_a_doc_site_is_code() {
    let files = [
        ("requirements.txt", "flask\n"),
        ("website/__init__.py", ""),
        ("website/newsletter.py", "import os\nKEY = os.getenv(\"MAILCHIMP_API_KEY\")\n"),
        ("docs/website/conf.py", "import os\nT = os.getenv(\"DOCS_ONLY_TOKEN\")\n"),
        ("website/src/search.js", "const k = process.env.ALGOLIA_ADMIN_KEY;\n"),
    ];
    // `website/src` holds no `__init__.py`: a doc site's sources beside the package.
    assert_eq!(names(&files), ["MAILCHIMP_API_KEY"]);
}

#[test]
fn a_secret_helper_that_reads_hosts_and_ports_too_marks_nothing() {
    let helper = "public static class Env {\n    public static string? ReadSecret(string name)\n    {\n        var value = Environment.GetEnvironmentVariable(name);\n        return value;\n    }\n}\n";
    let settings = "public class Constants {\n    public static string? SMTP_HOST => Env.ReadSecret(\"SMTP_HOST\");\n    public static string? SMTP_PORT => Env.ReadSecret(\"SMTP_PORT\");\n    public static string? INSTANCE => Env.ReadSecret(\"INSTANCE_NAME\");\n    public static string? SMTP_PASSWORD => Env.ReadSecret(\"SMTP_PASSWORD\");\n}\n";
    let found = names(&[("App.csproj", "<Project />\n"), ("Env.cs", helper), ("Constants.cs", settings)]);
    assert_eq!(found, ["SMTP_PASSWORD"]);
    // Used for credentials alone, its name marks what it reads.
    let only_secrets = "public class Constants {\n    public static string? SIGNING => Env.ReadSecret(\"APP_SIGNING\");\n    public static string? SMTP_PASSWORD => Env.ReadSecret(\"SMTP_PASSWORD\");\n}\n";
    let found = names(&[("App.csproj", "<Project />\n"), ("Env.cs", helper), ("Constants.cs", only_secrets)]);
    assert_eq!(found, ["APP_SIGNING", "SMTP_PASSWORD"]);
}

#[test]
fn a_rails_application_yml_is_no_spring_configuration() {
    let settings = "shared:\n  notify_api_key: <%= ENV[\"NOTIFY_API_KEY\"] %>\n  signing_key: dev-signing-key-0123\n";
    let rails = [("Gemfile", "source \"https://rubygems.org\"\ngem \"rails\"\n"), ("config/application.yml", settings)];
    assert_eq!(names(&rails), ["NOTIFY_API_KEY"]);
    // The same file beside a Maven build is Spring's: its keys bind by their relaxed names.
    let spring =
        [("pom.xml", "<project><artifactId>spring-boot</artifactId></project>"), ("config/application.yml", settings)];
    assert!(names(&spring).contains(&"SHARED_SIGNING_KEY".to_string()), "{:?}", names(&spring));
}
