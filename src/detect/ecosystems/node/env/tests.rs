use super::*;

fn found(rel: &str, text: &str) -> Vec<(String, Need)> {
    reads(RelPath::new(rel).unwrap(), text).into_iter().map(|r| (r.name, r.need)).collect()
}

#[test]
fn reads_written_inside_strings_are_snippets() {
    let text = "export const SNIPPET = `\nconst client = require('sdk')(\n  process.env.SNIPPET_API_KEY,\n  {host: \"${window.location.origin}\"}\n);\n`;\nconst url = `${process.env.REAL_TOKEN}/x`;\nconst doc = \"set process.env.DOC_TOKEN\";\n// process.env.COMMENT_TOKEN isn't one\nconst key = process.env.SERVER_KEY;\nconst nested = `a ${f({ b: `c ${process.env.NESTED_SECRET}` })} process.env.TEXT_SECRET`;\n";
    assert_eq!(
        found("a.ts", text),
        [
            ("REAL_TOKEN".into(), Need::Unstated),
            ("COMMENT_TOKEN".into(), Need::Unstated),
            ("SERVER_KEY".into(), Need::Unstated),
            ("NESTED_SECRET".into(), Need::Unstated),
        ]
    );
}

#[test]
fn class_validator_fields_are_required_unless_optional() {
    let text = "import { IsOptional, IsString, IsInt, ValidateIf } from 'class-validator';\n\nclass EnvironmentVariablesValidator {\n  @IsString()\n  AUTH_JWT_SECRET: string;\n\n  @ValidateIf((envValues) => !envValues.DATABASE_URL)\n  @IsString()\n  DATABASE_PASSWORD: string;\n\n  @IsString()\n  @IsOptional()\n  MAIL_PASSWORD: string;\n\n  @IsInt()\n  @IsOptional()\n  APP_PORT: number;\n\n  @IsString()\n  STRIPE_KEY?: string;\n\n  helper: string;\n}\n\nexport default registerAs('auth', () => {\n  validateConfig(process.env, EnvironmentVariablesValidator);\n});\n";
    let reads = reads(crate::rel_path::rel!("src/auth/config/auth.config.ts"), text);
    let got: Vec<(&str, Need, bool)> = reads.iter().map(|r| (r.name.as_str(), r.need, r.setting)).collect();
    assert_eq!(
        got,
        [
            ("AUTH_JWT_SECRET", Need::Required, false),
            ("DATABASE_PASSWORD", Need::Optional, false),
            ("MAIL_PASSWORD", Need::Optional, false),
            ("APP_PORT", Need::Optional, true),
            ("STRIPE_KEY", Need::Optional, false),
        ]
    );
    // A DTO validated from a request body reads no environment.
    let dto =
        "import { IsString } from 'class-validator';\nexport class LoginDto {\n  @IsString()\n  PASSWORD: string;\n}\n";
    assert_eq!(found("src/auth/dto/login.dto.ts", dto), []);
}

#[test]
fn member_reads_and_fallbacks() {
    let text = "process.env.SET_HERE_SECRET = 'x';\nconst a = process.env.API_TOKEN ?? '';\nconst b = process.env[\"DB_PASSWORD\"]!;\nconst c = import.meta.env.VITE_KEY;\nif (process.env.X_SECRET != null) {}\nenv('APP_KEY', 'x')\n";
    assert_eq!(
        found("a.ts", text),
        [
            ("API_TOKEN".into(), Need::Optional),
            ("DB_PASSWORD".into(), Need::Unstated),
            ("VITE_KEY".into(), Need::Unstated),
            ("X_SECRET".into(), Need::Unstated),
            ("APP_KEY".into(), Need::Optional),
        ]
    );
}

#[test]
fn nest_config_service() {
    let text = "import { ConfigService } from '@nestjs/config';\nexport class Db {\n  constructor(configService: ConfigService) {\n    const url = configService.get<string>('DATABASE_URL');\n    const key = this.config.getOrThrow('JWT_SECRET');\n    const ttl = configService.get('CACHE_TOKEN', 'x');\n    const host = configService.get('database.host');\n  }\n}\n";
    assert_eq!(
        found("db.service.ts", text),
        [
            ("DATABASE_URL".into(), Need::Unstated),
            ("JWT_SECRET".into(), Need::Required),
            ("CACHE_TOKEN".into(), Need::Optional),
        ]
    );
    assert!(found("other.ts", "const url = configService.get('DATABASE_URL');\n").is_empty());
    // Thrown in a `try` block and caught: the app falls back to something else.
    let caught = "import { ConfigService } from '@nestjs/config';\nconst strategy = () => {\n  try {\n    const id = config.getOrThrow('GITHUB_CLIENT_ID');\n    if (id) { log(`${id}`); }\n    return new GitHub(id, config.getOrThrow('GITHUB_CLIENT_SECRET'));\n  } catch {\n    return new Dummy();\n  }\n};\nconst retry = () => config.getOrThrow('SESSION_SECRET');\n";
    assert_eq!(
        found("auth.module.ts", caught),
        [
            ("GITHUB_CLIENT_ID".into(), Need::Optional),
            ("GITHUB_CLIENT_SECRET".into(), Need::Optional),
            ("SESSION_SECRET".into(), Need::Required),
        ]
    );
}

#[test]
fn a_non_null_assertion_requires_nothing() {
    // `!` is checked by the compiler alone: the app starts without the value, whether the
    // read is in a function, a conditional block or at the top of a module.
    let text = "export const providers = [\n  { build: () =>\n    GitLab({ clientSecret: process.env.GITLAB_CLIENT_SECRET! }) },\n];\nif (process.env.SSO) {\n  sso(process.env.SSO_SECRET!);\n}\nconst key = process.env.SIGNING_KEY!;\n";
    assert_eq!(
        found("auth.ts", text),
        [
            ("GITLAB_CLIENT_SECRET".into(), Need::Unstated),
            ("SSO".into(), Need::Unstated),
            ("SSO_SECRET".into(), Need::Unstated),
            ("SIGNING_KEY".into(), Need::Unstated),
        ]
    );
}

#[test]
fn reads_through_another_name_for_process_env() {
    let text = "const env = process.env;\nconst pass = env.DB_PASS || 'x';\nenv.SET_HERE = '1';\n/**\n * @param {NodeJS.ProcessEnv} config\n */\nfunction redis(config) { return config.REDIS_PASSWORD; }\nconst cfg = (e: NodeJS.ProcessEnv) => e.API_TOKEN;\nconst other = { env: {} };\nother.env.NOT_READ;\nenv.get('lower');\nconst s = \"env.IN_TEXT\";\n";
    assert_eq!(
        found("a.ts", text),
        [
            ("REDIS_PASSWORD".into(), Need::Unstated),
            ("API_TOKEN".into(), Need::Unstated),
            ("DB_PASS".into(), Need::Optional),
        ]
    );
    // A generated file with thousands of aliases follows a few, quickly.
    let generated: String = (0..5000).map(|i| format!("const e{i} = process.env;\ne{i}.K{i};\n")).collect();
    assert_eq!(found("gen.js", &generated).len(), MAX_ALIASES);
}

#[test]
fn destructuring() {
    let text = "const { STRIPE_SECRET_KEY, SMTP_PASS: pass, JWT_SECRET = 'dev', ...rest } = process.env;\n";
    assert_eq!(
        found("a.js", text),
        [
            ("STRIPE_SECRET_KEY".into(), Need::Unstated),
            ("SMTP_PASS".into(), Need::Unstated),
            ("JWT_SECRET".into(), Need::Optional),
        ]
    );
}

#[test]
fn t3_env_schema() {
    let text = r#"
export const env = createEnv({
  server: {
    DATABASE_URL: z.string().url(),
    // a comment
    NEXTAUTH_SECRET:
      process.env.NODE_ENV === "production" ? z.string() : z.string().optional(),
    STRIPE_SECRET_KEY: z.string().min(1, { message: "a, b" }),
    RESEND_API_KEY: z.string().optional(),
    SMTP_PASSWORD: ZOptionalString,
  },
  client: {
    NEXT_PUBLIC_KEY: z.string(),
  },
  runtimeEnv: {
    DATABASE_URL: process.env.DATABASE_URL,
  },
});
"#;
    let schema: Vec<(String, Need)> = reads(crate::rel_path::rel!("env.ts"), text)
        .into_iter()
        .filter(|r| r.via == "t3-env schema")
        .map(|r| (r.name, r.need))
        .collect();
    assert_eq!(
        schema,
        [
            ("DATABASE_URL".into(), Need::Required),
            ("NEXTAUTH_SECRET".into(), Need::Optional),
            ("STRIPE_SECRET_KEY".into(), Need::Required),
            ("RESEND_API_KEY".into(), Need::Optional),
            ("SMTP_PASSWORD".into(), Need::Unstated),
            ("NEXT_PUBLIC_KEY".into(), Need::Required),
        ]
    );
}

#[test]
fn a_t3_env_schema_that_skips_validation_requires_nothing() {
    let text = "export const env = createEnv({\n  server: {\n    CRON_SECRET: z.string(),\n    AXIOM_TOKEN: z.string().min(1),\n    DEBUG: z.string().optional(),\n  },\n  runtimeEnv: process.env,\n  skipValidation: true,\n});\n";
    let needs: Vec<(String, Need)> =
        reads(crate::rel_path::rel!("env.ts"), text).into_iter().map(|r| (r.name, r.need)).collect();
    assert_eq!(
        needs,
        [
            ("CRON_SECRET".into(), Need::Unstated),
            ("AXIOM_TOKEN".into(), Need::Unstated),
            ("DEBUG".into(), Need::Optional)
        ]
    );
    // Skipped on a condition: checked by default, so required as before.
    let conditional = text.replace("skipValidation: true", "skipValidation: !!process.env.SKIP_ENV_VALIDATION");
    let schema: Vec<EnvRead> =
        reads(crate::rel_path::rel!("env.ts"), &conditional).into_iter().filter(|r| r.via == "t3-env schema").collect();
    assert_eq!(schema.iter().filter(|r| r.need == Need::Required).count(), 2, "{schema:?}");
}

#[test]
fn envalid_zod_and_env_var() {
    let text = "const env = cleanEnv(process.env, {\n  API_KEY: str(),\n  MAIL_PASS: str({ default: '' }),\n  PORT: port({ devDefault: 3000 }),\n});\n";
    assert_eq!(
        found("config.js", text),
        [("API_KEY".into(), Need::Required), ("MAIL_PASS".into(), Need::Optional), ("PORT".into(), Need::Optional)]
    );
    let text = "const schema = z.object({ JWT_SECRET: z.string(), REDIS_URL: z.string().default('redis://x') });\nschema.parse(process.env);\n";
    assert_eq!(found("env.ts", text), [("JWT_SECRET".into(), Need::Required), ("REDIS_URL".into(), Need::Optional)]);
    // A zod object in a file that never reads the environment describes something else.
    assert!(found("form.ts", "const s = z.object({ PASSWORD: z.string() });\n").is_empty());
    let text = "import env from 'env-var';\nconst k = env.get('STRIPE_KEY').required().asString();\nconst t = env.get('TOKEN').default('x').asString();\n";
    assert_eq!(found("c.ts", text), [("STRIPE_KEY".into(), Need::Required), ("TOKEN".into(), Need::Optional)]);
}

#[test]
fn declarations_and_helpers() {
    let text = "declare namespace NodeJS {\n  export interface ProcessEnv {\n    PORT?: string;\n    DATABASE_URL: string;\n    INNGEST_SIGNING_KEY?: string;\n  }\n}\n";
    assert_eq!(
        found("process-env.d.ts", text),
        [
            ("PORT".into(), Need::Optional),
            ("DATABASE_URL".into(), Need::Unstated),
            ("INNGEST_SIGNING_KEY".into(), Need::Optional)
        ]
    );
    let text = "export function requireEnv(name: string): string {\n  const v = process.env[name];\n  if (!v) throw new Error(name);\n  return v;\n}\nconst get = (key: string, fallback?: string) => process.env[key] ?? fallback;\nconst a = requireEnv('JWT_SECRET');\nconst b = get('SMTP_PASSWORD', '');\nconst c = get(\"API_TOKEN\");\n";
    assert_eq!(
        found("config.ts", text),
        [
            ("JWT_SECRET".into(), Need::Required),
            ("SMTP_PASSWORD".into(), Need::Optional),
            ("API_TOKEN".into(), Need::Unstated)
        ]
    );
}

#[test]
fn turbo_json_declares_what_tasks_read() {
    let text = r#"{"globalEnv": ["DATABASE_URL", "NEXT_PUBLIC_*"], "tasks": {"build": {"env": ["OPENAI_API_KEY", "DATABASE_URL"], "passThroughEnv": ["SENTRY_AUTH_TOKEN"]}}}"#;
    let names: Vec<String> = found("turbo.json", text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["DATABASE_URL", "OPENAI_API_KEY", "SENTRY_AUTH_TOKEN"]);
    assert!(found("turbo.json", "{ not json").is_empty());
}

#[test]
fn prisma_schema() {
    let text = "datasource db {\n  provider = \"postgresql\"\n  url = env(\"DATABASE_URL\")\n  directUrl = env(\"DIRECT_URL\")\n  shadowDatabaseUrl = env(\"SHADOW_DATABASE_URL\")\n}\n";
    assert_eq!(
        found("prisma/schema.prisma", text),
        [
            ("DATABASE_URL".into(), Need::Required),
            ("DIRECT_URL".into(), Need::Required),
            ("SHADOW_DATABASE_URL".into(), Need::Optional)
        ]
    );
}

#[test]
fn znv_parses_a_plain_object_of_zod_validators() {
    let text = "import { parseEnv } from \"znv\";\nimport { z } from \"zod\";\n\nexport const { DATABASE_URL, PORT, SENTRY_DSN } = parseEnv(process.env, {\n  DATABASE_URL: z.string().url(),\n  PORT: z.number().int().default(3000),\n  SENTRY_DSN: z.string().optional(),\n});\n";
    let got: Vec<(String, Need, bool)> =
        reads(crate::rel_path::rel!("src/env.ts"), text).into_iter().map(|r| (r.name, r.need, r.setting)).collect();
    assert_eq!(
        got,
        [
            ("DATABASE_URL".into(), Need::Required, false),
            ("PORT".into(), Need::Optional, true),
            ("SENTRY_DSN".into(), Need::Optional, false),
        ]
    );
}

#[test]
fn an_apostrophe_in_a_schema_comment_hides_nothing_after_it() {
    let text = "const EnvSchema = z.object({\n  LIMIT: z.coerce.number().default(9), // under ClickHouse's limit\n  REDIS_CONNECTION_STRING: z.string().nullish(),\n  URL: z.string().default(\"https://example.com\"), // it's a URL\n  API_SECRET: z.string(),\n});\nEnvSchema.parse(process.env);\n";
    let names: Vec<String> = found("src/env.ts", text).into_iter().map(|(name, _)| name).collect();
    assert!(names.contains(&"REDIS_CONNECTION_STRING".to_string()), "{names:?}");
    assert!(names.contains(&"API_SECRET".to_string()), "{names:?}");
}

#[test]
fn an_apostrophe_in_a_block_comment_hides_nothing_after_it() {
    // A vendored t3-env, with a block comment between the sections.
    let text = "import { createEnv } from '../3rdparty/t3-env';\nexport const env = createEnv({\n  server: {\n    OPENAI_API_KEY: z.string().optional(),\n  },\n  /*\n   * You'll get type errors if these are not prefixed.\n   */\n  client: {\n    NEXT_PUBLIC_URL: z.url().optional(),\n  },\n});\nconst later = { MISTRAL_API_KEY: process.env.MISTRAL_API_KEY };\n";
    let names: Vec<String> = found("src/server/env.server.ts", text).into_iter().map(|(name, _)| name).collect();
    assert!(names.contains(&"OPENAI_API_KEY".to_string()), "{names:?}");
}

#[test]
fn a_t3_env_schema_split_by_feature_reads_every_spread_section() {
    let text = "import { createEnv } from \"@t3-oss/env-nextjs\";\nconst baseEnv = {\n  server: { ENCRYPTION_SECRET: z.string().length(32) },\n  client: { NEXT_PUBLIC_URL: z.string().url() },\n};\nconst gitlabEnv = {\n  server: {\n    GITLAB_CLIENT_SECRET: z.string().min(1).optional(),\n    GITLAB_BASE_URL: z.string().url().optional(),\n  },\n};\nconst smtpVars = { SMTP_PASSWORD: z.string().optional() };\nconst unused = { server: { NOT_SPREAD_TOKEN: z.string() } };\nexport const env = createEnv({\n  server: {\n    ...baseEnv.server,\n    ...gitlabEnv.server,\n    ...smtpVars,\n    OWN_SECRET: z.string(),\n  },\n  client: { ...baseEnv.client },\n  runtimeEnv: process.env,\n});\n";
    let mut names: Vec<String> = found("src/env.ts", text).into_iter().map(|(name, _)| name).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "ENCRYPTION_SECRET",
            "GITLAB_BASE_URL",
            "GITLAB_CLIENT_SECRET",
            "NEXT_PUBLIC_URL",
            "OWN_SECRET",
            "SMTP_PASSWORD"
        ]
    );
}

#[test]
fn a_long_schema_is_read_to_its_end() {
    // One object of a few hundred variables with their comments outgrows a call's lookahead.
    let mut text = String::from("import * as z from 'zod';\nexport const serverSchema = z\n  .object({\n");
    for i in 0..600 {
        text.push_str(&format!("    // The {i}th setting's reason, written out at some length for a reader.\n"));
        text.push_str(&format!("    SETTING_{i}: z.string().optional(),\n"));
    }
    text.push_str("    STRIPE_WEBHOOK_SECRET: z.string(),\n  });\nserverSchema.parse(process.env);\n");
    assert!(text.len() > 64 * 1024);
    let names = found("src/env/server-schema.ts", &text);
    assert_eq!(names.len(), 601);
    assert_eq!(names.last(), Some(&("STRIPE_WEBHOOK_SECRET".into(), Need::Required)));
}

#[test]
fn a_file_of_unclosed_schemas_stays_linear() {
    let text = format!("const a = process.env;\n{}", "z.object({".repeat(150_000));
    let started = std::time::Instant::now();
    assert!(found("env.ts", &text).is_empty());
    // Unbounded, each opener scans the rest of the file: minutes, not milliseconds.
    // 2.7 s alone in a debug build; the bound leaves room for a loaded 2-core CI machine.
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
}
