//! Variables an SDK reads by itself when the code that makes its client gives no value:
//! `new OpenAI()` reads `OPENAI_API_KEY`, `@vercel/blob`'s `put(…)` reads
//! `BLOB_READ_WRITE_TOKEN`. The code never spells the name, yet the app needs it. One row
//! per SDK: the package the file imports, the call that relies on the default, the option
//! that would give the value instead (a file that passes it reads its own variable), and
//! the variables.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const QUOTES: &[char] = &['"', '\'', '`'];

struct SdkDefault {
    /// The package the file imports, itself or one of its subpaths (`@clerk/nextjs/server`).
    package: &'static str,
    /// A pattern of the call that makes the client or uses the default one.
    call: &'static str,
    /// The option (`apiKey: …`) that gives the value in code, if the SDK has one.
    option: Option<&'static str>,
    /// Which argument holds the options: the client's constructor takes them alone (0), a
    /// function after what it works on (`put(path, body, { token })`: 2).
    options_at: usize,
    names: &'static [&'static str],
    via: &'static str,
}

const SDK_DEFAULTS: &[SdkDefault] = &[
    SdkDefault {
        package: "openai",
        call: r"new[[:space:]]+OpenAI[[:space:]]*\(",
        option: Some("apiKey"),
        options_at: 0,
        names: &["OPENAI_API_KEY"],
        via: "the openai SDK's default",
    },
    SdkDefault {
        package: "@anthropic-ai/sdk",
        call: r"new[[:space:]]+Anthropic[[:space:]]*\(",
        option: Some("apiKey"),
        options_at: 0,
        names: &["ANTHROPIC_API_KEY"],
        via: "the Anthropic SDK's default",
    },
    SdkDefault {
        package: "@vercel/blob",
        call: r"(?:^|[^.[:word:]])(?:put|del|list|head|copy)[[:space:]]*\(",
        option: Some("token"),
        options_at: 2,
        names: &["BLOB_READ_WRITE_TOKEN"],
        via: "@vercel/blob's default",
    },
    SdkDefault {
        package: "@upstash/redis",
        call: r"Redis[[:space:]]*\.[[:space:]]*fromEnv[[:space:]]*\(",
        option: None,
        options_at: 0,
        names: &["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"],
        via: "@upstash/redis's Redis.fromEnv()",
    },
    // Clerk's Next.js middleware verifies sessions with the secret key it reads itself.
    SdkDefault {
        package: "@clerk/nextjs",
        call: r"(?:^|[^.[:word:]])(?:clerkMiddleware|authMiddleware)[[:space:]]*\(",
        option: None,
        options_at: 0,
        names: &["CLERK_SECRET_KEY"],
        via: "Clerk's middleware default",
    },
    // The AI SDK's providers: the default instance, imported (`import { openai } from
    // "@ai-sdk/openai"`, used however), or a factory called without options
    // (`createOpenAI()`) reads the provider's key.
    SdkDefault {
        package: "@ai-sdk/openai",
        call: r"\{(?:[^}]*[^[:word:]])?openai(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createOpenAI[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["OPENAI_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/anthropic",
        call: r"\{(?:[^}]*[^[:word:]])?anthropic(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createAnthropic[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["ANTHROPIC_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/google",
        call: r"\{(?:[^}]*[^[:word:]])?google(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createGoogleGenerativeAI[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["GOOGLE_GENERATIVE_AI_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/mistral",
        call: r"\{(?:[^}]*[^[:word:]])?mistral(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createMistral[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["MISTRAL_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/groq",
        call: r"\{(?:[^}]*[^[:word:]])?groq(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createGroq[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["GROQ_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/xai",
        call: r"\{(?:[^}]*[^[:word:]])?xai(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createXai[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["XAI_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/deepseek",
        call: r"\{(?:[^}]*[^[:word:]])?deepseek(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createDeepSeek[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["DEEPSEEK_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/cohere",
        call: r"\{(?:[^}]*[^[:word:]])?cohere(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createCohere[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["COHERE_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/fireworks",
        call: r"\{(?:[^}]*[^[:word:]])?fireworks(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createFireworks[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["FIREWORKS_API_KEY"],
        via: "the AI SDK provider's default",
    },
    SdkDefault {
        package: "@ai-sdk/deepinfra",
        call: r"\{(?:[^}]*[^[:word:]])?deepinfra(?:[^[:word:]][^}]*)?\}[[:space:]]*from|(?:^|[^.[:word:]])createDeepInfra[[:space:]]*\([[:space:]]*\)",
        option: None,
        options_at: 0,
        names: &["DEEPINFRA_API_KEY"],
        via: "the AI SDK provider's default",
    },
];

/// The variables the SDKs `text` imports read by default, at the first call that relies on it.
pub fn reads(text: &str) -> Vec<EnvRead> {
    static COMPILED: LazyLock<Vec<(Regex, Regex, Option<Regex>)>> = LazyLock::new(|| {
        SDK_DEFAULTS
            .iter()
            .map(|sdk| {
                let package = regex::escape(sdk.package);
                let import = Regex::new(&format!(
                    r#"(?:from[[:space:]]*|require\([[:space:]]*|import\([[:space:]]*)['"]{package}(?:/[^'"/][^'"]*)?['"]"#
                ))
                .expect("the SDK import pattern is valid");
                let call = Regex::new(sdk.call).expect("the SDK call pattern is valid");
                let option = sdk.option.map(|o| {
                    Regex::new(&format!(r"(?-u:\b){o}[[:space:]]*[:,}}]")).expect("the SDK option pattern is valid")
                });
                (import, call, option)
            })
            .collect()
    });
    let mut found = Vec::new();
    for (sdk, (import, call, option)) in SDK_DEFAULTS.iter().zip(COMPILED.iter()) {
        // The package's name first: a substring search, where the patterns scan the whole file.
        if !text.contains(sdk.package) || !import.is_match(text) || option.as_ref().is_some_and(|o| o.is_match(text)) {
            continue;
        }
        // Options spread in or passed as a variable come from elsewhere: only a call with
        // nothing, or with a literal object that leaves the option out, relies on the default.
        let relies_on_default = |m: regex::Match| {
            let options = options_argument(code::rest_of_call(&text[m.end()..], QUOTES), sdk.options_at);
            sdk.option.is_none() || options.is_none_or(|o| o.starts_with('{') && !o.contains("..."))
        };
        let Some(at) = call.find_iter(text).find(|m| relies_on_default(*m)).map(|m| m.start()) else { continue };
        found.extend(sdk.names.iter().map(|name| EnvRead::new(*name, at, Need::Unstated, sdk.via)));
    }
    found
}

/// The argument at `at` of a call whose arguments are `arguments` (past its opening
/// parenthesis), trimmed; `None` when the call passes fewer.
fn options_argument(arguments: &str, at: usize) -> Option<&str> {
    let mut rest = arguments.trim_start();
    for _ in 0..at {
        let first = code::expression(rest, QUOTES);
        rest = rest[first.len()..].trim_start().strip_prefix(',')?.trim_start();
    }
    let argument = code::expression(rest, QUOTES).trim();
    (!argument.is_empty()).then_some(argument)
}

#[cfg(test)]
mod tests {
    use super::reads;

    fn names(text: &str) -> Vec<String> {
        reads(text).into_iter().map(|r| r.name).collect()
    }

    #[test]
    fn a_client_made_without_its_key_reads_the_sdks_variable() {
        assert_eq!(names("import OpenAI from 'openai';\nconst client = new OpenAI();\n"), ["OPENAI_API_KEY"]);
        assert_eq!(
            names("import { put } from \"@vercel/blob\";\nawait put(name, file, { access: 'public' });\n"),
            ["BLOB_READ_WRITE_TOKEN"]
        );
        assert_eq!(
            names("const { Redis } = require('@upstash/redis');\nconst redis = Redis.fromEnv();\n"),
            ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"]
        );
        assert_eq!(
            names(
                "import { authMiddleware } from \"@clerk/nextjs\";\nexport default authMiddleware({ publicRoutes: [] });\n"
            ),
            ["CLERK_SECRET_KEY"]
        );
        assert_eq!(
            names("import { clerkMiddleware } from '@clerk/nextjs/server';\nexport default clerkMiddleware();\n"),
            ["CLERK_SECRET_KEY"]
        );
        assert_eq!(
            names("import { auth } from '@clerk/nextjs/server';\nconst { userId } = auth();\n"),
            [] as [&str; 0]
        );
        let ai = "import { openai } from '@ai-sdk/openai';\nimport { google } from \"@ai-sdk/google\";\nimport { type AnthropicProvider } from '@ai-sdk/anthropic';\nconst providers = { openai, google };\n";
        assert_eq!(names(ai), ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"]);
        assert_eq!(
            names("import { createAnthropic } from '@ai-sdk/anthropic';\nconst a = createAnthropic();\n"),
            ["ANTHROPIC_API_KEY"]
        );
        // A factory given its options reads what they say.
        assert!(
            names("import { createAnthropic } from '@ai-sdk/anthropic';\nconst a = createAnthropic({ apiKey });\n")
                .is_empty()
        );
    }

    #[test]
    fn a_key_given_in_code_or_no_call_reads_nothing() {
        assert!(names("import OpenAI from 'openai';\nnew OpenAI({ apiKey: process.env.MY_KEY });\n").is_empty());
        assert!(names("import type { ChatCompletion } from 'openai';\nlet c: ChatCompletion;\n").is_empty());
        assert!(names("import { put } from '@vercel/blob';\nawait put(n, f, { token: env.BLOB });\n").is_empty());
        assert!(names("const client = new OpenAI();\n").is_empty(), "not the SDK's class");
        assert!(names("import { Redis } from '@upstash/redis';\nnew Redis({ url, token });\n").is_empty());
        assert!(names("import OpenAI from 'openai';\nnew OpenAI({ ...options, fetch });\n").is_empty(), "spread");
        assert!(names("import OpenAI from 'openai';\nnew OpenAI(config);\n").is_empty(), "a variable");
    }
}
