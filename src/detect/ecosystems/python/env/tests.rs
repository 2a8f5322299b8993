use super::*;

/// The reads of `text` by itself: not those that wait for a settings base of another file.
fn found(text: &str) -> Vec<(String, Need)> {
    direct(text).into_iter().map(|r| (r.name, r.need)).collect()
}

/// The file's own reads, without the calls that are reads only through a project's helper
/// or another module's constant.
fn direct(text: &str) -> Vec<EnvRead> {
    reads(text).into_iter().filter(|r| r.helper.is_none() && !r.by_constant).collect()
}

#[test]
fn os_reads_and_their_defaults() {
    let text = "os.environ['SET_HERE_TOKEN'] = 'x'\nA = os.environ['SECRET_KEY']\nB = os.getenv('DB_PASSWORD', 'x')\nC = os.environ.get(\"API_TOKEN\")\nD = os.getenv('SMTP_PASS') or ''\nE = os.getenv(\"K\", default=None)\nSECRET_KEY = os.environ.get('DJANGO_SECRET_KEY')\n";
    assert_eq!(
        found(text),
        [
            ("SECRET_KEY".into(), Need::Required),
            ("DB_PASSWORD".into(), Need::Optional),
            ("API_TOKEN".into(), Need::Unstated),
            ("SMTP_PASS".into(), Need::Optional),
            ("K".into(), Need::Optional),
            ("DJANGO_SECRET_KEY".into(), Need::Required),
        ]
    );
}

#[test]
fn reads_through_a_name_bound_to_os_environ() {
    let text = "import os\nenv = os.environ\nA = env.get(\"ROUNDCUBE_DB_PW\")\nB = env[\"API_KEY\"]\nC = env.get(\"PORT\", \"80\")\n";
    assert_eq!(
        found(text),
        [
            ("ROUNDCUBE_DB_PW".into(), Need::Unstated),
            ("API_KEY".into(), Need::Required),
            ("PORT".into(), Need::Optional),
        ]
    );
}

#[test]
fn helpers_the_file_defines() {
    let text = "def envsecret(s: str, default: str | None = None) -> str | None:\n    if secret_path := os.getenv(s + \"_FILE\"):\n        return open(secret_path).read()\n    return os.getenv(s, default)\n\n\ndef need(name):\n    return os.environ[name]\n\nA = envsecret(\"GITHUB_CLIENT_SECRET\")\nB = envsecret(\"DB_PASSWORD\", \"\")\nC = need('JWT_SECRET')\n";
    assert_eq!(
        found(text),
        [
            ("GITHUB_CLIENT_SECRET".into(), Need::Unstated),
            ("DB_PASSWORD".into(), Need::Optional),
            ("JWT_SECRET".into(), Need::Required),
        ]
    );
    // A helper named for secrets marks what it reads: an app key is a credential here.
    let text = "def envsecret(s):\n    return os.getenv(s)\n\ndef envint(s, d):\n    return int(os.getenv(s, d))\n\nT = envsecret('TRELLO_APP_KEY')\nN = envint('TOKEN_COUNT', '5')\n";
    let rows: Vec<(String, bool, bool)> =
        direct(text).into_iter().map(|r| (r.name, r.marked_secret, r.setting)).collect();
    assert_eq!(rows, [("TRELLO_APP_KEY".into(), true, false), ("TOKEN_COUNT".into(), false, true)]);
}

#[test]
fn a_helper_that_calls_a_helper_and_defaults_that_are_settings() {
    // peeringdb's settings: the public helper hands its parameter to a private one that reads.
    let text = "def set_from_env(name, default=_DEFAULT_ARG):\n    return _set_from_env(name, globals(), default)\n\n\ndef _set_from_env(name, context, default):\n    context[name] = os.environ.get(name, default)\n\n\ndef reset_from_env(name):\n    return set_from_env_x(name)\n\nset_from_env(\"EMAIL_HOST_PASSWORD\")\nset_from_env(\"MAX_LENGTH_PASSWORD\", 1024)\nset_from_env(\"OPT_FLAG_API_KEY\", 0x10)\nset_from_env(\"SYNC_CACHE_URL\", \"https://public.example.org\")\nset_from_env(\"TOKEN_MODEL\", \"oauth2_provider.AccessToken\")\nset_from_env(\"SYNC_PASSWORD\", \"\")\nB = os.getenv('AUTH_RETRIES', 3)\n";
    let rows: Vec<(String, bool)> = direct(text).into_iter().map(|r| (r.name, r.setting)).collect();
    assert_eq!(
        rows,
        [
            ("AUTH_RETRIES".into(), true),
            ("EMAIL_HOST_PASSWORD".into(), false),
            ("MAX_LENGTH_PASSWORD".into(), true),
            ("OPT_FLAG_API_KEY".into(), true),
            ("SYNC_CACHE_URL".into(), true),
            ("TOKEN_MODEL".into(), true),
            ("SYNC_PASSWORD".into(), false),
        ]
    );
}

#[test]
fn readers_under_any_name() {
    let text = "import environ\nsettings_env = environ.Env(DEBUG=(bool, False))\nSECRET_KEY = settings_env('DJANGO_SECRET_KEY')\nDB = settings_env.db_url('DATABASE_URL', default='sqlite://')\nconfig = Config('.env')\nJWT = config('JWT_SECRET', cast=Secret)\nX = config('MAIL_PASSWORD', cast=str, default='')\n";
    let reads = direct(text);
    let rows: Vec<(&str, Need, bool)> = reads.iter().map(|r| (r.name.as_str(), r.need, r.marked_secret)).collect();
    assert_eq!(
        rows,
        [
            ("DJANGO_SECRET_KEY", Need::Required, false),
            ("DATABASE_URL", Need::Optional, false),
            ("JWT_SECRET", Need::Required, true),
            ("MAIL_PASSWORD", Need::Optional, false),
        ]
    );
}

#[test]
fn fields_a_validator_builds_are_not_read() {
    let text = "class Settings(BaseSettings):\n    POSTGRES_PASSWORD: str\n    POSTGRES_URI: PostgresDsn | None = None\n    DEBUG: bool = False\n\n    @field_validator(\"POSTGRES_URI\", mode=\"before\")\n    def assemble(cls, v, info):\n        return PostgresDsn.build(scheme=\"postgresql\", password=info.data[\"POSTGRES_PASSWORD\"])\n";
    let rows: Vec<(String, bool)> = direct(text).into_iter().map(|r| (r.name, r.setting)).collect();
    assert_eq!(rows, [("POSTGRES_PASSWORD".to_string(), false), ("DEBUG".to_string(), true)]);
    // The validator with `@classmethod` stacked under it, as pydantic v2 documents it.
    let stacked = text.replace("    def assemble", "    @classmethod\n    def assemble");
    let rows: Vec<(String, bool)> = direct(&stacked).into_iter().map(|r| (r.name, r.setting)).collect();
    assert_eq!(rows, [("POSTGRES_PASSWORD".to_string(), false), ("DEBUG".to_string(), true)]);
}

#[test]
fn flags_and_numbers_are_read_but_never_secrets() {
    let text = "def get_bool_from_env(name, default_value):\n    value = os.environ.get(name)\n    return value in ('1', 'true')\n\nA = get_bool_from_env('AWS_QUERYSTRING_AUTH', False)\nB = env.bool('SESSION_TOKEN_AUTH')\nC = config('JWT_AUTH', cast=bool)\nD = config('JWT_SECRET')\nE = env.int('MAX_TOKEN')\n";
    let credentials: Vec<String> = direct(text).into_iter().filter(|r| !r.setting).map(|r| r.name).collect();
    assert_eq!(credentials, ["JWT_SECRET"]);
    let mut settings: Vec<String> = direct(text).into_iter().filter(|r| r.setting).map(|r| r.name).collect();
    settings.sort_unstable();
    assert_eq!(settings, ["AWS_QUERYSTRING_AUTH", "JWT_AUTH", "MAX_TOKEN", "SESSION_TOKEN_AUTH"]);
}

#[test]
fn url_readers_that_name_their_own_variable() {
    let text = "import environ, dj_database_url\nenv = environ.Env()\nDATABASES = {'default': env.db()}\nEMAIL = env.email(default='smtp://localhost')\nOTHER = env.db('REPLICA_URL')\nD = dj_database_url.config(env=dj_database_url.DEFAULT_ENV, conn_max_age=600)\nE = dj_database_url.config(env='LEGACY_DB')\nF = dj_database_url.config(default='sqlite:///db.sqlite3')\n";
    let rows: Vec<(String, Need)> = direct(text).into_iter().map(|r| (r.name, r.need)).collect();
    assert_eq!(
        rows,
        [
            ("REPLICA_URL".into(), Need::Required),
            ("DATABASE_URL".into(), Need::Required),
            ("EMAIL_URL".into(), Need::Optional),
            ("DATABASE_URL".into(), Need::Unstated),
            ("LEGACY_DB".into(), Need::Unstated),
            ("DATABASE_URL".into(), Need::Optional),
        ]
    );
}

#[test]
fn a_commented_out_env_prefix_is_not_applied() {
    // pydantic-settings reads `model_config`; a prefix left in a comment configures nothing.
    let text = r#"
class ModelSettings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # env_prefix='my_prefix_'
    openai_api_key: Optional[str] = None
"#;
    assert_eq!(found(text), [("OPENAI_API_KEY".into(), Need::Optional)]);
}

#[test]
fn an_env_prefix_named_by_a_constant_of_the_module() {
    let text = r#"
ENV_PREFIX = "APP__DATABASE__"

class DatabaseSettings(BaseSettings):
    password: str = "defaultpassword"
    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, coerce_numbers_to_str=True)
"#;
    assert_eq!(found(text), [("APP__DATABASE__PASSWORD".into(), Need::Optional)]);
    // A name no string constant of the module holds gives no prefix.
    let elsewhere = text.replace("ENV_PREFIX = \"APP__DATABASE__\"", "from .base import ENV_PREFIX");
    assert_eq!(found(&elsewhere), [("PASSWORD".into(), Need::Optional)]);
}

#[test]
fn pydantic_settings_classes() {
    let text = r#"
from pydantic_settings import BaseSettings, SettingsConfigDict

class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="app_", env_file=".env")
    # a comment
    secret_key: str
    DATABASE_URL: PostgresDsn
    smtp_password: str | None = None
    api_key: SecretStr = Field(
        ...,
        description="the key",
    )
    token: str = Field(default="x", validation_alias="SERVICE_TOKEN")
    _private: str = "x"

    @property
    def dsn(self) -> str:
        value: str = "not a field"
        return value

class AppSettings(Settings):
    stripe_key: str

class NotSettings(BaseModel):
    password: str
"#;
    assert_eq!(
        found(text),
        [
            ("APP_SECRET_KEY".into(), Need::Required),
            ("APP_DATABASE_URL".into(), Need::Required),
            ("APP_SMTP_PASSWORD".into(), Need::Optional),
            ("APP_API_KEY".into(), Need::Required),
            ("SERVICE_TOKEN".into(), Need::Optional),
            ("APP_STRIPE_KEY".into(), Need::Required),
        ]
    );
    assert!(reads(text).iter().any(|r| r.name == "APP_API_KEY" && r.marked_secret));
    // A base of another file: read if it is a settings class there.
    let deferred: Vec<(String, Option<String>)> =
        reads(text).into_iter().filter(|r| r.helper.is_some()).map(|r| (r.name, r.helper)).collect();
    assert_eq!(deferred, [("PASSWORD".to_string(), Some("class BaseModel(BaseSettings)".to_string()))]);
    let bases: Vec<String> = settings_bases(text).into_iter().map(|h| h.function).collect();
    // `Settings` sets a prefix: a subclass of another file would read its fields under it.
    assert_eq!(bases, Vec::<String>::new());
    let unprefixed = "class Base(BaseSettings):\n    model_config = SettingsConfigDict(env_file=\".env\")\n";
    let bases: Vec<String> = settings_bases(unprefixed).into_iter().map(|h| h.function).collect();
    assert_eq!(bases, ["class Base(BaseSettings)"]);
}

#[test]
fn fields_the_code_gives_the_constructor_are_not_read_from_the_environment() {
    let text = r#"
class AppSettings(BaseSettings):
    SECRET: str
    SESSION_SECRET: str
    DB_PASSWORD: str
    API_TOKEN: str

def build(data_dir) -> AppSettings:
    secret_settings = {
        "SECRET": determine_secrets(data_dir, ".secret"),
        "SESSION_SECRET": determine_secrets(data_dir, ".session_secret"),
    }
    return AppSettings(
        _env_file=".env",  # type: ignore
        # the token comes from the data directory
        API_TOKEN=load_token(data_dir),
        **secret_settings,
    )
"#;
    assert_eq!(found(text), [("DB_PASSWORD".into(), Need::Required)]);
    // A key set on the unpacked dict after its literal is given as well.
    let set_later = text
        .replace("    return AppSettings(", "    secret_settings[\"DB_PASSWORD\"] = vault()\n    return AppSettings(");
    assert!(found(&set_later).is_empty(), "{:?}", found(&set_later));
}

#[test]
fn dynaconf_validators() {
    let text = "settings = Dynaconf(envvar_prefix=\"MYAPP\", validators=[\n    Validator(\"DATABASE_URL\", must_exist=True),\n    Validator(\"mail.password\", default=\"\"),\n])\n";
    assert_eq!(
        found(text),
        [("MYAPP_DATABASE_URL".into(), Need::Required), ("MYAPP_MAIL__PASSWORD".into(), Need::Optional)]
    );
}

#[test]
fn reads_under_a_condition_are_optional() {
    let text = "env = environ.Env()\n\
            SECRET_KEY = env.str('SECRET_KEY')\n\
            if env.bool('USE_S3', False):\n    AWS_SECRET_ACCESS_KEY = env.str('AWS_SECRET_ACCESS_KEY')\n\
            else:\n    DATABASES = {\n        'default': {\n            'PASSWORD': env.str('DB_PASSWORD'),\n        }\n    }\n\
            class Settings(BaseSettings):\n    API_TOKEN: str\n\
            def token():\n    return os.environ['CALLED_TOKEN']\n\
            if \"SIGNING_KEY\" in os.environ and os.environ[\"SIGNING_KEY\"] != \"\":\n    SIGN = True\n";
    let found = found(text);
    let need = |name: &str| found.iter().find(|(n, _)| n == name).map(|(_, need)| *need);
    assert_eq!(need("SECRET_KEY"), Some(Need::Required));
    assert_eq!(need("AWS_SECRET_ACCESS_KEY"), Some(Need::Optional));
    assert_eq!(need("DB_PASSWORD"), Some(Need::Optional));
    assert_eq!(need("API_TOKEN"), Some(Need::Required));
    assert_eq!(need("CALLED_TOKEN"), Some(Need::Required));
    assert_eq!(need("SIGNING_KEY"), Some(Need::Optional), "read in the condition that tests it");
}

#[test]
fn a_secret_key_the_settings_fill_in_when_unset_is_not_required() {
    let filled = "SECRET_KEY = os.environ.get(\"SECRET_KEY\")\nif not SECRET_KEY and DEBUG:\n    SECRET_KEY = get_random_secret_key()\n";
    assert_eq!(found(filled), [("SECRET_KEY".into(), Need::Unstated)]);
    let checked =
        "SECRET_KEY = os.environ.get(\"APP_COOKIE_SECRET\")\nif SECRET_KEY is None:\n    raise Exception(\"set it\")\n";
    assert_eq!(found(checked), [("APP_COOKIE_SECRET".into(), Need::Required)]);
}

#[test]
fn fields_formatted_from_other_fields_are_computed() {
    let text = "class Db(BaseSettings):\n    POSTGRES_PASSWORD: str = config(\"POSTGRES_PASSWORD\", default=\"postgres\")\n    POSTGRES_URI: str = f\"{POSTGRES_USER}:{POSTGRES_PASSWORD}@{POSTGRES_SERVER}\"\n    REDIS_CACHE_URL: str = f'redis://{REDIS_CACHE_HOST}'\n    PLAIN_URL: str = \"f{x}\"\n";
    let names: Vec<String> = found(text).into_iter().map(|(n, _)| n).collect();
    assert!(!names.iter().any(|n| n == "POSTGRES_URI" || n == "REDIS_CACHE_URL"), "{names:?}");
    assert!(names.iter().any(|n| n == "PLAIN_URL"), "{names:?}");
    assert!(names.iter().any(|n| n == "POSTGRES_PASSWORD"), "{names:?}");
}

#[test]
fn a_request_handler_reads_on_demand() {
    let text = "import os\n\n@router.post(\"/auth\")\nasync def auth(request):\n    secret = os.environ[\"OAUTH_CLIENT_SECRET\"]\n\n@app.route(\"/hook\")\n@login_required\ndef hook():\n    return os.environ[\"HOOK_KEY\"]\n\ndef boot():\n    return os.environ[\"BOOT_KEY\"]\n";
    assert_eq!(
        found(text),
        [
            ("OAUTH_CLIENT_SECRET".into(), Need::Unstated),
            ("HOOK_KEY".into(), Need::Unstated),
            ("BOOT_KEY".into(), Need::Required),
        ]
    );
}

#[test]
fn environs_prefixed_blocks_put_their_prefix_first() {
    let text = "from environs import Env\n\nenv = Env()\nenv.read_env()\n\nwith env.prefixed(\"MYAPP_\"):\n    SECRET_KEY = env.str(\"SECRET_KEY\")\n    with env.prefixed(\"DB_\"):\n        # the database's\n        DB_PASSWORD = env.str(\"PASSWORD\")\n    DEBUG = env.bool(\"DEBUG\", False)\n\nSENTRY_DSN = env.str(\"SENTRY_DSN\", None)\n";
    assert_eq!(
        found(text),
        [
            ("MYAPP_SECRET_KEY".into(), Need::Required),
            ("MYAPP_DB_PASSWORD".into(), Need::Required),
            ("MYAPP_DEBUG".into(), Need::Optional),
            ("SENTRY_DSN".into(), Need::Optional),
        ]
    );
}

#[test]
fn django_environ_reads_take_the_schemes_cast_and_default() {
    let text = "env = environ.Env(\n    DD_FORGOT_PASSWORD=(bool, True),\n    DD_BROKER_PASSWORD=(str, \"\"),\n)\nFORGOT = env(\"DD_FORGOT_PASSWORD\")\nBROKER = env(\"DD_BROKER_PASSWORD\")\nKEY = env(\"DD_SECRET_KEY\")\n";
    let got: Vec<(String, Need, bool)> = direct(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
    assert_eq!(
        got,
        [
            ("DD_FORGOT_PASSWORD".to_string(), Need::Optional, true),
            ("DD_BROKER_PASSWORD".to_string(), Need::Optional, false),
            ("DD_SECRET_KEY".to_string(), Need::Required, false),
        ]
    );
}

#[test]
fn nested_models_under_the_delimiter_and_the_prefix() {
    let text = r#"
class Database(BaseModel):
    host: str = "localhost"
    password: SecretStr
    pool_size: int = 5

class Mail(BaseModel):
    api_key: str

class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="SHOP_", env_nested_delimiter="__")

    db: Database
    mail: Optional[Mail] = None
    debug: bool = False
"#;
    assert_eq!(
        found(text),
        [
            ("SHOP_DB__HOST".into(), Need::Optional),
            ("SHOP_DB__PASSWORD".into(), Need::Required),
            ("SHOP_DB__POOL_SIZE".into(), Need::Optional),
            // An optional model's required field is optional.
            ("SHOP_MAIL__API_KEY".into(), Need::Optional),
            ("SHOP_DEBUG".into(), Need::Optional),
        ]
    );
    // Without a delimiter, a model field is one variable holding JSON.
    let flat = text.replace(", env_nested_delimiter=\"__\"", "");
    assert!(found(&flat).contains(&("SHOP_DB".into(), Need::Required)), "{:?}", found(&flat));
}

#[test]
fn reads_of_a_string_constant_read_its_value() {
    let text = "class ConfigKey:\n    SECRET_KEY = \"SECRET_KEY\"\n    PEPPER: str = \"APP_PEPPER\"\n    CONFIG_NAME = \"config_name\"\n\n\
        TOKEN_VAR = \"APP_TOKEN\"\n\n\
        class Config:\n    SECRET_KEY = os.environ.get(ConfigKey.SECRET_KEY)\n    PEPPER = os.environ[ConfigKey.PEPPER]\n\
            NAME = os.environ.get(ConfigKey.CONFIG_NAME, \"production\")\n    TOKEN = os.getenv(TOKEN_VAR, \"dev\")\n    OTHER = os.getenv(UNKNOWN)\n";
    assert_eq!(
        found(text),
        [
            ("SECRET_KEY".into(), Need::Unstated),
            ("APP_PEPPER".into(), Need::Required),
            ("APP_TOKEN".into(), Need::Optional),
        ],
        "a lower-case value is no read"
    );
    let deferred: Vec<(String, bool)> =
        reads(text).into_iter().filter(|r| r.by_constant).map(|r| (r.name, r.by_constant)).collect();
    assert_eq!(deferred, [("UNKNOWN".to_string(), true)], "a name the file never assigns is another module's");
    assert_eq!(
        name_constants(text),
        [("TOKEN_VAR".to_string(), "APP_TOKEN".to_string())],
        "module constants only, holding a variable's name"
    );
}

#[test]
fn a_false_default_in_an_if_tests_presence_and_types_nothing() {
    let text = "if os.getenv(\"SMTP_CREDENTIALS\", False):\n    params = json.loads(os.getenv(\"SMTP_CREDENTIALS\"))\nDEBUG = os.getenv(\"DEBUG\", False)\n";
    let settings: Vec<(String, bool)> = direct(text).into_iter().map(|r| (r.name, r.setting)).collect();
    assert_eq!(
        settings,
        [("SMTP_CREDENTIALS".into(), false), ("SMTP_CREDENTIALS".into(), false), ("DEBUG".into(), true)]
    );
}

#[test]
fn a_read_in_a_method_requires_nothing_at_start() {
    let text = "import os\n\nclass BingSearch:\n    def __init__(self):\n        self.endpoint = os.environ[\"BING_ENDPOINT\"]\n        self.api_key = self.get_api_key()\n\n    def get_api_key(self):\n        try:\n            api_key = os.environ[\"BING_API_KEY\"]\n        except Exception:\n            raise Exception(\"set BING_API_KEY\")\n        return api_key\n\ndef load():\n    return os.environ[\"APP_TOKEN\"]\n";
    assert_eq!(
        found(text),
        [
            ("BING_ENDPOINT".into(), Need::Required),
            ("BING_API_KEY".into(), Need::Unstated),
            ("APP_TOKEN".into(), Need::Required)
        ]
    );
}
