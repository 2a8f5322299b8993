//! Variables a Python SDK reads by itself when the code that makes its client gives no value:
//! `OpenAI()` reads `OPENAI_API_KEY`, `boto3.client("s3")` the AWS keys, django-storages' S3
//! backend the same when the settings name no keys. The code never spells the name, yet the
//! app needs it. One row per SDK: how a file uses the package, the call that relies on the
//! default, the keyword that would give the value instead, and the variables.

use std::sync::LazyLock;

use regex::Regex;

use super::QUOTES;
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

struct SdkDefault {
    /// A word the file must hold before any pattern runs.
    word: &'static str,
    /// How the file uses the package: its import, or a setting that names it.
    uses: &'static str,
    /// The call that makes the client (`None`: using the package is enough).
    call: Option<&'static str>,
    /// What gives the value in code instead: a keyword argument or a setting.
    given: &'static str,
    names: &'static [&'static str],
    via: &'static str,
}

const SDK_DEFAULTS: &[SdkDefault] = &[
    SdkDefault {
        word: "openai",
        uses: r"(?m)^[ \t]*(?:from[[:space:]]+openai(?:[[:space:]]|\.)|import[[:space:]]+openai(?-u:\b))",
        call: Some(r"(?:^|[^.[:word:]]|openai\.)(?:Async)?OpenAI[[:space:]]*\("),
        given: r"(?-u:\b)api_key[[:space:]]*=",
        names: &["OPENAI_API_KEY"],
        via: "the openai SDK's default",
    },
    SdkDefault {
        word: "anthropic",
        uses: r"(?m)^[ \t]*(?:from[[:space:]]+anthropic(?:[[:space:]]|\.)|import[[:space:]]+anthropic(?-u:\b))",
        call: Some(r"(?:^|[^.[:word:]]|anthropic\.)(?:Async)?Anthropic[[:space:]]*\("),
        given: r"(?-u:\b)api_key[[:space:]]*=",
        names: &["ANTHROPIC_API_KEY"],
        via: "the Anthropic SDK's default",
    },
    SdkDefault {
        word: "boto3",
        uses: r"(?m)^[ \t]*import[[:space:]]+boto3(?-u:\b)",
        call: Some(r"boto3\.(?:client|resource|Session|session\.Session)[[:space:]]*\("),
        given: r"(?-u:\b)aws_secret_access_key[[:space:]]*=",
        names: &["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
        via: "boto3's default credentials",
    },
    SdkDefault {
        word: "storages.backends.s3",
        uses: r#"['"]storages\.backends\.s3(?:boto3)?\.S3(?:Boto3)?Storage['"]|(?m)^[ \t]*from[[:space:]]+storages\.backends\.s3(?:boto3)?[[:space:]]+import"#,
        call: None,
        given: r"(?m)^[ \t]*AWS_(?:S3_)?SECRET_ACCESS_KEY[[:space:]]*=",
        names: &["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
        via: STORAGES_DEFAULT,
    },
];

/// How django-storages' S3 backend reads the AWS keys when the settings give none.
pub(in crate::detect::ecosystems::python) const STORAGES_DEFAULT: &str = "django-storages' S3 default credentials";

/// Whether a settings module's `text` gives django-storages its keys (`AWS_S3_SECRET_ACCESS_KEY
/// = config("S3_SECRET_ACCESS_KEY")`): then a storage class elsewhere (a subclass in
/// `storage_backends.py`, a serializer's import) reads no default.
pub(in crate::detect::ecosystems::python) fn gives_storages_keys(text: &str) -> bool {
    static GIVEN: LazyLock<Regex> = LazyLock::new(|| {
        let storages = SDK_DEFAULTS.iter().find(|sdk| sdk.via == STORAGES_DEFAULT).expect("a django-storages row");
        Regex::new(storages.given).expect("the SDK keyword pattern is valid")
    });
    text.contains("SECRET_ACCESS_KEY") && GIVEN.is_match(text)
}

/// The variables the SDKs `text` uses read by default, at the first use that relies on it.
pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static COMPILED: LazyLock<Vec<(Regex, Option<Regex>, Regex)>> = LazyLock::new(|| {
        SDK_DEFAULTS
            .iter()
            .map(|sdk| {
                let uses = Regex::new(sdk.uses).expect("the SDK use pattern is valid");
                let call = sdk.call.map(|c| Regex::new(c).expect("the SDK call pattern is valid"));
                let given = Regex::new(sdk.given).expect("the SDK keyword pattern is valid");
                (uses, call, given)
            })
            .collect()
    });
    // The words first: a substring search, where the patterns scan the whole file.
    if !SDK_DEFAULTS.iter().any(|sdk| text.contains(sdk.word)) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (sdk, (uses, call, given)) in SDK_DEFAULTS.iter().zip(COMPILED.iter()) {
        if !text.contains(sdk.word) {
            continue;
        }
        let Some(used) = uses.find(text) else { continue };
        if given.is_match(text) {
            continue;
        }
        // Keywords spread in (`**options`) may give the value: only a call without them relies
        // on the default.
        let at = match call {
            None => Some(used.start()),
            Some(call) => call
                .find_iter(text)
                .find(|m| !code::rest_of_call(&text[m.end()..], QUOTES).contains("**"))
                .map(|m| m.start()),
        };
        let Some(at) = at else { continue };
        found.extend(sdk.names.iter().map(|name| EnvRead::new(*name, at, Need::Unstated, sdk.via)));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::reads;

    fn names(text: &str) -> Vec<String> {
        reads(text).into_iter().map(|r| r.name).collect()
    }

    #[test]
    fn a_client_made_without_its_key_reads_the_sdk_s_variable() {
        assert_eq!(names("from openai import OpenAI\nclient = OpenAI()\n"), ["OPENAI_API_KEY"]);
        assert_eq!(names("import openai\nclient = openai.AsyncOpenAI(timeout=30)\n"), ["OPENAI_API_KEY"]);
        assert_eq!(names("import anthropic\nc = anthropic.Anthropic()\n"), ["ANTHROPIC_API_KEY"]);
        assert_eq!(
            names("import boto3\ns3 = boto3.client(\"s3\", region_name=REGION)\n"),
            ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]
        );
        let storages = "STORAGES = {\"default\": {\"BACKEND\": \"storages.backends.s3.S3Storage\"}}\nAWS_STORAGE_BUCKET_NAME = env.str(\"AWS_STORAGE_BUCKET_NAME\")\n";
        assert_eq!(names(storages), ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
        let subclass = "from storages.backends.s3boto3 import S3Boto3Storage\n\nclass PublicMediaStorage(S3Boto3Storage):\n    location = 'media'\n";
        assert_eq!(names(subclass), ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]);
    }

    #[test]
    fn a_key_given_in_code_or_no_client_reads_nothing() {
        assert!(names("from openai import OpenAI\nOpenAI(api_key=settings.OPENAI_KEY)\n").is_empty());
        assert!(names("from openai import OpenAI\nOpenAI(**kwargs)\n").is_empty(), "spread keywords");
        assert!(names("from openai.types import ChatCompletion\nx: ChatCompletion\n").is_empty());
        assert!(names("client = OpenAI()\n").is_empty(), "not the SDK's class");
        assert!(names("import boto3\nboto3.client('s3', aws_access_key_id=a, aws_secret_access_key=b)\n").is_empty());
        let keyed = "DEFAULT_FILE_STORAGE = 'storages.backends.s3boto3.S3Boto3Storage'\nAWS_SECRET_ACCESS_KEY = env('S3_SECRET')\n";
        assert!(names(keyed).is_empty());
    }
}
