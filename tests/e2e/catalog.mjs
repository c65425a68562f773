// The message catalog as the tests read it: a language's bundle from dist/ (what the browser
// fetches), each message turned into a pattern its rendered text must match, and the page's
// texts that match none of them; and locales/ itself, by key, with each message written as
// the console writes it, so a spec finds an element by its words in any language.

import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { DIST, ROOT } from "./harness.mjs";

/** The messages of `language` as built into dist/ (`i18n-<language>.json`), in key order. */
export function bundle(language) {
  const dist = path.resolve(ROOT, DIST);
  const app = readdirSync(dist).find((name) => name.startsWith("app-"));
  if (!app) throw new Error(`${dist}: no app-<hash>/ folder: run the release build first`);
  return JSON.parse(readFileSync(path.join(dist, app, `i18n-${language}.json`), "utf8"));
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const COUNT = "[-\\d\\s.,'\u00a0\u202f]+";

/** A message in the catalog's syntax as a regular expression source (arguments match anything). */
export function messageSource(message) {
  let at = 0;
  const parts = (inPlural) => {
    let out = "";
    while (at < message.length) {
      const c = message[at];
      if (c === "}") return out;
      if (c === "{") {
        at += 1;
        out += argument();
      } else if (c === "#" && inPlural) {
        at += 1;
        out += COUNT;
      } else {
        let end = at;
        while (end < message.length && !"{}".includes(message[end]) && !(inPlural && message[end] === "#")) end += 1;
        out += escape(message.slice(at, end)).replace(/\s+/g, "\\s+");
        at = end;
      }
    }
    return out;
  };
  const argument = () => {
    const close = message.indexOf("}", at);
    const comma = message.indexOf(",", at);
    if (comma === -1 || comma > close) {
      at = close + 1;
      return "(.+?)";
    }
    const kind = message.slice(comma + 1).trimStart().startsWith("plural") ? "plural" : "select";
    at = message.indexOf(",", comma + 1) + 1;
    const branches = [];
    for (;;) {
      while (/\s/.test(message[at])) at += 1;
      if (message[at] === "}") {
        at += 1;
        break;
      }
      at = message.indexOf("{", at) + 1;
      branches.push(parts(kind === "plural"));
      at += 1;
    }
    return `(?:${branches.join("|")})`;
  };
  return parts(false);
}

/**
 * Patterns for every message that has words of its own (one made only of arguments matches
 * anything), and for the words between a message's arguments: where an argument is an element
 * (a link, a `<code>`), the words around it are text nodes of their own.
 */
export function patterns(messages) {
  const words = (text) => /\p{L}{2,}/u.test(text.replace(/\{[^{}]*\}/g, ""));
  const whole = messages.filter(words).map((m) => messageSource(m));
  const pieces = messages
    .filter((m) => !/\{[^{}]*\{/.test(m))
    .flatMap((m) => m.split(/\{[^{}]*\}/))
    .filter((piece) => words(piece) && piece.trim().length > 3)
    .map((piece) => messageSource(piece.trim()));
  // A message whose branch is only an argument would accept any text: left out.
  return [...new Set([...whole, ...pieces])]
    .map((source) => new RegExp(`^\\s*${source}\\s*$`, "u"))
    .filter((pattern) => !pattern.test("Qxz qxz"));
}

const MONTHS = [
  "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
  "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december",
  "januar", "februar", "märz", "mär", "mai", "juni", "juli", "okt", "oktober", "dez", "dezember",
  "janv", "janvier", "févr", "février", "mars", "avr", "avril", "juin", "juil", "juillet", "août", "septembre", "octobre", "novembre", "déc", "décembre",
].join("|");

/** Text that is data, not words: numbers, amounts, dates and times, e-mail addresses, symbols. */
const DATA = [
  /^[\p{N}\p{P}\p{S}\p{Z}\s]*$/u, // numbers, amounts with symbols, punctuation, arrows
  // An amount with its currency's code or symbol ("110,00 PLN", "168,01 CA$").
  /^[\p{N}\p{P}\p{S}\p{Z}\s]*([A-Z]{3}|[A-Z]{1,2}\$)[\p{N}\p{P}\p{S}\p{Z}\s]*$/u,
  /^\S+@\S+\.\S+$/u, // an e-mail address
  // A date (and time) in a locale's medium or long style: "29. Nov. 2026, 06:12", "Nov 29,
  // 2026, 3:05 PM", "November 2026", "29 nov. 2026".
  new RegExp(`^(?=.*\\p{N})[\\p{N}\\s.,:/-]*(${MONTHS})\\.?[\\p{N}\\s.,:/à-]*(\\s?(AM|PM))?$`, "iu"),
];

/**
 * The visible texts of `page` (text nodes, and `aria-label`, `title`, `placeholder` and `alt`
 * of shown elements) that are not platform data (inside `translate="no"`, or in another
 * `lang`) and match no pattern of the language, nor the shape of data.
 */
export async function foreignTexts(page, compiled) {
  const texts = await page.evaluate(() => {
    const lang = document.documentElement.lang;
    const excluded = (element) => {
      for (let e = element; e; e = e.parentElement) {
        if (e.getAttribute("translate") === "no") return true;
        const own = e.getAttribute("lang");
        if (own && e !== document.documentElement && own !== lang) return true;
        if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(e.tagName)) return true;
      }
      return false;
    };
    const shown = (element) => element.getClientRects().length > 0;
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      if (text && node.parentElement && shown(node.parentElement) && !excluded(node.parentElement)) found.push(text);
    }
    for (const element of document.body.querySelectorAll("[aria-label],[title],[placeholder],[alt]")) {
      if (!shown(element) || excluded(element)) continue;
      for (const name of ["aria-label", "title", "placeholder", "alt"]) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return [...new Set(found)];
  });
  return texts.filter((text) => !DATA.some((p) => p.test(text)) && !compiled.some((p) => p.test(text)));
}

// --- The catalog's files, and its messages rendered as the console renders them ----------

const LOCALES = path.join(ROOT, "locales");
const read = new Map();

/**
 * The messages of `language` as locales/<language>/*.msg holds them, key → message: read as
 * crates/gifting-catalog reads the files (`read_language`, `read_file`): files in name order,
 * lines trimmed at the end, blank lines and lines starting with `#` skipped, `key = message`
 * split at the first ` = `, `\n` a line break, a key only once.
 */
export function messages(language) {
  if (read.has(language)) return read.get(language);
  const dir = path.join(LOCALES, language);
  const found = new Map();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".msg")).sort()) {
    const lines = readFileSync(path.join(dir, file), "utf8").split("\n");
    lines.forEach((raw, index) => {
      const line = raw.replace(/\r$/, "").trimEnd();
      if (line.trim() === "" || line.startsWith("#")) return;
      const place = `${dir}/${file}: line ${index + 1}`;
      const split = line.indexOf(" = ");
      if (split === -1) throw new Error(`${place}: expected \`key = message\``);
      const key = line.slice(0, split);
      if (!/^[a-z0-9_.]+$/.test(key)) throw new Error(`${place}: a key is lowercase letters, digits, \`_\` and \`.\``);
      if (found.has(key)) throw new Error(`${place}: \`${key}\` is already in the catalog`);
      found.set(key, line.slice(split + 3).replaceAll("\\n", "\n"));
    });
  }
  read.set(language, found);
  return found;
}

/** A message in parts, as crates/gifting-catalog/src/message.rs `parse` reads it. */
function parse(message) {
  let at = 0;
  const fail = (what) => {
    throw new Error(`${JSON.stringify(message)}: ${what} at ${at}`);
  };
  const word = () => {
    const start = at;
    while (at < message.length && /[A-Za-z0-9_=]/.test(message[at])) at += 1;
    return message.slice(start, at);
  };
  const spaces = () => {
    while (at < message.length && /\s/u.test(message[at])) at += 1;
  };
  const eat = (c) => message[at] === c && (at += 1);
  const parts = (inPlural) => {
    const out = [];
    for (;;) {
      let stop = at;
      while (stop < message.length && !"{}".includes(message[stop]) && !(inPlural && message[stop] === "#")) stop += 1;
      if (stop > at) out.push({ text: message.slice(at, stop) });
      at = stop;
      if (eat("{")) out.push(argument());
      else if (eat("#")) out.push({ count: true });
      else return out;
    }
  };
  const argument = () => {
    const name = word();
    if (!name) fail("an argument needs a name");
    spaces();
    if (eat("}")) return { arg: name };
    if (!eat(",")) fail("expected `}` or `,` after an argument's name");
    spaces();
    const kind = word();
    if (kind !== "plural" && kind !== "select") fail("expected `plural` or `select`");
    spaces();
    if (!eat(",")) fail("expected `,` before the branches");
    const branches = [];
    for (;;) {
      spaces();
      if (eat("}")) break;
      const selector = word();
      if (!selector) fail("expected a branch's selector");
      spaces();
      if (!eat("{")) fail("expected `{` after a selector");
      const inner = parts(kind === "plural");
      if (!eat("}")) fail("a branch is not closed");
      branches.push([selector, inner]);
    }
    if (!branches.some(([s]) => s === "other")) fail("a choice needs an `other` branch");
    return { choice: name, branches };
  };
  const out = parts(false);
  if (at < message.length) fail("a `}` closes nothing");
  return out;
}

/**
 * The locale the console formats with in `language` (src/i18n/mod.rs `show`): the browser's
 * own (`navigator.language`) when it speaks that language, else the language itself; English
 * for the pseudo-languages.
 */
export function consoleLocale(language, browser = language) {
  if (["en-XA", "ar-XB"].includes(language)) return "en";
  return String(browser).split("-")[0] === language ? browser : language;
}

/**
 * A count as the console writes it in `locale` (src/i18n/intl.rs `format_count`): grouped by
 * `Intl.NumberFormat`, with `Intl`'s default locale when it refuses `locale`.
 */
export function countText(n, locale) {
  const options = { minimumFractionDigits: 0, maximumFractionDigits: 0 };
  let format;
  try {
    format = new Intl.NumberFormat([locale], options);
  } catch {
    format = new Intl.NumberFormat([], options);
  }
  const text = format.format(String(n));
  return text && text !== "NaN" ? text : String(n);
}

/**
 * Writes message `key` of `language` with `args` (message.rs `render`): a number is a count
 * (it chooses a plural branch, `=N` first, then the language's category, then `other`, and
 * is written grouped in the console's locale, `#` too), a string is written as it is and
 * chooses a select branch. With `pattern`, the result is a regular expression's source
 * instead: the text escaped, spaces any spaces, an argument not given any text (`#` of a
 * branch not chosen: any count, captured) and a choice without its value any branch.
 * Without `pattern` every argument must be given (the console would write `{name}`, which a
 * spec would then look for in vain). `browser` is the browser's own locale (consoleLocale).
 */
function write(language, key, args, { browser, pattern }) {
  const message = messages(language).get(key);
  if (message === undefined) throw new Error(`locales/${language}: no message \`${key}\``);
  const locale = consoleLocale(language, browser);
  const one = language === "fr" ? (n) => n <= 1n : (n) => n === 1n;
  const literal = (text) => (pattern ? escape(text).replace(/\s+/g, "\\s+") : text);
  const value = (name) => {
    if (!(name in args)) {
      if (pattern) return null;
      throw new Error(`${key}: no argument \`${name}\` given`);
    }
    const v = args[name];
    return typeof v === "number" || typeof v === "bigint" ? { n: BigInt(v), shown: countText(v, locale) } : { text: String(v) };
  };
  const render = (parts, count) =>
    parts
      .map((part) => {
        if (part.text !== undefined) return literal(part.text);
        if (part.count) return count === undefined ? (pattern ? `(${COUNT})` : "#") : literal(count);
        if (part.arg !== undefined) {
          const v = value(part.arg);
          return v === null ? "(.+?)" : literal(v.shown ?? v.text);
        }
        const v = value(part.choice);
        if (v === null) return `(?:${part.branches.map(([, inner]) => render(inner, count)).join("|")})`;
        const wanted = v.n === undefined ? v.text : one(v.n) ? "one" : "other";
        const pick = (test) => part.branches.find(([selector]) => test(selector));
        const [, chosen] =
          (v.n !== undefined && pick((s) => s.startsWith("=") && /^\d+$/.test(s.slice(1)) && BigInt(s.slice(1)) === v.n)) ||
          pick((s) => s === wanted) ||
          pick((s) => s === "other");
        return render(chosen, v.shown ?? count);
      })
      .join("");
  return render(parse(message), undefined);
}

/** Message `key` of `language` as the console shows it with `args` (see `write`). */
export function say(language, key, args = {}, { browser } = {}) {
  return write(language, key, args, { browser, pattern: false });
}

/**
 * Message `key` of `language` as a regular expression's source, the arguments in `args` as
 * `say` writes them and the others matching any text (see `write`).
 */
export function sayPattern(language, key, args = {}, { browser } = {}) {
  return write(language, key, args, { browser, pattern: true });
}
