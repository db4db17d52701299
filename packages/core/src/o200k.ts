export { o200kTokenizer } from "./o200k-tokenizer.ts";
