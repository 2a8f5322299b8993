//! joi, the validator `@nestjs/config` documents for the environment
//! (`ConfigModule.forRoot({ validationSchema: Joi.object({ X: Joi.string().required() }) })`)
//! and the one apps check `process.env` against by hand (`envVarsSchema.validate(process.env)`).
//! joi's keys are optional unless `.required()`; a `.required()` under `Joi.when(…)` applies only
//! when its condition holds. `Joi.number()`, `Joi.boolean()`, `.valid(…)` and the like type the
//! value as a setting.

use std::sync::LazyLock;

use regex::Regex;

use super::{object_entries, types_a_setting};
use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const VIA: &str = "joi schema";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static OBJECT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?-u:\b)(?i-u:joi)[[:space:]]*\.[[:space:]]*object\([[:space:]]*\{|(?-u:\b)(?i-u:joi)[[:space:]]*\.[[:space:]]*object\([[:space:]]*\)[[:space:]]*\.[[:space:]]*keys\([[:space:]]*\{")
            .expect("the joi object pattern is valid")
    });
    static BOUND: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?:const|let|var)[[:space:]]+([A-Za-z_$][[:word:]$]*)(?:[[:space:]]*:[^=]+)?[[:space:]]*=[[:space:]]*$",
        )
        .expect("the binding pattern is valid")
    });
    if !text.contains("joi") && !text.contains("Joi") {
        return Vec::new();
    }
    // A file that checks the environment, or a schema whose name says it is the
    // environment's (`export const envValidationSchema = Joi.object({…})`, handed to
    // `ConfigModule` in another file). A request body's schema is neither.
    let checks_environment = ["process.env", "validationSchema", "@nestjs/config"].iter().any(|r| text.contains(r));
    let mut found = Vec::new();
    for m in OBJECT.find_iter(text) {
        let line_start = text[..m.start()].rfind('\n').map_or(0, |i| i + 1);
        let named_for_environment = BOUND
            .captures(&text[line_start..m.start()])
            .and_then(|c| c.get(1))
            .is_some_and(|name| name.as_str().to_ascii_lowercase().contains("env"));
        if !checks_environment && !named_for_environment {
            continue;
        }
        for entry in object_entries(text, m.end() - 1) {
            if !code::is_upper_snake(entry.name) {
                continue;
            }
            let value = entry.value.trim();
            let conditional = value.contains(".when(");
            let need = if value.contains(".required()") && !conditional && !value.contains(".default(") {
                Need::Required
            } else {
                Need::Optional
            };
            found.push(EnvRead::new(entry.name, entry.at, need, VIA).typed_setting(types_a_setting_in_joi(value)));
        }
    }
    found
}

/// Whether a joi validator types the value as a setting: a number, boolean, date or list, a
/// fixed set of values (`.valid('a', 'b')`), or a default that is one.
fn types_a_setting_in_joi(validator: &str) -> bool {
    static TYPED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?i-u:joi)[[:space:]]*\.[[:space:]]*(?:number|boolean|bool|date|array|valid)\(|^(?i-u:joi)[[:space:]]*\.[[:space:]]*string\([[:space:]]*\)[[:space:]]*\.[[:space:]]*(?:valid|equal)\(")
            .expect("the joi setting pattern is valid")
    });
    let validator = validator.trim();
    TYPED.is_match(validator) || types_a_setting(validator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nest_validation_schema_is_optional_unless_required() {
        let text = "import * as Joi from 'joi';\n\n@Module({\n  imports: [\n    ConfigModule.forRoot({\n      validationSchema: Joi.object({\n        NODE_ENV: Joi.string().valid('development', 'production').default('development'),\n        PORT: Joi.number().port().default(3000),\n        DATABASE_URL: Joi.string().required(),\n        JWT_SECRET: Joi.string().min(32).required(),\n        SENTRY_DSN: Joi.string().uri(),\n        STRIPE_SECRET_KEY: Joi.string().optional(),\n        GITHUB_CLIENT_SECRET: Joi.when('GITHUB_CLIENT_ID', { is: Joi.exist(), then: Joi.string().required() }),\n        ENABLE_SIGNUP: Joi.boolean().required(),\n        nested: Joi.string(),\n      }),\n    }),\n  ],\n})\nexport class AppModule {}\n";
        let got: Vec<(String, Need, bool)> = reads(text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
        assert_eq!(
            got,
            [
                ("NODE_ENV".into(), Need::Optional, true),
                ("PORT".into(), Need::Optional, true),
                ("DATABASE_URL".into(), Need::Required, false),
                ("JWT_SECRET".into(), Need::Required, false),
                ("SENTRY_DSN".into(), Need::Optional, false),
                ("STRIPE_SECRET_KEY".into(), Need::Optional, false),
                ("GITHUB_CLIENT_SECRET".into(), Need::Optional, false),
                ("ENABLE_SIGNUP".into(), Need::Required, true),
            ]
        );
    }

    #[test]
    fn a_schema_named_for_the_environment_or_checked_against_it() {
        let named = "import Joi from 'joi';\nexport const envValidationSchema = Joi.object({\n  MAIL_PASSWORD: Joi.string().required(),\n});\n";
        assert_eq!(reads(named).len(), 1);
        let keys = "const Joi = require('joi');\nconst schema = Joi.object().keys({\n  API_TOKEN: Joi.string().required(),\n}).unknown();\nconst { value } = schema.validate(process.env);\n";
        assert_eq!(reads(keys).into_iter().map(|r| r.name).collect::<Vec<_>>(), ["API_TOKEN"]);
        // A request body's schema reads no environment.
        let body = "import Joi from 'joi';\nexport const loginSchema = Joi.object({\n  PASSWORD: Joi.string().required(),\n});\n";
        assert_eq!(reads(body), []);
    }
}
