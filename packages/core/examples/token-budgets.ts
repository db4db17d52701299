// Bounding CONTEXT.md by tokens as well as characters.
import {
  approximateTokenizer,
  loadO200kTokenizer,
  loadTaskContext,
  type Workspace,
} from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";

declare const workspace: Workspace;

//#region tokenBudget
// Exact OpenAI o200k_base counts (needs the optional peer dependency gpt-tokenizer):
await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: o200kTokenizer });
// The same tokenizer, loaded on first use from the main entry point:
await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: await loadO200kTokenizer() });
// No vocabulary at all, within about ±25 % of o200k:
await loadTaskContext(workspace, { maxTokens: 2_000, tokenizer: approximateTokenizer });
//#endregion
