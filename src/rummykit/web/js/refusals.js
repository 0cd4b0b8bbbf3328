// A refusal from the server said in the reader's language: from its stable codes and
// facts (`code`, `rule`: the engine's code, `params`), never from its English `message`.
// An engine refusal has a template `refusal.<rule>`, the server's own refusals one
// `error.<code>`; a code with no template (a plugin game's) is shown in the server's
// words in English, and as a general sentence naming the code in another language.
import { h } from "./api.js";
import { has, language, placeholders, t, tNodes, withLanguage } from "./i18n.js";

const RULE_ID = /^[a-z]+-\d+(\.\d+)*$/;
const ENGINE_CODES = new Set(["illegal_action", "not_your_turn"]);
// Server refusals whose English message names the very field or card at fault: English
// readers get those words, other languages the code's general sentence.
const DETAILED = new Set(["bad_request", "invalid_action", "bad_message"]);

function filled(id, params) {
  if (!has(id)) return null;
  for (const name of placeholders(id)) if (!(name in params)) return null;
  return t(id, params);
}

/** The words for an `error` message (or a check's `error`): `{code, message, rule, params}`. */
export function errorText(error) {
  if (!error) return t("error.unknown");
  const params = { ...(error.params || {}) };
  // Rami names a physical card ("7H@1"); people read its face.
  if (typeof params.card === "string") params.card = params.card.replace(/@\d+$/, "");
  if (ENGINE_CODES.has(error.code) && error.rule) {
    const text = filled(`refusal.${error.rule}`, params);
    if (text) return text;
  }
  if (language() === "en" && DETAILED.has(error.code) && error.message) return error.message;
  if (!ENGINE_CODES.has(error.code) || !error.rule) {
    const text = filled(`error.${error.code}`, params);
    if (text) return text;
  }
  if (language() === "en" && error.message) return error.message;
  return t("refusal.unknown", { code: error.rule || error.code || "?" });
}

/** The rule id a refusal enforces, when it has one (`gin-3.5`). */
function ruleOf(error) {
  const rule = error && (error.rule_id || (error.params && error.params.rule));
  return rule && RULE_ID.test(rule) ? rule : null;
}

/** A refusal's words, followed by a link to the rule it enforces on the rules page (a new
 * tab, in the reader's language): a list of strings and nodes. */
export function refusalNodes(error) {
  const text = errorText(error);
  const rule = ruleOf(error);
  if (!rule) return [text];
  const game = rule.split("-")[0];
  const link = h("a", {
    href: withLanguage(`/rules/${game}`, rule), target: "_blank", rel: "noopener", class: "rule-link", "data-testid": "rule-link",
  }, `§${rule}`);
  return [text, " ", ...tNodes("refusal.see_rule", { rule: link })];
}
