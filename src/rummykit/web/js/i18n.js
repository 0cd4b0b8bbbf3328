// The browser table's words in the reader's language. Each language is one catalog
// file (/static/locales/<code>.json: message id -> text, or -> {one, other, ...} for a count)
// and the server's list of languages (rummykit.i18n.LANGUAGES, /api/languages); nothing
// here names a language but English, the fallback. Plural forms come from the
// platform's Intl.PluralRules. The choice: `?lang=` in the address (then remembered), else
// the remembered one, else the browser's own languages, else English.

/** Every language the table speaks: code -> its name in itself (the server's one list,
 * read by loadLanguages before anything is shown). */
let LANGUAGES = { en: "English" };
const FALLBACK = "en";
const STORE_KEY = "rummykit:lang";

let current = FALLBACK;
let catalog = {};
let fallback = {};
let plurals = new Intl.PluralRules(FALLBACK);

// A language's words: its catalog module, and the engines' refusal templates, which the
// server keeps once for the terminal and the browser (`refusal.<code>`; a template that
// depends on a number is `{one, other, by}`, `by` naming that number).
async function loadCatalog(code) {
  const [own, response] = await Promise.all([
    fetch(`/static/locales/${code}.json`),
    fetch(`/api/refusals/${code}`),
  ]);
  const words = own.ok ? await own.json() : {};
  if (response.ok) {
    for (const [id, entry] of Object.entries(await response.json())) words[`refusal.${id}`] = entry;
  }
  return words;
}

/** Ask the server which languages it speaks (English alone if it cannot say). */
export async function loadLanguages() {
  const response = await fetch("/api/languages");
  if (response.ok) LANGUAGES = await response.json();
}

/** The language to show: the address's `?lang=` (remembered), the stored choice, the
 * browser's preference, or English. */
export function chosenLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGUAGES[asked]) {
    localStorage.setItem(STORE_KEY, asked);
    return asked;
  }
  const stored = localStorage.getItem(STORE_KEY);
  if (stored && LANGUAGES[stored]) return stored;
  for (const tag of navigator.languages || []) {
    const code = tag.split("-")[0].toLowerCase();
    if (LANGUAGES[code]) return code;
  }
  return FALLBACK;
}

/** Load `code`'s catalog (and English under it) and mark the page as that language. */
export async function useLanguage(code) {
  current = LANGUAGES[code] ? code : FALLBACK;
  fallback = await loadCatalog(FALLBACK);
  catalog = current === FALLBACK ? fallback : await loadCatalog(current);
  plurals = new Intl.PluralRules(current);
  document.documentElement.lang = current;
}

/** Remember `code` and show the page again in it (a reload: every screen redraws). */
export function switchLanguage(code) {
  localStorage.setItem(STORE_KEY, code);
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

export function language() { return current; }

/** A link to one of the server's pages (a rules page) in the reader's language: English,
 * the pages' own, needs no `?lang=`. `anchor` is the part after "#". */
export function withLanguage(path, anchor = "") {
  const query = current === FALLBACK ? "" : `?lang=${current}`;
  return `${path}${query}${anchor ? `#${anchor}` : ""}`;
}

/** Whether the catalogs have a message `id`. */
export function has(id) { return id in catalog || id in fallback; }

function entryFor(id, params) {
  const entry = id in catalog ? catalog[id] : fallback[id];
  if (entry === undefined) return id;
  if (typeof entry === "string") return entry;
  const form = plurals.select(Number(params[entry.by || "count"]));
  return entry[form] !== undefined ? entry[form] : entry.other;
}

/** The message `id` with its `{placeholders}` filled from `params` (a plural message
 * chooses its form by `params.count`). */
export function t(id, params = {}) {
  return entryFor(id, params).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Like `t`, but placeholders may be DOM nodes (a link in a sentence): a list of strings
 * and nodes, ready for `h(...)`. */
export function tNodes(id, params = {}) {
  const parts = [];
  const text = entryFor(id, params);
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    parts.push(text.slice(last, match.index));
    const value = params[match[1]];
    parts.push(value === undefined ? match[0] : (value instanceof Node ? value : String(value)));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((part) => part !== "");
}

/** The placeholders a message names (all forms of a plural one). */
export function placeholders(id) {
  const entry = id in catalog ? catalog[id] : fallback[id];
  const forms = entry === undefined || typeof entry === "string" ? [] : Object.entries(entry);
  const texts = typeof entry === "string" ? [entry] : forms.filter(([form]) => form !== "by").map(([, text]) => text);
  return new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));
}

/** Names joined as the language lists them ("Ann, Bob and Cy"). */
export function listOf(items) {
  return new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(items.map(String));
}

/** A select of the languages, each in its own name; choosing one reloads the page in it. */
export function languagePicker(h) {
  return h("select", {
    class: "language-picker", "data-testid": "language", "aria-label": t("common.language"),
    onchange: (event) => switchLanguage(event.target.value),
  }, Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === current, lang: code }, name)));
}
