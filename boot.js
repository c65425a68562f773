// Starts the console from an external module so the Content-Security-Policy
// needs no 'unsafe-inline' (Trunk's default loader is an inline script).
// Trunk writes the hashed file names into this script's own tag: see
// `pattern_script` in Trunk.toml. The release build minifies this file.
const tag = document.querySelector("script[data-gifting-boot]");

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
  ["Web Crypto (open the console at an https:// address)", !!globalThis.crypto?.subtle],
  ["Intl", typeof Intl == "object"],
].filter(([, has]) => !has).map(([name]) => name);

if (missing.length > 0) {
  say(
    `This browser cannot run the Gifting Console: it lacks ${missing.join(", ")}. ` +
      "Use a current Chrome, Edge or Firefox, or Safari 17 or later.",
  );
} else {
  try {
    if (!tag || !tag.dataset.js || !tag.dataset.wasm) {
      throw new Error("boot.js: the loader tag lacks data-js / data-wasm");
    }
    const { default: init } = await import(tag.dataset.js);
    await init({ module_or_path: tag.dataset.wasm });
  } catch (error) {
    console.error("Gifting Console failed to start:", error);
    say(
      "The Gifting Console could not start. Reload the page; if this keeps happening, " +
        "the browser console has the details.",
    );
  }
}
