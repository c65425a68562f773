// The message catalog as the tests read it: a language's bundle from dist/ (what the browser
// fetches), each message turned into a pattern its rendered text must match, and the page's
// texts that match none of them.

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
