// The parts of `yaml` that protocols uses, re-exported through the package import `#yaml`.
//
// Deno resolves the `yaml` package to its Node build, which reads the LOG_TOKENS and LOG_STREAM
// environment variables on every token — a permission error under Deno unless `--allow-env` is
// granted. For Deno the build bundles `yaml`'s browser build (ISC licence, by Eemeli Aro) into
// `dist-vendor/yaml.js` instead; every other runtime imports the `yaml` package itself.

export type { DocumentOptions, Node, ParseOptions, SchemaOptions } from "yaml";
export {
  Composer,
  CST,
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  Parser,
  Scalar,
  visit,
} from "yaml";
