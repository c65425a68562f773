// Starts the console from an external module so the Content-Security-Policy
// needs no 'unsafe-inline'. The release build writes the hashed file names into
// this script's own tag and minifies this file (scripts/build-console.mjs).
const tag = document.querySelector("script[data-gifting-boot]");
// The SHA-256 of each file fetched here (the wasm, the language bundles), by name, from the tag
// in index.html: the fetch refuses any other bytes, as a failed download.
const digests = JSON.parse(tag?.dataset.integrity ?? "{}");
const checked = (url, cache) => fetch(url, { integrity: digests[url.pathname.split("/").pop()], cache });

// The theme and density chosen in Preferences, on <html> before anything is drawn (no flash of
// the other theme, and no wasm binding in the first load for it). The console's src/prefs.rs
// writes these two keys and owns every other; reading them is all this does.
try {
  for (const look of ["theme", "density"]) {
    const kept = localStorage.getItem(`gifting-console.pref.${look}`);
    if (kept) document.documentElement.dataset[look] = kept;
  }
} catch {
  // Storage turned off: the defaults.
}

// The language: the one chosen in the console (kept by src/prefs.rs), else the first of the
// browser's languages the console speaks, else English. Its messages (one JSON bundle beside
// the wasm, made from locales/) are fetched now, while the wasm downloads; src/i18n asks
// `giftingCatalog.load` for them and for any language chosen later.
const LANGUAGES = ["en", "de", "fr", "en-XA", "ar-XB"];
function pickLanguage() {
  let kept = null;
  try {
    kept = localStorage.getItem("gifting-console.pref.language");
  } catch {
    // Storage turned off: the browser's languages decide.
  }
  if (LANGUAGES.includes(kept)) return kept;
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language]) {
    const found = LANGUAGES.find((lang) => lang.toLowerCase() === String(tag).toLowerCase()) ??
      LANGUAGES.find((lang) => lang === String(tag).split("-")[0].toLowerCase());
    if (found) return found;
  }
  return "en";
}
const lang = pickLanguage();
const bundles = new Map();
const refused = new Set();
globalThis.giftingCatalog = {
  lang,
  load(code) {
    if (!bundles.has(code)) {
      const url = new URL(`i18n-${code}.json`, new URL(tag?.dataset.js ?? "", location.href));
      const bundle = checked(url, refused.has(code) ? "reload" : "default").then((answer) => {
        if (!answer.ok) throw new Error(`${url.pathname}: ${answer.status}`);
        return answer.json();
      });
      // A failed fetch may be tried again later, from the server: the browser's cache may hold
      // the bytes it refused.
      bundle.catch(() => {
        bundles.delete(code);
        refused.add(code);
      });
      bundles.set(code, bundle);
    }
    return bundles.get(code);
  },
};
document.documentElement.lang = lang;
document.documentElement.dir = lang === "ar-XB" ? "rtl" : "ltr";
if (lang !== "en") giftingCatalog.load(lang).catch(() => {});

// Said before the console can speak. English here; another language's words are the first
// three messages of its bundle (locales/<language>/_boot.msg), fetched above.
const ENGLISH = [
  "This browser cannot run the Gifting Console: it lacks {what}. Use a current Chrome, Edge or " +
    "Firefox, or Safari 17 or later.",
  "Web Crypto (open the console at an https:// address)",
  "The Gifting Console could not start. Reload the page; if this keeps happening, the browser " +
    "console has the details.",
];
async function said(index, what = "") {
  const words = lang === "en" ? ENGLISH : await giftingCatalog.load(lang).catch(() => ENGLISH);
  return (words[index] ?? ENGLISH[index]).replace("{what}", what);
}

function say(text) {
  // A start that cannot happen must never leave a blank page.
  const main = document.createElement("main");
  const message = document.createElement("p");
  message.setAttribute("role", "alert");
  message.textContent = text;
  main.append(message);
  document.body.append(main);
}

// What the console cannot do without (README.md, "Browsers"); without BroadcastChannel or
// Web Locks it still works, tab by tab. Web Crypto (the PKCE of sign-in) exists only on
// https:// pages or this machine's own addresses.
const missing = [
  ["WebAssembly", typeof WebAssembly == "object"],
  [1, !!globalThis.crypto?.subtle],
  ["Intl", typeof Intl == "object"],
].filter(([, has]) => !has).map(([name]) => name);

if (missing.length > 0) {
  const names = await Promise.all(missing.map((name) => (typeof name == "number" ? said(name) : name)));
  say(await said(0, names.join(", ")));
} else {
  try {
    if (!tag || !tag.dataset.js || !tag.dataset.wasm || !tag.dataset.integrity) {
      throw new Error("boot.js: the loader tag lacks data-js / data-wasm / data-integrity");
    }
    // The first screen's messages before the wasm starts (it is downloading meanwhile, see the
    // preload in index.html): src/i18n reads them from `giftingCatalog.messages`.
    // The glue and the split loader (which the glue imports) are checked against their digests
    // before the import: Chromium and Firefox refuse a module whose modulepreload (index.html)
    // failed its integrity, but WebKitGTK 2.50 runs it anyway. The import then takes the bytes
    // these fetches checked, from the browser's caches.
    const code = new URL(tag.dataset.js, location.href);
    const [messages, { default: init }] = await Promise.all([
      lang === "en" ? null : giftingCatalog.load(lang).catch(() => null),
      Promise.all([checked(code), checked(new URL("__wasm_split.js", code))]).then(() => import(code)),
    ]);
    giftingCatalog.messages = messages;
    // The wasm is fetched against its digest too: refused bytes stop the start like a failed fetch.
    await init({ module_or_path: checked(new URL(tag.dataset.wasm, location.href)) });
  } catch (error) {
    console.error("Gifting Console failed to start:", error);
    say(await said(2));
  }
}
